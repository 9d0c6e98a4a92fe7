package dev.strata.cli.view;

import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders the difference between two values the way Terraform's plan output does: one line per
 * changed attribute or element with its symbol ({@code +}, {@code -}, {@code ~}), nested values
 * indented four columns deeper, unchanged parts elided with a count, unknown values as
 * {@code (known after apply)} and sensitive ones as {@code (sensitive value)}.
 */
final class ValueDiff {
    /** The attributes Terraform shows in a changed block or object even when they did not change. */
    private static final Set<String> IDENTIFYING = Set.of("id", "name", "tags");

    private final StringBuilder out = new StringBuilder();
    private final Set<String> forcing;
    private final boolean legacy;
    private final boolean dynamic;
    /** Rendering a stored value, not a change: typed objects leave their null attributes out. */
    private final boolean stored;

    private ValueDiff(Set<String> forcingPaths, boolean legacy, boolean dynamic) {
        this(forcingPaths, legacy, dynamic, false);
    }

    private ValueDiff(Set<String> forcingPaths, boolean legacy, boolean dynamic, boolean stored) {
        this.forcing = forcingPaths;
        this.legacy = legacy;
        this.dynamic = dynamic;
        this.stored = stored;
    }

    /**
     * A value as {@code show} renders state. {@code dynamic}: the value has no type of its own (a
     * dynamically typed attribute), so Terraform renders it as JSON: maps like objects, with their
     * null attributes.
     */
    static ValueDiff forState(boolean dynamic) {
        return new ValueDiff(Set.of(), false, dynamic, true);
    }

    /**
     * The diff of one resource instance. When its schema may come from the legacy SDK (whose
     * planner cannot tell an empty string from null and returns either), an empty string and null
     * count as the same value, as Terraform renders them.
     */
    static ValueDiff forResource(Set<String> forcingPaths, dev.strata.provider.Block schema) {
        return forResource(forcingPaths, schema, schema != null && mayBeLegacy(schema));
    }

    /** As {@link #forResource(Set, dev.strata.provider.Block)}, with {@link #mayBeLegacy} of the schema known. */
    static ValueDiff forResource(Set<String> forcingPaths, dev.strata.provider.Block schema, boolean mayBeLegacy) {
        return new ValueDiff(forcingPaths, schema != null && mayBeLegacy, false);
    }

    /**
     * The diff of an output value. Output values carry no type constraint in the plan, so Terraform
     * renders maps like objects (keys unquoted where they are identifiers) and shows null attributes.
     */
    static ValueDiff forOutput() {
        return new ValueDiff(Set.of(), false, true);
    }

    /**
     * Terraform cannot know whether a provider uses the legacy type system; it rules it out only
     * where the schema uses something the legacy SDK cannot express: map-nested blocks or
     * dynamically typed attributes.
     */
    static boolean mayBeLegacy(dev.strata.provider.Block schema) {
        if (schema.attributes().values().stream().anyMatch(a -> a.type().hasDynamic())) {
            return false;
        }
        for (dev.strata.provider.NestedBlock nb : schema.blockTypes().values()) {
            if (nb.nesting() == dev.strata.provider.NestingMode.MAP || !mayBeLegacy(nb.block())) {
                return false;
            }
        }
        return true;
    }

    /** In a legacy schema, an empty string where null was (or the other way round) is no change. */
    private boolean emptyIsNull(Value a, Value b) {
        if (!legacy
                || a == null
                || b == null
                || a.isSensitive()
                || b.isSensitive()
                || !a.isKnown()
                || !b.isKnown()
                || a.type() != dev.strata.lang.types.Type.STRING
                || b.type() != dev.strata.lang.types.Type.STRING) {
            return false;
        }
        return a.isNull()
                ? !b.isNull() && b.asString().isEmpty()
                : b.isNull() && a.asString().isEmpty();
    }

    private boolean emptyString(Value v) {
        return legacy
                && v != null
                && v.isKnownAndNotNull()
                && !v.isSensitive()
                && v.type() == dev.strata.lang.types.Type.STRING
                && v.asString().isEmpty();
    }

    String text() {
        return out.toString();
    }

