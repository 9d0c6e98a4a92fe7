package dev.strata.hcl.syntax;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.Literal;
import dev.strata.hcl.SourceRange;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * Renders a parsed body in the shape the hcl2json oracle produces (HashiCorp's parser output
 * converted to JSON), so the corpus oracle files can check our tree and every expression's range.
 */
final class Hcl2JsonShape {
    private static final JsonNodeFactory F = JsonNodeFactory.withExactBigDecimals(true);
    private final byte[] src;

    Hcl2JsonShape(byte[] src) {
        this.src = src;
    }

    ObjectNode body(SyntaxBody body) {
        ObjectNode out = F.objectNode();
        for (Attribute a : body.attributes()) {
            out.set(a.name(), expr((Expr) a.expr()));
        }
        for (Block b : body.blocks()) {
            block(b, out);
        }
        return out;
    }

    private void block(Block b, ObjectNode out) {
        String key = b.type();
        ObjectNode target = out;
        for (String label : b.labels()) {
            JsonNode inner = target.get(key);
            if (inner instanceof ObjectNode o) {
                target = o;
            } else if (inner != null) {
                return; // hcl2json drops a labelled block whose name an attribute already took
            } else {
                ObjectNode o = F.objectNode();
                target.set(key, o);
                target = o;
            }
            key = label;
        }
        ObjectNode value = body((SyntaxBody) b.body());
        JsonNode cur = target.get(key);
        if (cur instanceof ArrayNode arr) {
            arr.add(value);
        } else {
            ArrayNode arr = F.arrayNode();
            arr.add(value);
            target.set(key, arr);
        }
    }

    JsonNode expr(Expr e) {
        return switch (e) {
            case Expr.LiteralValue l -> literal(l.value());
            case Expr.Unary u when u.operand() instanceof Expr.LiteralValue l -> unaryLiteral(u.op(), l.value(), u);
            case Expr.Template t ->
                F.textNode(
                        t.isStringLiteral() && !hasEscapedSequence(t)
                                ? (t.parts().isEmpty()
                                        ? ""
                                        : ((Literal.StringLit) ((Expr.LiteralValue)
                                                                t.parts().get(0))
                                                        .value())
                                                .value())
                                : template(t));
            case Expr.TemplateWrap w -> expr(w.wrapped());
            case Expr.TupleCons t -> {
                ArrayNode a = F.arrayNode();
                t.elements().forEach(x -> a.add(expr(x)));
                yield a;
            }
            case Expr.ObjectCons o -> {
                ObjectNode n = F.objectNode();
                for (Expr.ObjectItem i : o.items()) {
                    n.set(key(i.key()), expr(i.value()));
                }
                yield n;
            }
            default -> F.textNode(wrap(e.range()));
        };
    }

    private JsonNode unaryLiteral(Expr.UnaryOp op, Literal v, Expr whole) {
        if (op == Expr.UnaryOp.NEGATE && v instanceof Literal.NumberLit n) {
            return F.numberNode(n.value().negate());
        }
        if (op == Expr.UnaryOp.NOT && v instanceof Literal.BoolLit b) {
            return F.booleanNode(!b.value());
        }
        return F.textNode(wrap(whole.range()));
    }

    private String key(Expr.ObjectKey k) {
        if (k.wrapped() instanceof Expr.ScopeTraversal) {
            return source(k.wrapped().range());
        }
        return stringPart(k.wrapped());
    }

    /**
     * HashiCorp's scanner splits a literal at "$${" and "%%{", so such a string is not a single
     * literal part there and hcl2json takes its multi-part path.
     */
    private boolean hasEscapedSequence(Expr.Template t) {
        String text = source(t.range());
        return text.contains("$${") || text.contains("%%{");
    }

    private String template(Expr.Template t) {
        StringBuilder sb = new StringBuilder();
        for (Expr p : t.parts()) {
            sb.append(stringPart(p));
        }
        return sb.toString();
    }

    private String stringPart(Expr e) {
        return switch (e) {
            case Expr.LiteralValue l ->
                switch (l.value()) {
                    // hcl2json writes literal parts of a multi-part template re-escaped, so they stay literal
                    // when its output is read back as a JSON-syntax template.
                    case Literal.StringLit s -> s.value().replace("${", "$${").replace("%{", "%%{");
                    case Literal.NumberLit n -> n.value().stripTrailingZeros().toPlainString();
                    case Literal.BoolLit b -> Boolean.toString(b.value());
                    case Literal.NullLit n -> wrap(e.range());
                };
            case Expr.Template t -> template(t);
            case Expr.TemplateWrap w -> stringPart(w.wrapped());
            case Expr.Conditional c
            when c.trueResult() instanceof Expr.Template && c.falseResult() instanceof Expr.Template -> {
                String f = stringPart(c.falseResult());
                yield "%{if " + source(c.condition().range()) + "}" + stringPart(c.trueResult())
                        + (f.isEmpty() ? "" : "%{else}" + f) + "%{endif}";
            }
            case Expr.TemplateJoin j ->
                "%{for " + (j.tuple().keyVar() != null ? j.tuple().keyVar() + ", " : "")
                        + j.tuple().valVar() + " in "
                        + source(j.tuple().collection().range()) + "}"
                        + stringPart(j.tuple().valueExpr()) + "%{endfor}";
            default -> wrap(e.range());
        };
    }

    private JsonNode literal(Literal l) {
        return switch (l) {
            case Literal.NumberLit n -> F.numberNode(n.value());
            case Literal.StringLit s -> F.textNode(s.value());
            case Literal.BoolLit b -> F.booleanNode(b.value());
            case Literal.NullLit n -> F.nullNode();
        };
    }

    private String wrap(SourceRange r) {
        return "${" + source(r) + "}";
    }

    private String source(SourceRange r) {
        return new String(
                src, r.start().byteOffset(), r.end().byteOffset() - r.start().byteOffset(), StandardCharsets.UTF_8);
    }

    /** JSON equality with numbers compared by value. */
    static boolean sameJson(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> en = it.next();
                JsonNode o = b.get(en.getKey());
                if (o == null || !sameJson(en.getValue(), o)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!sameJson(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }
}
