package dev.strata.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Map;

/** Expressions as Terraform native-syntax text, and as values of Terraform's JSON syntax. */
final class Render {
    private Render() {}

    static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    // ---- JSON syntax: literals as JSON, strings as templates, everything else as "${...}" ----

    static JsonNode json(Expr e) {
        return switch (e) {
            case Expr.Str s -> NODES.textNode(templateText(s.value()));
            case Expr.Num n -> number(n.value());
            case Expr.Bool b -> NODES.booleanNode(b.value());
            case Expr.Null n -> NODES.nullNode();
            case Expr.Tuple t -> {
                ArrayNode a = NODES.arrayNode();
                t.items().forEach(i -> a.add(json(i)));
                yield a;
            }
            case Expr.Obj o -> {
                // In JSON syntax an object expression's property names are templates too.
                ObjectNode n = NODES.objectNode();
                o.attributes().forEach((k, v) -> n.set(templateText(k), json(v)));
                yield n;
            }
            case Expr.Template t -> NODES.textNode(template(t, false));
            case Expr.Ref r -> interpolation(e);
            case Expr.Step s -> interpolation(e);
            case Expr.Call c -> interpolation(e);
            case Expr.Conditional c -> interpolation(e);
            case Expr.Binary b -> interpolation(e);
            case Expr.Unary u -> interpolation(e);
            case Expr.For f -> interpolation(e);
        };
    }

    /**
     * A static value (a variable's default), which Terraform reads as plain JSON: no templates, so no
     * escaping. Null when {@code e} is not made of literals only.
     */
    static JsonNode literalJson(Expr e) {
        return switch (e) {
            case Expr.Str s -> NODES.textNode(s.value());
            case Expr.Num n -> number(n.value());
            case Expr.Bool b -> NODES.booleanNode(b.value());
            case Expr.Null n -> NODES.nullNode();
            case Expr.Tuple t -> {
                ArrayNode a = NODES.arrayNode();
                for (Expr i : t.items()) {
                    JsonNode item = literalJson(i);
                    if (item == null) {
                        yield null;
                    }
                    a.add(item);
                }
                yield a;
            }
            case Expr.Obj o -> {
                ObjectNode n = NODES.objectNode();
                for (Map.Entry<String, Expr> a : o.attributes().entrySet()) {
                    JsonNode v = literalJson(a.getValue());
                    if (v == null) {
                        yield null;
                    }
                    n.set(a.getKey(), v);
                }
                yield n;
            }
            // A set literal is a list in JSON: a default's type constraint converts it.
            case Expr.Call c
            when c.function().equals("toset")
                    && c.args().size() == 1
                    && c.args().get(0) instanceof Expr.Tuple t -> literalJson(t);
            case Expr.Call c -> null;
            case Expr.Ref r -> null;
            case Expr.Step s -> null;
            case Expr.Conditional c -> null;
            case Expr.Binary b -> null;
            case Expr.Unary u -> null;
            case Expr.Template t -> null;
            case Expr.For f -> null;
        };
    }

    private static JsonNode interpolation(Expr e) {
        return NODES.textNode("${" + text(e) + "}");
    }

    private static JsonNode number(BigDecimal v) {
        BigDecimal n = v.stripTrailingZeros();
        if (n.scale() <= 0 && n.precision() - n.scale() <= 18) {
            return NODES.numberNode(n.longValueExact());
        }
        return NODES.numberNode(n);
    }

    /** Literal text inside a template: {@code ${} and {@code %{} would start a sequence, so are doubled. */
    static String templateText(String s) {
        return s.replace("${", "$${").replace("%{", "%%{");
    }

    // ---- native syntax ----

    static String text(Expr e) {
        StringBuilder b = new StringBuilder();
        text(b, e);
        return b.toString();
    }