    private static boolean nullOrAbsent(Value v) {
        return v == null || (v.isKnown() && v.isNull());
    }

    private static boolean absent(Value v) {
        return v == null || (v.isKnown() && v.isNull() && !v.isSensitive());
    }

    boolean same(Value a, Value b) {
        if (emptyIsNull(a, b)) {
            return true;
        }
        if (a == null || b == null) {
            return a == b || emptyString(a) || emptyString(b);
        }
        if (!a.isKnown() || !b.isKnown()) {
            return false;
        }
        return a.equalsIgnoringMarks(b) && a.isSensitive() == b.isSensitive();
    }

    /** The attributes of an object-typed value at {@code indent}: the body between a block's braces. */
    void objectBody(Value before, Value after, int indent, String path, boolean showIds) {
        objectBody(before, after, indent, path, showIds, null);
    }

    /**
     * With the schema of the object, nested block types render as blocks ({@code rule {...}}), after
     * the attributes, as Terraform shows them; without it, as attributes.
     */
    void objectBody(
            Value before, Value after, int indent, String path, boolean showIds, dev.strata.provider.Block schema) {
        Set<String> names = new TreeSet<>();
        if (before != null && before.isKnownAndNotNull()) {
            names.addAll(before.attributes().keySet());
        }
        if (after != null && after.isKnownAndNotNull()) {
            names.addAll(after.attributes().keySet());
        }
        int width = 0;
        List<String> attrs = new ArrayList<>();
        List<String> blocks = new ArrayList<>();
        // A write-only attribute is never in a plan: Terraform marks where a new object sets it, as here.
        Set<String> writeOnly = new TreeSet<>();
        if (schema != null && before == null && after != null && after.isKnownAndNotNull()) {
            schema.attributes().forEach((n, at) -> {
                if (at.writeOnly()) {
                    writeOnly.add(n);
                }
            });
        }
        names.addAll(writeOnly);
        for (String n : names) {
            Value b = get(before, n);
            Value a = get(after, n);
            if (writeOnly.contains(n)) {
                attrs.add(n);
                width = Math.max(width, n.length());
                continue;
            }
            if (schema != null
                    && schema.attribute(n) != null
                    && schema.attribute(n).writeOnly()) {
                // Never stored, so never changed: only counted among the hidden ones below.
                continue;
            }
            if (nullOrAbsent(b) && nullOrAbsent(a)) {
                // Null on both sides, sensitive or not, is neither shown nor counted among the hidden ones
                // (Terraform 1.11: a refreshed aws_ssm_parameter's sensitive null value).
                continue;
            }
            if (schema != null && schema.blockTypes().containsKey(n)) {
                blocks.add(n);
            } else {
                attrs.add(n);
                width = Math.max(width, n.length());
            }
        }
        int hidden = 0;
        if (schema != null
                && before != null
                && before.isKnownAndNotNull()
                && after != null
                && after.isKnownAndNotNull()) {
            // Changing an object, Terraform counts its write-only attributes among the unchanged ones it hides.
            hidden += (int) schema.attributes().values().stream()
                    .filter(dev.strata.provider.Attribute::writeOnly)
                    .count();
        }
        for (String n : attrs) {
            if (writeOnly.contains(n)) {
                line(indent, "+ " + pad(n, width) + " = (write-only attribute)");
                continue;
            }
            Value b = get(before, n);
            Value a = get(after, n);
            if (same(b, a) && !(showIds && IDENTIFYING.contains(n))) {
                hidden++;
                continue;
            }
            if (!dynamic
                    && schema != null
                    && schema.attribute(n) != null
                    && schema.attribute(n).type() instanceof dev.strata.lang.types.DynamicType) {
                // A dynamically typed attribute renders as JSON does in Terraform: null attributes shown, and
                // (Terraform's JSON renderer knows no replace paths) never "# forces replacement".
                ValueDiff json = new ValueDiff(Set.of(), legacy, true, stored);
                json.attribute(n, width, b, a, indent, path + "." + n);
                out.append(json.out);
            } else {
                attribute(n, width, b, a, indent, path + "." + n);
            }
        }
        if (hidden > 0) {
            line(indent + 2, hiddenNote(hidden, "attribute"));
        }
        int hiddenBlocks = 0;
        for (String n : blocks) {
            Value b = get(before, n);
            Value a = get(after, n);
            if (same(b, a)) {
                hiddenBlocks += count(a);
                continue;
            }
            hiddenBlocks += blocks(n, schema.blockTypes().get(n), b, a, indent, path + "." + n);
        }
        if (hiddenBlocks > 0) {
            out.append('\n');
            line(indent + 2, hiddenNote(hiddenBlocks, "block"));
        }
    }

