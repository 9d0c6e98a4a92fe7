package dev.strata.lang.funcs;

import static dev.strata.lang.funcs.Args.str;
import static dev.strata.lang.funcs.Dsl.p;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;

/** String functions; {@code format} and {@code formatlist} live in {@link Format}. */
final class StringFuncs {
    private StringFuncs() {}

    static void register(Functions.Registry r) {
        r.add(unary("chomp", s -> s.replaceFirst("(?:\\r\\n|\\r|\\n)+$", "")));
        // Go maps case one code point at a time (so "ß" stays "ß"), unlike String.toUpperCase.
        r.add(unary("lower", s -> mapCodePoints(s, Character::toLowerCase)));
        r.add(unary("upper", s -> mapCodePoints(s, Character::toUpperCase)));
        r.add(unary("strrev", s -> {
            List<String> g = new ArrayList<>(Args.graphemes(s));
            Collections.reverse(g);
            return String.join("", g);
        }));
        r.add(unary("title", StringFuncs::title));
        r.add(unary("trimspace", StringFuncs::trimSpace));
        r.add(predicate("endswith", "suffix", String::endsWith));
        r.add(predicate("startswith", "prefix", String::startsWith));
        r.add(Function.builder("strcontains")
                .param("str", Type.STRING)
                .param("substr", Type.STRING)
                .returns(Type.BOOL)
                .impl((a, t) -> Value.bool(str(a, 0).contains(str(a, 1))))
                .build());
        r.add(binary("trimprefix", "prefix", (s, x) -> s.startsWith(x) ? s.substring(x.length()) : s));
        r.add(binary("trimsuffix", "suffix", (s, x) -> s.endsWith(x) ? s.substring(0, s.length() - x.length()) : s));
        r.add(binary("trim", "cutset", StringFuncs::trim));
        r.add(Function.builder("indent")
                .param("spaces", Type.NUMBER)
                .param("str", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> {
                    int spaces = Args.integer(a, 0, true, "spaces");
                    if (spaces < 0) {
                        throw FunctionError.call("the number of spaces must not be negative");
                    }
                    String pad = " ".repeat(spaces);
                    return Value.string(str(a, 1).replace("\n", "\n" + pad));
                })
                .build());
        r.add(Function.builder("join")
                .param("separator", Type.STRING)
                .varParam(p("lists", Type.list(Type.STRING)))
                .returns(Type.STRING)
                .impl(StringFuncs::join)
                .build());
        r.add(Function.builder("split")
                .param("separator", Type.STRING)
                .param("str", Type.STRING)
                .returns(Type.list(Type.STRING))
                .impl((a, t) -> Args.strList(split(str(a, 1), str(a, 0))))
                .build());
        r.add(Function.builder("substr")
                .param("str", Type.STRING)
                .param("offset", Type.NUMBER)
                .param("length", Type.NUMBER)
                .returns(Type.STRING)
                .impl(StringFuncs::substr)
                .build());
        r.add(Function.builder("replace")
                .param("str", Type.STRING)
                .param("substr", Type.STRING)
                .param("replace", Type.STRING)
                .returns(Type.STRING)
                .impl(StringFuncs::replace)
                .build());
        r.add(Function.builder("regex")
                .param("pattern", Type.STRING)
                .param("string", Type.STRING)
                .returns(a -> regexType(a.get(0)))
                .impl((a, t) -> {
                    Pattern pat = compile(a, 0);
                    Matcher m = pat.matcher(str(a, 1));
                    if (!m.find()) {
                        throw FunctionError.call("pattern did not match any part of the given string");
                    }
                    return captures(pat, m);
                })
                .build());
        r.add(Function.builder("regexall")
                .param("pattern", Type.STRING)
                .param("string", Type.STRING)
                .returns(a -> Type.list(regexType(a.get(0))))
                .impl((a, t) -> {
                    Pattern pat = compile(a, 0);
                    List<Value> out = new ArrayList<>();
                    forEachMatch(pat, str(a, 1), m -> out.add(captures(pat, m)));
                    return Value.list(((ListType) t).elem(), out);
                })
                .build());
        Format.register(r);
    }

    private static Function unary(String name, UnaryOperator<String> op) {
        return Function.builder(name)
                .param("str", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(op.apply(str(a, 0))))
                .build();
    }

    private static Function binary(String name, String second, BinaryOperator<String> op) {
        return Function.builder(name)
                .param("str", Type.STRING)
                .param(second, Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(op.apply(str(a, 0), str(a, 1))))
                .build();
    }