    private static void text(StringBuilder b, Expr e) {
        switch (e) {
            case Expr.Str s -> b.append(quote(s.value(), true));
            case Expr.Num n -> b.append(n.value().stripTrailingZeros().toPlainString());
            case Expr.Bool v -> b.append(v.value());
            case Expr.Null n -> b.append("null");
            case Expr.Tuple t -> {
                b.append('[');
                for (int i = 0; i < t.items().size(); i++) {
                    b.append(i == 0 ? "" : ", ");
                    text(b, t.items().get(i));
                }
                b.append(']');
            }
            case Expr.Obj o -> {
                b.append('{');
                int i = 0;
                for (Map.Entry<String, Expr> a : o.attributes().entrySet()) {
                    b.append(i++ == 0 ? " " : ", ");
                    b.append(Names.isIdentifier(a.getKey()) ? a.getKey() : quote(a.getKey(), true))
                            .append(" = ");
                    text(b, a.getValue());
                }
                b.append(i == 0 ? "}" : " }");
            }
            case Expr.Ref r -> b.append(r.lineage().text());
            case Expr.Step s -> {
                operand(b, s.source());
                segment(b, s.segment());
            }
            case Expr.Call c -> {
                b.append(c.function()).append('(');
                for (int i = 0; i < c.args().size(); i++) {
                    b.append(i == 0 ? "" : ", ");
                    text(b, c.args().get(i));
                }
                b.append(')');
            }
            case Expr.Conditional c -> {
                operand(b, c.condition());
                b.append(" ? ");
                operand(b, c.whenTrue());
                b.append(" : ");
                operand(b, c.whenFalse());
            }
            case Expr.Binary o -> {
                operand(b, o.left());
                b.append(' ').append(o.op().symbol).append(' ');
                operand(b, o.right());
            }
            case Expr.Unary u -> {
                b.append(u.negate() ? "-" : "!");
                operand(b, u.operand());
            }
            case Expr.Template t -> b.append(template(t, true));
            case Expr.For f -> {
                b.append(f.key() == null ? "[" : "{").append("for ");
                if (f.keyVar() != null) {
                    b.append(f.keyVar()).append(", ");
                }
                b.append(f.valueVar()).append(" in ");
                text(b, f.collection());
                b.append(" : ");
                if (f.key() != null) {
                    text(b, f.key());
                    b.append(" => ");
                }
                text(b, f.value());
                if (f.condition() != null) {
                    b.append(" if ");
                    text(b, f.condition());
                }
                b.append(f.key() == null ? "]" : "}");
            }
        }
    }

    // Operators and conditionals nest in parentheses rather than by precedence: always correct, and
    // the reader need not know HCL's precedence table.
    private static void operand(StringBuilder b, Expr e) {
        boolean paren = e instanceof Expr.Binary || e instanceof Expr.Conditional || e instanceof Expr.Unary;
        b.append(paren ? "(" : "");
        text(b, e);
        b.append(paren ? ")" : "");
    }

    private static String template(Expr.Template t, boolean quoted) {
        StringBuilder b = new StringBuilder(quoted ? "\"" : "");
        for (Expr p : t.parts()) {
            if (p instanceof Expr.Str s) {
                String lit = templateText(s.value());
                b.append(quoted ? escape(lit) : lit);
            } else {
                b.append("${").append(text(p)).append('}');
            }
        }
        return b.append(quoted ? "\"" : "").toString();
    }

    static void segment(StringBuilder b, Lineage.Segment s) {
        switch (s) {
            case Lineage.Segment.Root r -> b.append(r.identifier());
            case Lineage.Segment.Member m -> {
                if (Names.isIdentifier(m.name())) {
                    b.append('.').append(m.name());
                } else {
                    b.append('[').append(quote(m.name(), true)).append(']');
                }
            }
            case Lineage.Segment.Index i -> b.append('[').append(i.index()).append(']');
            case Lineage.Segment.Key k ->
                b.append('[').append(quote(k.key(), true)).append(']');
            case Lineage.Segment.IndexBy by ->
                b.append('[').append(text(by.index())).append(']');
            case Lineage.Segment.Splat splat -> b.append("[*]");
        }
    }

    /** A quoted native-syntax string; in an expression its template sequences are escaped too. */
    static String quote(String s, boolean inExpression) {
        return "\"" + escape(inExpression ? templateText(s) : s) + "\"";
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