    private static int count(Value v) {
        if (v == null || !v.isKnownAndNotNull()) {
            return 0;
        }
        return v.type() instanceof ObjectType ? 1 : v.length();
    }

    /** Renders the blocks of one block type; returns how many unchanged ones were left out. */
    private int blocks(String name, dev.strata.provider.NestedBlock nb, Value b, Value a, int indent, String path) {
        if ((a != null && !a.isKnown()) || (b != null && !b.isKnown())) {
            out.append('\n');
            line(indent, symbol(b, a) + " " + name + " (known after apply)");
            return 0;
        }
        List<Value> xs = items(b);
        List<Value> ys = items(a);
        List<String> keys = new ArrayList<>();
        if (nb.nesting() == dev.strata.provider.NestingMode.MAP) {
            Set<String> ks = new TreeSet<>();
            if (b != null && b.isKnownAndNotNull()) {
                ks.addAll(b.attributes().keySet());
            }
            if (a != null && a.isKnownAndNotNull()) {
                ks.addAll(a.attributes().keySet());
            }
            xs = new ArrayList<>();
            ys = new ArrayList<>();
            for (String k : ks) {
                keys.add(k);
                xs.add(
                        b == null || !b.isKnownAndNotNull()
                                ? null
                                : b.attributes().get(k));
                ys.add(
                        a == null || !a.isKnownAndNotNull()
                                ? null
                                : a.attributes().get(k));
            }
        } else if (nb.nesting() == dev.strata.provider.NestingMode.SET) {
            // Set elements have no identity but their value: unchanged ones are hidden, the rest removed or added.
            List<Value> gone = new ArrayList<>();
            List<Value> added = new ArrayList<>(ys);
            int hidden = 0;
            for (Value x : xs) {
                Value match = added.stream().filter(y -> same(x, y)).findFirst().orElse(null);
                if (match != null) {
                    added.remove(match);
                    hidden++;
                } else {
                    gone.add(x);
                }
            }
            boolean first = true;
            for (Value x : gone) {
                one(name, null, nb.block(), x, null, indent, path, first);
                first = false;
            }
            for (Value y : added) {
                one(name, null, nb.block(), null, y, indent, path, first);
                first = false;
            }
            return hidden;
        }
        int hidden = 0;
        boolean first = true;
        int n = Math.max(xs.size(), ys.size());
        for (int i = 0; i < n; i++) {
            Value x = i < xs.size() ? xs.get(i) : null;
            Value y = i < ys.size() ? ys.get(i) : null;
            if (same(x, y)) {
                hidden++;
                continue;
            }
            one(name, keys.isEmpty() ? null : keys.get(i), nb.block(), x, y, indent, path, first);
            first = false;
        }
        return hidden;
    }

    private static List<Value> items(Value v) {
        if (v == null || !v.isKnownAndNotNull()) {
            return List.of();
        }
        return v.type() instanceof ObjectType ? List.of(v) : v.elements();
    }

    /** One block; a blank line sets off the first block of a type, consecutive ones follow directly. */
    private void one(
            String name,
            String key,
            dev.strata.provider.Block schema,
            Value b,
            Value a,
            int indent,
            String path,
            boolean first) {
        if (first) {
            out.append('\n');
        }
        line(indent, symbol(b, a) + " " + name + (key == null ? "" : " " + quote(key)) + " {");
        // Terraform keeps the identifying attributes (id, name, tags) of a changed block in view at every depth.
        objectBody(b, a, indent + 4, path, true, schema);
        line(indent + 2, "}");
    }