    private static Function predicate(String name, String second, java.util.function.BiPredicate<String, String> op) {
        return Function.builder(name)
                .param("str", Type.STRING)
                .param(second, Type.STRING)
                .returns(Type.BOOL)
                .impl((a, t) -> Value.bool(op.test(str(a, 0), str(a, 1))))
                .build();
    }

    private static String mapCodePoints(String s, java.util.function.IntUnaryOperator f) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> b.appendCodePoint(f.applyAsInt(cp)));
        return b.toString();
    }

    /** Upper-cases the first letter of each word; words are separated like Go's strings.Title. */
    static String title(String s) {
        StringBuilder b = new StringBuilder();
        int prev = ' ';
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            b.appendCodePoint(isSeparator(prev) ? Character.toTitleCase(cp) : cp);
            prev = cp;
            i += Character.charCount(cp);
        }
        return b.toString();
    }

    private static boolean isSeparator(int cp) {
        if (cp <= 0x7F) {
            return !(Character.isLetterOrDigit(cp) || cp == '_');
        }
        if (Character.isLetterOrDigit(cp)) {
            return false;
        }
        return Character.isWhitespace(cp) || Character.isSpaceChar(cp);
    }

    private static boolean isSpace(int cp) {
        return Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == 0x85;
    }

    static String trimSpace(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isSpace(s.codePointAt(start))) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (end > start && isSpace(s.codePointBefore(end))) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    private static String trim(String s, String cutset) {
        int start = 0;
        int end = s.length();
        while (start < end && cutset.indexOf(s.codePointAt(start)) >= 0) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (end > start && cutset.indexOf(s.codePointBefore(end)) >= 0) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    private static Value join(List<Value> a, Type t) {
        if (a.size() < 2) {
            throw FunctionError.call("at least one list is required");
        }
        StringBuilder b = new StringBuilder();
        boolean first = true;
        for (int i = 1; i < a.size(); i++) {
            List<Value> elems = a.get(i).elements();
            for (int j = 0; j < elems.size(); j++) {
                Value e = elems.get(j);
                if (e.isNull()) {
                    throw FunctionError.arg(i, "element " + j + " is null; cannot concatenate null values");
                }
                if (!first) {
                    b.append(str(a, 0));
                }
                first = false;
                b.append(e.asString());
            }
        }
        return Value.string(b.toString());
    }

    /** Go's strings.Split: an empty separator splits after each character. */
    static List<String> split(String s, String sep) {
        List<String> out = new ArrayList<>();
        if (sep.isEmpty()) {
            s.codePoints().forEach(cp -> out.add(new String(Character.toChars(cp))));
            return out;
        }
        int from = 0;
        for (int at = s.indexOf(sep); at >= 0; at = s.indexOf(sep, from)) {
            out.add(s.substring(from, at));
            from = at + sep.length();
        }
        out.add(s.substring(from));
        return out;
    }

    private static Value substr(List<Value> a, Type t) {
        List<String> g = Args.graphemes(str(a, 0));
        int offset = Args.integer(a, 1, true, "offset");
        int length = Args.integer(a, 2, true, "length");
        int n = g.size();
        if (offset < 0) {
            offset = Math.max(0, n + offset);
        }
        if (offset > n) {
            return Value.string("");
        }
        int end = offset + length;
        if (length < 0 || end > n) {
            end = n;
        }
        if (end <= offset) {
            return Value.string("");
        }
        return Value.string(String.join("", g.subList(offset, end)));
    }

    private static Value replace(List<Value> a, Type t) {
        String s = str(a, 0);
        String sub = str(a, 1);
        String rep = str(a, 2);
        if (sub.length() >= 2 && sub.startsWith("/") && sub.endsWith("/")) {
            Pattern pat;
            try {
                pat = Pattern.compile(sub.substring(1, sub.length() - 1));
            } catch (PatternSyntaxException e) {
                // replace reports the regexp package's own error text, unlike regex and regexall.
                throw FunctionError.callRevealing(
                        "error parsing regexp: " + e.getDescription() + ": `" + e.getPattern() + "`");
            }
            return Value.string(replaceAll(pat, s, rep));
        }
        if (sub.isEmpty()) {
            StringBuilder b = new StringBuilder(rep);
            s.codePoints().forEach(cp -> b.appendCodePoint(cp).append(rep));
            return Value.string(b.toString());
        }
        return Value.string(s.replace(sub, rep));
    }

    /** Visits successive matches with Go's rule: an empty match next to the previous match is skipped. */
    private static void forEachMatch(Pattern pat, String s, java.util.function.Consumer<Matcher> each) {
        Matcher m = pat.matcher(s);
        int pos = 0;
        int prevEnd = -1;
        while (pos <= s.length() && m.find(pos)) {
            int st = m.start();
            int en = m.end();
            if (st == en && st == prevEnd) {
                if (st >= s.length()) {
                    break;
                }
                pos = st + Character.charCount(s.codePointAt(st));
                continue;
            }
            each.accept(m);
            prevEnd = en;
            pos = st == en ? (en < s.length() ? en + Character.charCount(s.codePointAt(en)) : en + 1) : en;
        }
    }

    /** Regexp replacement with Go's template syntax: $1, $name, ${name}, $$. */
    private static String replaceAll(Pattern pat, String s, String template) {
        StringBuilder out = new StringBuilder();
        int[] last = {0};
        forEachMatch(pat, s, m -> {
            out.append(s, last[0], m.start());
            expand(out, template, pat, m);
            last[0] = m.end();
        });
        out.append(s, last[0], s.length());
        return out.toString();
    }

    private static void expand(StringBuilder out, String t, Pattern pat, Matcher m) {
        Map<String, Integer> named = pat.namedGroups();
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c != '$' || i + 1 >= t.length()) {
                out.append(c);
                continue;
            }
            char n = t.charAt(i + 1);
            if (n == '$') {
                out.append('$');
                i++;
                continue;
            }
            String name;
            int next;
            if (n == '{') {
                int close = t.indexOf('}', i + 2);
                if (close < 0) {
                    out.append(c);
                    continue;
                }
                name = t.substring(i + 2, close);
                next = close;
            } else {
                int j = i + 1;
                while (j < t.length() && (Character.isLetterOrDigit(t.charAt(j)) || t.charAt(j) == '_')) {
                    j++;
                }
                if (j == i + 1) {
                    out.append(c);
                    continue;
                }
                name = t.substring(i + 1, j);
                next = j - 1;
            }
            int group = -1;
            if (name.chars().allMatch(Character::isDigit) && !name.isEmpty()) {
                group = name.length() > 9 ? -1 : Integer.parseInt(name);
            } else if (named.containsKey(name)) {
                group = named.get(name);
            }
            if (group >= 0 && group <= m.groupCount() && m.group(group) != null) {
                out.append(m.group(group));
            }
            i = next;
        }
    }

    private static Pattern compile(List<Value> a, int i) {
        return compilePattern(str(a, i), i);
    }

    private static Pattern compilePattern(String p, int i) {
        Pattern pat;
        try {
            pat = Pattern.compile(p);
        } catch (PatternSyntaxException e) {
            throw FunctionError.argRevealing(
                    i, "invalid regexp pattern: " + e.getDescription() + " in " + e.getPattern());
        }
        int named = pat.namedGroups().size();
        if (named > 0 && named != pat.groupCount()) {
            throw FunctionError.arg(i, "invalid regexp pattern: cannot mix both named and unnamed capture groups");
        }
        return pat;
    }

    /** The result type of regex for a pattern: string, tuple of strings, or object of strings. */
    private static Type regexType(Value pattern) {
        if (!pattern.isKnown()) {
            return Type.DYNAMIC;
        }
        Pattern pat = compilePattern(pattern.asString(), 0);
        Map<String, Integer> named = pat.namedGroups();
        int groups = pat.matcher("").groupCount();
        if (groups == 0) {
            return Type.STRING;
        }
        if (!named.isEmpty()) {
            Map<String, Type> attrs = new TreeMap<>();
            named.keySet().forEach(k -> attrs.put(k, Type.STRING));
            return new ObjectType(attrs);
        }
        return Type.tuple(Collections.nCopies(groups, Type.STRING));
    }

    private static Value captures(Pattern pat, Matcher m) {
        int groups = m.groupCount();
        if (groups == 0) {
            return Value.string(m.group());
        }
        Map<String, Integer> named = pat.namedGroups();
        if (!named.isEmpty()) {
            Map<String, Value> attrs = new LinkedHashMap<>();
            named.forEach((k, idx) -> attrs.put(k, group(m, idx)));
            return Value.object(attrs);
        }
        List<Value> out = new ArrayList<>();
        for (int g = 1; g <= groups; g++) {
            out.add(group(m, g));
        }
        return Value.tuple(out);
    }

    private static Value group(Matcher m, int g) {
        String s = m.group(g);
        return s == null ? Value.nullValue(Type.STRING) : Value.string(s);
    }
}
