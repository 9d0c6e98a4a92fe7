package dev.strata.lang.funcs;

import dev.strata.hcl.Nesting;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * YAML for yamldecode/yamlencode. snakeyaml-engine parses and composes the node graph (anchors
 * and aliases resolved); plain scalars are then resolved the way Terraform resolves them, which
 * follows YAML 1.1 ({@code yes}/{@code no}/{@code on}/{@code off} are booleans, {@code 0x10} is
 * 16, dates become RFC 3339 timestamps). The encoder is our own, to produce Terraform's layout:
 * block style, every string double-quoted unless it spans lines.
 */
final class Yaml {
    private Yaml() {}

    // Matchers for our own constant patterns, never for user input.
    private static final Pattern BOOL_TRUE = Pattern.compile("y|Y|yes|Yes|YES|true|True|TRUE|on|On|ON");
    private static final Pattern BOOL_FALSE = Pattern.compile("n|N|no|No|NO|false|False|FALSE|off|Off|OFF");
    private static final Pattern NULL = Pattern.compile("~|null|Null|NULL|");
    private static final Pattern DEC = Pattern.compile("[-+]?[0-9]+");
    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]+");
    private static final Pattern OCT = Pattern.compile("0o[0-7]+");
    private static final Pattern FLOAT = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    private static final Pattern INF_NAN = Pattern.compile("[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
    private static final String STANDARD_TAGS = "tag:yaml.org,2002:";
    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}");
    private static final Pattern TIMESTAMP = Pattern.compile(
            "([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[Tt]|[ \\t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\\.[0-9]*)?"
                    + "[ \\t]*(Z|[-+][0-9]{1,2}(?::?[0-9]{2})?)?");

    /**
     * The deepest nesting yamldecode accepts: as deep as jsondecode. Terraform's YAML decoder has no
     * limit, but its time grows with the square of the depth (measured: 10,001 levels take 4 s, 20,000
     * more than four minutes), and so does snakeyaml's scanner (10,001 levels: 11 s; 100,000: 70 s), so a
     * deeper limit would only let a document stall a run.
     */
    static final int MAX_DEPTH = Json.MAX_DEPTH;

    static Value decode(String src) {
        LoadSettings settings =
                LoadSettings.builder().setAllowDuplicateKeys(true).build();
        Optional<Node> root;
        try {
            // The composer and the conversion below recurse once per level: measure the depth first with
            // the event parser, which does not recurse, and run deep documents on a deep stack.
            int depth = depth(settings, src);
            if (depth > Nesting.HANDOFF_DEPTH) {
                return Nesting.onDeepStack(() -> value(new Compose(settings).composeString(src)));
            }
            root = new Compose(settings).composeString(src);
        } catch (MarkedYamlEngineException e) {
            String where = e.getProblemMark()
                    .map(m -> "on line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1) + ": ")
                    .orElse("");
            throw FunctionError.callRevealing(where + e.getProblem());
        } catch (YamlEngineException e) {
            throw FunctionError.callRevealing(e.getMessage());
        }
        return value(root);
    }

    private static Value value(Optional<Node> root) {
        if (root.isEmpty()) {
            throw FunctionError.call("on line 1, column 1: missing start of document");
        }
        return node(root.get(), new IdentityHashMap<>());
    }

    /** The deepest nesting of sequences and mappings in {@code src}; an error beyond {@link #MAX_DEPTH}. */
    private static int depth(LoadSettings settings, String src) {
        int depth = 0;
        int max = 0;
        for (Event e : new Parse(settings).parseString(src)) {
            nonSpecificTag(e);
            switch (e.getEventId()) {
                case SequenceStart, MappingStart -> {
                    if (++depth > MAX_DEPTH) {
                        String where = e.getStartMark()
                                .map(m -> "on line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1) + ": ")
                                .orElse("");
                        throw FunctionError.call(
                                where + "exceeded max depth of " + MAX_DEPTH + " nested sequences and " + "mappings");
                    }
                    max = Math.max(max, depth);
                }
                case SequenceEnd, MappingEnd -> depth--;
                default -> {}
            }
        }
        return max;
    }

    private static Value node(Node n, IdentityHashMap<Node, Boolean> active) {
        if (active.containsKey(n)) {
            throw FunctionError.call("cannot decode a recursive YAML structure");
        }
        active.put(n, true);
        try {
            return switch (n) {
                case ScalarNode s -> scalar(s);
                case SequenceNode q -> {
                    requireTag(q, "sequence", STANDARD_TAGS + "seq");
                    List<Value> out = new ArrayList<>();
                    for (Node e : q.getValue()) {
                        out.add(node(e, active));
                    }
                    yield Value.tuple(out);
                }
                case MappingNode m -> {
                    requireTag(m, "mapping", STANDARD_TAGS + "map");
                    Map<String, Value> out = new LinkedHashMap<>();
                    for (NodeTuple t : m.getValue()) {
                        Value k = node(t.getKeyNode(), active);
                        String key = k.isNull()
                                ? "null"
                                : k.type().equals(Type.STRING)
                                        ? k.asString()
                                        : k.type().isPrimitive()
                                                ? (k.type().equals(Type.NUMBER)
                                                        ? k.asNumber().toPlainString()
                                                        : Boolean.toString(k.asBool()))
                                                : null;
                        if (key == null) {
                            throw FunctionError.call("only strings, numbers and booleans are allowed as mapping keys");
                        }
                        out.put(key, node(t.getValueNode(), active));
                    }
                    yield Value.object(out);
                }
                default -> throw FunctionError.call("unsupported YAML node");
            };
        } finally {
            active.remove(n);
        }
    }

    /**
     * The non-specific tag {@code !} (which the composer would resolve away, as a string or as the
     * collection it is) is refused, as Terraform's decoder refuses it: on a scalar as an unsupported
     * tag, on a sequence or mapping as a kind it cannot be.
     */
    private static void nonSpecificTag(Event e) {
        if (e instanceof org.snakeyaml.engine.v2.events.ScalarEvent sc
                && sc.getTag().filter("!"::equals).isPresent()) {
            throw FunctionError.callRevealing("unsupported tag \"!\"");
        }
        if (e instanceof org.snakeyaml.engine.v2.events.CollectionStartEvent c
                && c.getTag().filter("!"::equals).isPresent()) {
            String kind = e.getEventId() == Event.ID.SequenceStart ? "sequence" : "mapping";
            throw FunctionError.callRevealing("can't interpret " + kind + " as !");
        }
    }

    /** A sequence or mapping decodes only as what it is: an explicit tag naming anything else is an error. */
    private static void requireTag(Node n, String kind, String tag) {
        String given = n.getTag().getValue();
        if (!given.equals(tag)) {
            throw FunctionError.callRevealing("can't interpret " + kind + " as " + given);
        }
    }

    private static Value scalar(ScalarNode s) {
        String v = s.getValue();
        if (!s.isResolved()) {
            return tagged(s.getTag().getValue(), v, s.isPlain());
        }
        if (!s.isPlain()) {
            return Value.string(v);
        }
        return plain(v);
    }

    /**
     * A scalar with an explicit tag: the core schema's tags decode the text as that kind (binary
     * stays its base64 text), any other tag is refused rather than read as a string.
     */
    private static Value tagged(String tag, String v, boolean isPlain) {
        if (!tag.startsWith(STANDARD_TAGS)) {
            throw FunctionError.callRevealing("unsupported tag " + Args.q(tag));
        }
        String kind = tag.substring(STANDARD_TAGS.length());
        Value plain;
        boolean resolvesText =
                kind.equals("int") || kind.equals("float") || kind.equals("bool") || kind.equals("timestamp");
        if (resolvesText && !isPlain) {
            // Quoted text stays a string whatever its tag says.
            return Value.string(v);
        }
        switch (kind) {
            case "str", "binary" -> {
                return Value.string(v);
            }
            case "null" -> {
                return Value.NULL;
            }
            case "int" -> {
                plain = plain(v);
                if (plain.isNull() || !plain.type().equals(Type.NUMBER) || !Args.isWhole(plain.asNumber())) {
                    throw cannotParse(v, tag);
                }
            }
            case "float" -> {
                plain = plain(v);
                if (plain.isNull() || !plain.type().equals(Type.NUMBER)) {
                    throw cannotParse(v, tag);
                }
            }
            case "bool" -> {
                plain = plain(v);
                if (plain.isNull() || !plain.type().equals(Type.BOOL)) {
                    throw cannotParse(v, tag);
                }
            }
            case "timestamp" -> {
                plain = plain(v);
                if (!TIMESTAMP.matcher(v).matches() && !DATE.matcher(v).matches()) {
                    throw cannotParse(v, tag);
                }
            }
            default -> throw FunctionError.callRevealing("unsupported tag " + Args.q(tag));
        }
        return plain;
    }

    private static FunctionError cannotParse(String v, String tag) {
        return FunctionError.callRevealing("cannot parse " + Args.q(v) + " as " + tag);
    }

    /** An untagged plain scalar, resolved by the YAML 1.1 rules Terraform's decoder follows. */
    private static Value plain(String v) {
        if (NULL.matcher(v).matches()) {
            return Value.NULL;
        }
        if (BOOL_TRUE.matcher(v).matches()) {
            return Value.TRUE;
        }
        if (BOOL_FALSE.matcher(v).matches()) {
            return Value.FALSE;
        }
        if (DEC.matcher(v).matches()) {
            return Value.number(new BigInteger(v.startsWith("+") ? v.substring(1) : v));
        }
        if (HEX.matcher(v).matches()) {
            return Value.number(new BigInteger(v.substring(2), 16));
        }
        if (OCT.matcher(v).matches()) {
            return Value.number(new BigInteger(v.substring(2), 8));
        }
        if (FLOAT.matcher(v).matches()) {
            String f = v.startsWith("+") ? v.substring(1) : v;
            return Value.number(new BigDecimal(
                    f.endsWith(".") ? f + "0" : f.replace(".e", ".0e").replace(".E", ".0E")));
        }
        if (INF_NAN.matcher(v).matches()) {
            if (v.toLowerCase(java.util.Locale.ROOT).endsWith("nan")) {
                throw FunctionError.call("NaN is not a number Terraform can represent");
            }
            return v.startsWith("-") ? Value.NEGATIVE_INFINITY : Value.POSITIVE_INFINITY;
        }
        java.util.regex.Matcher ts = TIMESTAMP.matcher(v);
        if (ts.matches()) {
            String zone = ts.group(7) == null || ts.group(7).equals("Z") ? "Z" : offset(ts.group(7));
            return Value.string(String.format(
                    "%s-%02d-%02dT%02d:%s:%s%s",
                    ts.group(1),
                    Integer.parseInt(ts.group(2)),
                    Integer.parseInt(ts.group(3)),
                    Integer.parseInt(ts.group(4)),
                    ts.group(5),
                    ts.group(6),
                    zone));
        }
        if (DATE.matcher(v).matches()) {
            String[] p = v.split("-");
            return Value.string(
                    String.format("%s-%02d-%02dT00:00:00Z", p[0], Integer.parseInt(p[1]), Integer.parseInt(p[2])));
        }
        return Value.string(v);
    }

    private static String offset(String z) {
        String sign = z.substring(0, 1);
        String digits = z.substring(1).replace(":", "");
        int h = Integer.parseInt(digits.length() > 2 ? digits.substring(0, digits.length() - 2) : digits);
        int m = digits.length() > 2 ? Integer.parseInt(digits.substring(digits.length() - 2)) : 0;
        return h == 0 && m == 0 ? "Z" : String.format("%s%02d:%02d", sign, h, m);
    }

    // ---- encoding ----------------------------------------------------------------------------

    static String encode(Value v) {
        StringBuilder b = new StringBuilder();
        if (isMapping(v) && !v.isNull() && v.length() > 0) {
            mapping(v, 0, false, b);
        } else if (isSequence(v) && !v.isNull() && v.length() > 0) {
            sequence(v, 0, false, b);
        } else if (isMultiline(v)) {
            literal(v.asString(), 0, b);
        } else {
            b.append(inline(v)).append('\n');
            if (v.isNull() || v.type().isPrimitive() && !v.type().equals(Type.STRING)) {
                b.append("...\n");
            }
        }
        return b.toString();
    }

    private static boolean isMapping(Value v) {
        return v.type() instanceof MapType || v.type() instanceof ObjectType;
    }

    private static boolean isSequence(Value v) {
        return CollectionFuncs.isSeq(v.type());
    }

    /**
     * Whether a string is written as a literal block: it spans lines, and has nothing a block
     * cannot hold (tabs and other control characters, a space before a line break, a trailing
     * space), in which case Terraform writes it double-quoted.
     */
    private static boolean isMultiline(Value v) {
        if (v.isNull() || !v.type().equals(Type.STRING)) {
            return false;
        }
        String s = v.asString();
        if (!s.contains("\n") || s.contains(" \n") || s.endsWith(" ")) {
            return false;
        }
        return s.chars().noneMatch(c -> c != '\n' && (c < 0x20 || c == 0x7f));
    }

    private static boolean isBlock(Value v) {
        return !v.isNull() && (isMapping(v) || isSequence(v)) && v.length() > 0;
    }

    private static void mapping(Value m, int indent, boolean firstInline, StringBuilder b) {
        boolean first = true;
        for (Map.Entry<String, Value> e : m.attributes().entrySet()) {
            if (!(first && firstInline)) {
                b.append(" ".repeat(indent));
            }
            first = false;
            b.append(quote(e.getKey())).append(':');
            Value v = e.getValue();
            if (isBlock(v) && isMapping(v)) {
                b.append('\n');
                mapping(v, indent + 2, false, b);
            } else if (isBlock(v)) {
                b.append('\n');
                sequence(v, indent, false, b);
            } else if (isMultiline(v)) {
                b.append(' ');
                literal(v.asString(), indent + 2, b);
            } else {
                b.append(' ').append(inline(v)).append('\n');
            }
        }
    }

    private static void sequence(Value s, int indent, boolean firstInline, StringBuilder b) {
        boolean first = true;
        for (Value v : s.elements()) {
            if (!(first && firstInline)) {
                b.append(" ".repeat(indent));
            }
            first = false;
            b.append("- ");
            if (isBlock(v) && isMapping(v)) {
                mapping(v, indent + 2, true, b);
            } else if (isBlock(v)) {
                sequence(v, indent + 2, true, b);
            } else if (isMultiline(v)) {
                literal(v.asString(), indent + 2, b);
            } else {
                b.append(inline(v)).append('\n');
            }
        }
    }

    private static void literal(String s, int indent, StringBuilder b) {
        String body = s;
        String chomp;
        if (!s.endsWith("\n")) {
            chomp = "-";
        } else if (s.equals("\n") || s.endsWith("\n\n")) {
            chomp = "+";
            body = s.substring(0, s.length() - 1);
        } else {
            chomp = "";
            body = s.substring(0, s.length() - 1);
        }
        b.append('|')
                .append(s.startsWith(" ") || s.startsWith("\n") ? "2" : "")
                .append(chomp)
                .append('\n');
        for (String line : body.split("\n", -1)) {
            if (!line.isEmpty()) {
                b.append(" ".repeat(Math.max(indent, 2)));
            }
            b.append(line).append('\n');
        }
    }

    private static String inline(Value v) {
        if (v.isNull()) {
            return "null";
        }
        if (isMapping(v)) {
            return "{}";
        }
        if (isSequence(v)) {
            return "[]";
        }
        if (v.type().equals(Type.STRING)) {
            return quote(v.asString());
        }
        if (v.type().equals(Type.NUMBER)) {
            return v.isInfinite() ? (v.asDouble() > 0 ? "+.inf" : "-.inf") : v.numberText();
        }
        return Boolean.toString(v.asBool());
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02X", c));
                    } else if (c == 0xFEFF || (c >= 0x80 && c <= 0x9f)) {
                        b.append(String.format("\\u%04X", c));
                    } else {
                        b.appendCodePoint(c);
                    }
                }
            }
        });
        return b.append('"').toString();
    }
}