    private static Value get(Value obj, String name) {
        if (obj == null || !obj.isKnownAndNotNull() || obj.isSensitive()) {
            return obj != null && obj.isSensitive() ? obj : null;
        }
        return obj.attributes().get(name);
    }

    private static String symbol(Value b, Value a) {
        if (absent(b)) {
            return "+";
        }
        if (absent(a)) {
            return "-";
        }
        return "~";
    }

    private String forces(String path) {
        return forcing.contains(path) ? " # forces replacement" : "";
    }

    private void attribute(String name, int width, Value b, Value a, int indent, String path) {
        String label = pad(name, width) + " = ";
        // As Terraform: an argument set from null is added, one set to null removed, even where the schema
        // makes it sensitive (a parameter's value set outside: "+ value = (sensitive value)").
        if (nullOrAbsent(b)) {
            line(indent, "+ " + label + created(a, indent + 2) + forces(path));
        } else if (nullOrAbsent(a)) {
            line(indent, "- " + label + deleted(b, indent + 2) + " -> null" + forces(path));
        } else if (same(b, a)) {
            line(indent, "  " + label + plain(a, indent + 2));
        } else {
            line(indent, "~ " + label + changed(b, a, indent + 2, path) + forces(path));
        }
    }

    private static String pad(String s, int w) {
        return s + " ".repeat(Math.max(0, w - s.length()));
    }

    private void line(int indent, String text) {
        out.append(" ".repeat(indent)).append(text).append('\n');
    }

    /** A value being created, every part marked {@code +}. */
    String created(Value v, int indent) {
        return nested(v, indent, "+");
    }

    String deleted(Value v, int indent) {
        return nested(v, indent, "-");
    }

    String plain(Value v, int indent) {
        return nested(v, indent, " ");
    }

    private String nested(Value v, int indent, String sym) {
        if (v.isSensitive()) {
            return "(sensitive value)";
        }
        if (!v.isKnown()) {
            return "(known after apply)";
        }
        if (v.isNull()) {
            return "null";
        }
        Value json = json(v);
        if (json != null) {
            return jsonEncoded(json, indent, sym);
        }
        return switch (v.type()) {
            case ObjectType o -> mapLike(v, indent, sym, true);
            case MapType m -> mapLike(v, indent, sym, false);
            case ListType l -> listLike(v, indent, sym);
            case SetType s -> listLike(v, indent, sym);
            case TupleType t -> listLike(v, indent, sym);
            default -> primitive(v, indent);
        };
    }

    private String mapLike(Value v, int indent, String sym, boolean object) {
        if (v.attributes().isEmpty()) {
            return "{}";
        }
        boolean bare = object || dynamic;
        boolean dropNulls = stored && object && !dynamic;
        int width = v.attributes().entrySet().stream()
                .filter(e -> !dropNulls || !absent(e.getValue()))
                .mapToInt(e -> key(e.getKey(), bare).length())
                .max()
                .orElse(0);
        StringBuilder b = new StringBuilder("{\n");
        int hidden = 0;
        for (var entry : v.attributes().entrySet()) {
            Value e = entry.getValue();
            if (dropNulls && absent(e)) {
                continue;
            }
            if (object && !sym.equals(" ") && emptyString(e)) {
                // What the legacy SDK plans for an unset string: no change from null, as Terraform counts it.
                hidden++;
            } else if (sym.equals(" ") || !absent(e) || !object || dynamic) {
                b.append(" ".repeat(indent + 2))
                        .append(sym)
                        .append(' ')
                        .append(pad(key(entry.getKey(), bare), width))
                        .append(" = ")
                        .append(nested(e, indent + 4, sym))
                        .append('\n');
            }
        }
        if (hidden > 0) {
            b.append(" ".repeat(indent + 4))
                    .append(hiddenNote(hidden, "attribute"))
                    .append('\n');
        }
        return b.append(" ".repeat(indent)).append('}').toString();
    }

    private static String key(String k, boolean object) {
        return object && identifier(k) ? k : quote(k);
    }

