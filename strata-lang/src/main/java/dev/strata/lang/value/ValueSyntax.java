package dev.strata.lang.value;

import dev.strata.hcl.HclStrings;
import dev.strata.hcl.format.Formatter;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Values written as Terraform language syntax, the way Terraform writes them for
 * {@code provider::terraform::encode_expr}, {@code encode_tfvars} and {@code plan -generate-config-out}:
 * sequences on one line, objects and maps one attribute per line with their keys sorted (quoted where
 * they are not identifiers), strings quoted with template sequences doubled so that they stay literal,
 * and the whole laid out as {@code strata fmt} lays out a file (indentation, aligned equals signs).
 * Unknown values are written as {@code null}: the callers write only known values, or say otherwise.
 */
public final class ValueSyntax {
    private ValueSyntax() {}

    /** {@code v} as one expression, laid out as a file's attribute value would be. */
    public static String expression(Value v) {
        StringBuilder b = new StringBuilder("x = ");
        append(b, v);
        String laidOut = layOut(b.append('\n').toString());
        return laidOut.substring("x = ".length(), laidOut.length() - 1);
    }

    /**
     * {@code attributes} as the body of a {@code .tfvars} file: one {@code NAME = VALUE} line per
     * attribute, sorted by name, each line ended by a newline; empty for no attributes.
     */
    public static String attributes(Map<String, Value> attributes) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Value> e : new TreeMap<>(attributes).entrySet()) {
            b.append(e.getKey()).append(" = ");
            append(b, e.getValue());
            b.append('\n');
        }
        return layOut(b.toString());
    }

    /** Whether {@code name} may be written bare as an attribute name: an identifier as HCL scans one. */
    public static boolean isIdentifier(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            boolean ok = i == 0
                    ? cp < 0x80
                            ? cp >= 'a' && cp <= 'z' || cp >= 'A' && cp <= 'Z' || cp == '_'
                            : Character.isUnicodeIdentifierStart(cp) && cp != 0xfeff
                    : cp < 0x80
                            ? cp >= 'a' && cp <= 'z'
                                    || cp >= 'A' && cp <= 'Z'
                                    || cp >= '0' && cp <= '9'
                                    || cp == '_'
                                    || cp == '-'
                            : Character.isUnicodeIdentifierPart(cp) && !Character.isIdentifierIgnorable(cp);
            if (!ok) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    /**
     * Appends {@code v} without layout: objects open a line per attribute, which {@link #layOut}
     * indents. For callers composing a larger text (a generated block) that they lay out as a whole.
     */
    public static void append(StringBuilder b, Value v) {
        if (v.isNull() || !v.isKnown()) {
            b.append("null");
            return;
        }
        Type t = v.type();
        if (t == Type.STRING) {
            b.append(HclStrings.quote(v.asString()));
        } else if (t == Type.NUMBER) {
            b.append(v.numberText());
        } else if (t == Type.BOOL) {
            b.append(v.asBool());
        } else if (t instanceof ListType || t instanceof SetType || t instanceof TupleType) {
            b.append('[');
            List<Value> elems = v.elements();
            for (int i = 0; i < elems.size(); i++) {
                if (i > 0) {
                    b.append(", ");
                }
                append(b, elems.get(i));
            }
            b.append(']');
        } else if (v.attributes().isEmpty()) {
            b.append("{}");
        } else {
            b.append("{\n");
            for (Map.Entry<String, Value> e : new TreeMap<>(v.attributes()).entrySet()) {
                String k = e.getKey();
                b.append(isIdentifier(k) ? k : HclStrings.quote(k)).append(" = ");
                append(b, e.getValue());
                b.append('\n');
            }
            b.append('}');
        }
    }

    /**
     * Lays {@code text} (a whole body written with {@link #append}) out as {@code strata fmt} would: such text
     * always parses, so laying it out only indents and aligns.
     */
    public static String layOut(String text) {
        var formatted = Formatter.format(text.getBytes(StandardCharsets.UTF_8), "generated.tf");
        return formatted.value() == null ? text : new String(formatted.value(), StandardCharsets.UTF_8);
    }
}