    /** Whether {@code k} matches {@code [A-Za-z_][A-Za-z0-9_-]*}, without compiling that pattern per key. */
    private static boolean identifier(String k) {
        if (k.isEmpty()) {
            return false;
        }
        for (int i = 0; i < k.length(); i++) {
            char ch = k.charAt(i);
            boolean letter = ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' || ch == '_';
            if (!letter && (i == 0 || !(ch >= '0' && ch <= '9' || ch == '-'))) {
                return false;
            }
        }
        return true;
    }

    private String listLike(Value v, int indent, String sym) {
        if (v.elements().isEmpty()) {
            return "[]";
        }
        StringBuilder b = new StringBuilder("[\n");
        for (Value e : v.elements()) {
            b.append(" ".repeat(indent + 2))
                    .append(sym)
                    .append(' ')
                    .append(nested(e, indent + 4, sym))
                    .append(",\n");
        }
        return b.append(" ".repeat(indent)).append(']').toString();
    }

    private String primitive(Value v, int indent) {
        if (v.type() == dev.strata.lang.types.Type.STRING) {
            String s = v.asString();
            if (s.contains("\n")) {
                StringBuilder b = new StringBuilder("<<-EOT\n");
                String body = s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
                for (String l : body.split("\n", -1)) {
                    // As Terraform: an empty line keeps the indentation too.
                    b.append(" ".repeat(indent + 4)).append(l).append('\n');
                }
                return b.append(" ".repeat(indent)).append("EOT").toString();
            }
            return quote(s);
        }
        if (v.type() == dev.strata.lang.types.Type.NUMBER) {
            return v.numberText();
        }
        return String.valueOf(v.asBool());
    }

    /** Terraform renders strings in plans and state as Go's {@code strconv.Quote} does ({@code \x01}, no {@code $${}). */
    static String quote(String s) {
        return dev.strata.lang.value.Quote.quote(s);
    }

    /**
     * A changed value: nested diff for collections known on both sides, JSON strings as the structures they
     * hold, strings of several lines line by line, else {@code old -> new}.
     */
    String changed(Value b, Value a, int indent, String path) {
        if (b.isSensitive() || a.isSensitive()) {
            return "(sensitive value)";
        }
        if (!a.isKnown()) {
            return deletedInline(b, indent) + " -> (known after apply)";
        }
        if (isString(b) && isString(a)) {
            Value bj = json(b);
            Value aj = json(a);
            if (bj != null && aj != null) {
                return "jsonencode(\n" + " ".repeat(indent + 2) + "~ " + json().changed(bj, aj, indent + 4, path) + "\n"
                        + " ".repeat(indent) + ")";
            }
            if (bj == null
                    && aj == null
                    && (b.asString().contains("\n") || a.asString().contains("\n"))) {
                return lineDiff(b.asString(), a.asString(), indent);
            }
        }
        if (b.isKnownAndNotNull() && a.isKnownAndNotNull()) {
            if ((b.type() instanceof ObjectType || b.type() instanceof MapType)
                    && (a.type() instanceof ObjectType || a.type() instanceof MapType)) {
                return mapDiff(b, a, indent, path, dynamic || a.type() instanceof ObjectType);
            }
            if (isSeq(b) && isSeq(a)) {
                return listDiff(b, a, indent);
            }
        }
        return deletedInline(b, indent) + " -> " + created(a, indent);
    }

    private String deletedInline(Value b, int indent) {
        return b.isKnown() && (b.type() instanceof ObjectType || b.type() instanceof MapType || isSeq(b)) && !b.isNull()
                ? deleted(b, indent)
                : nested(b, indent, "-");
    }

    private static boolean isSeq(Value v) {
        return v.type() instanceof ListType || v.type() instanceof SetType || v.type() instanceof TupleType;
    }

    private String mapDiff(Value b, Value a, int indent, String path, boolean object) {
        Set<String> keys = new TreeSet<>(b.attributes().keySet());
        keys.addAll(a.attributes().keySet());
        int width = 0;
        for (String k : keys) {
            if (!(missing(b, k) && missing(a, k))) {
                width = Math.max(width, key(k, object).length());
            }
        }
        StringBuilder sb = new StringBuilder("{\n");
        int hidden = 0;
        for (String k : keys) {
            Value x = b.attributes().get(k);
            Value y = a.attributes().get(k);
            if (missing(b, k) && missing(a, k)) {
                continue;
            }
            String label = pad(key(k, object), width) + " = ";
            String pre = " ".repeat(indent + 2);
            if (same(x, y) && object && IDENTIFYING.contains(k)) {
                // As in a block, an object's identifying attributes stay in view when unchanged.
                sb.append(pre)
                        .append("  ")
                        .append(label)
                        .append(plain(y, indent + 4))
                        .append('\n');
            } else if (same(x, y)) {
                hidden++;
            } else if (missing(b, k)) {
                sb.append(pre)
                        .append("+ ")
                        .append(label)
                        .append(created(y, indent + 4))
                        .append('\n');
            } else if (missing(a, k)) {
                sb.append(pre)
                        .append("- ")
                        .append(label)
                        .append(deleted(x, indent + 4))
                        .append(object ? "" : " -> null")
                        .append('\n');
            } else {
                sb.append(pre)
                        .append("~ ")
                        .append(label)
                        .append(changed(x, y, indent + 4, path + "." + k))
                        .append('\n');
            }
        }
        if (hidden > 0) {
            sb.append(" ".repeat(indent + 4))
                    .append(hiddenNote(hidden, object ? "attribute" : "element"))
                    .append('\n');
        }
        return sb.append(" ".repeat(indent)).append('}').toString();
    }

    /**
     * Whether {@code obj} has nothing at {@code k}. A dynamically typed value is JSON to Terraform, where an
     * attribute that is null is still there (shown, and counted among the unchanged); typed, it is absent.
     */
    private boolean missing(Value obj, String k) {
        return dynamic
                ? !obj.attributes().containsKey(k)
                : absent(obj.attributes().get(k));
    }

    /** Element changes by longest common subsequence, as a reader expects for inserted and removed items. */
    private String listDiff(Value b, Value a, int indent) {
        if (dynamic) {
            return jsonListDiff(b.elements(), a.elements(), indent);
        }
        List<Value> x = b.elements();
        List<Value> y = a.elements();
        int[][] lcs = new int[x.size() + 1][y.size() + 1];
        for (int i = x.size() - 1; i >= 0; i--) {
            for (int j = y.size() - 1; j >= 0; j--) {
                lcs[i][j] = same(x.get(i), y.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        StringBuilder sb = new StringBuilder("[\n");
        String pre = " ".repeat(indent + 2);
        int i = 0, j = 0;
        while (i < x.size() || j < y.size()) {
            if (i < x.size() && j < y.size() && same(x.get(i), y.get(j))) {
                sb.append(pre).append("  ").append(plain(y.get(j), indent + 4)).append(",\n");
                i++;
                j++;
            } else if (i < x.size() && j < y.size() && lcs[i + 1][j + 1] == lcs[i][j] && !isCollection(x.get(i))) {
                sb.append(pre)
                        .append("~ ")
                        .append(nested(x.get(i), indent + 4, "-"))
                        .append(" -> ")
                        .append(created(y.get(j), indent + 4))
                        .append(",\n");
                i++;
                j++;
            } else if (j < y.size() && (i >= x.size() || lcs[i][j + 1] >= lcs[i + 1][j])) {
                sb.append(pre)
                        .append("+ ")
                        .append(created(y.get(j), indent + 4))
                        .append(",\n");
                j++;
            } else {
                sb.append(pre)
                        .append("- ")
                        .append(deleted(x.get(i), indent + 4))
                        .append(",\n");
                i++;
            }
        }
        return sb.append(" ".repeat(indent)).append(']').toString();
    }

    private static boolean isString(Value v) {
        return v.isKnownAndNotNull() && !v.isSensitive() && v.type() == dev.strata.lang.types.Type.STRING;
    }

    /**
     * What a string holds when Terraform shows it as {@code jsonencode(...)}: a JSON object or array that
     * starts the string (trailing white space allowed, leading not), as measured with Terraform 1.11; else null.
     */
    private static Value json(Value v) {
        if (!isString(v)) {
            return null;
        }
        String s = v.asString();
        if (s.isEmpty() || (s.charAt(0) != '{' && s.charAt(0) != '[')) {
            return null;
        }
        return dev.strata.lang.funcs.Functions.decodeJson(s).orElse(null);
    }

    /** The renderer of what a JSON string holds: JSON, so maps like objects and null attributes shown. */
    private ValueDiff json() {
        return dynamic ? this : new ValueDiff(Set.of(), false, true, stored);
    }

    /** {@code jsonencode(...)} around a decoded JSON value, its lines marked {@code sym}. */
    private String jsonEncoded(Value json, int indent, String sym) {
        boolean object = json.type() instanceof ObjectType;
        if (object ? json.attributes().isEmpty() : json.elements().isEmpty()) {
            return object ? "jsonencode({})" : "jsonencode([])";
        }
        return "jsonencode(\n" + " ".repeat(indent + 4) + json().nested(json, indent + 4, sym) + "\n"
                + " ".repeat(indent) + ")";
    }

    /** A change between strings of which one spans lines: a heredoc of the removed, added and kept lines. */
    private String lineDiff(String before, String after, int indent) {
        List<String> x = heredocLines(before);
        List<String> y = heredocLines(after);
        StringBuilder sb = new StringBuilder("<<-EOT\n");
        String pre = " ".repeat(indent + 2);
        for (Step<String> step : Step.of(x, y, String::equals, v -> false, false)) {
            String text = step.kind() == Step.Kind.CREATE ? step.after() : step.before();
            sb.append(pre).append(step.kind().symbol).append(' ').append(text).append('\n');
        }
        return sb.append(" ".repeat(indent)).append("EOT").toString();
    }

    private static List<String> heredocLines(String s) {
        String body = s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
        return List.of(body.split("\n", -1));
    }

    /**
     * A list in a JSON value (an output, a dynamically typed attribute, a JSON string), in the order Terraform
     * 1.11 shows it: unchanged elements next to no change hidden, the rest by {@link Step#of}.
     */
    private String jsonListDiff(List<Value> x, List<Value> y, int indent) {
        List<Step<Value>> steps = Step.of(x, y, this::same, ValueDiff::isObject, true);
        StringBuilder sb = new StringBuilder("[\n");
        String pre = " ".repeat(indent + 2);
        int hidden = 0;
        for (int i = 0; i < steps.size(); i++) {
            Step<Value> s = steps.get(i);
            if (s.kind() == Step.Kind.KEEP
                    && !(i > 0 && steps.get(i - 1).kind() != Step.Kind.KEEP)
                    && !(i + 1 < steps.size() && steps.get(i + 1).kind() != Step.Kind.KEEP)) {
                hidden++;
                continue;
            }
            hidden = hiddenElements(sb, hidden, indent);
            sb.append(pre).append(s.kind().symbol).append(' ');
            switch (s.kind()) {
                case KEEP -> sb.append(plain(s.after(), indent + 4));
                case CREATE -> sb.append(created(s.after(), indent + 4));
                case DELETE -> sb.append(deleted(s.before(), indent + 4));
                case UPDATE -> sb.append(changed(s.before(), s.after(), indent + 4, ""));
            }
            sb.append(",\n");
        }
        hiddenElements(sb, hidden, indent);
        return sb.append(" ".repeat(indent)).append(']').toString();
    }

    private static int hiddenElements(StringBuilder sb, int hidden, int indent) {
        if (hidden > 0) {
            sb.append(" ".repeat(indent + 4))
                    .append(hiddenNote(hidden, "element"))
                    .append('\n');
        }
        return 0;
    }

    /** Terraform's note of what a diff leaves out: {@code # (2 unchanged attributes hidden)}. */
    private static String hiddenNote(int n, String noun) {
        return "# (" + n + " unchanged " + noun + (n == 1 ? "" : "s") + " hidden)";
    }

    private static boolean isObject(Value v) {
        return v.isKnownAndNotNull() && (v.type() instanceof ObjectType || v.type() instanceof MapType);
    }

    private static boolean isCollection(Value v) {
        return v.isKnownAndNotNull() && !v.type().isPrimitive();
    }
}
