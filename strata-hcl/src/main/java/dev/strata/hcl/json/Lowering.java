package dev.strata.hcl.json;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Nesting;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.json.JsonValue.JArray;
import dev.strata.hcl.json.JsonValue.JBool;
import dev.strata.hcl.json.JsonValue.JInvalid;
import dev.strata.hcl.json.JsonValue.JNull;
import dev.strata.hcl.json.JsonValue.JNumber;
import dev.strata.hcl.json.JsonValue.JObject;
import dev.strata.hcl.json.JsonValue.JString;
import dev.strata.hcl.json.JsonValue.Property;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a JSON value into the native expression tree it means. In template mode (how Terraform
 * evaluates {@code .tf.json} attributes) every string, property names included, is a template; in
 * literal mode strings are taken as they are.
 */
final class Lowering {
    private final boolean templates;
    private final Diagnostics.Builder diags = Diagnostics.builder();

    private Lowering(boolean templates) {
        this.templates = templates;
    }

    static Result<Expr> lower(JsonValue v, boolean templates) {
        Lowering l = new Lowering(templates);
        Expr e = l.value(v);
        return Result.of(e, l.diags.build());
    }

    /** Nesting of the value being lowered; the parser has bounded it. */
    private int depth;

    private Expr value(JsonValue v) {
        depth++;
        try {
            return depth == Nesting.HANDOFF_DEPTH ? Nesting.onDeepStack(() -> lowered(v)) : lowered(v);
        } finally {
            depth--;
        }
    }

    private Expr lowered(JsonValue v) {
        return switch (v) {
            case JString s -> string(s);
            case JNumber n -> new Expr.LiteralValue(new Literal.NumberLit(n.value()), n.range());
            case JBool b -> new Expr.LiteralValue(b.value() ? Literal.TRUE : Literal.FALSE, b.range());
            case JNull n -> new Expr.LiteralValue(Literal.NULL, n.range());
            // Only a failed parse produces these, and it has reported the problem already.
            case JInvalid i -> new Expr.LiteralValue(Literal.NULL, i.range());
            case JArray a ->
                new Expr.TupleCons(a.elements().stream().map(this::value).toList(), a.openRange(), a.range());
            case JObject o -> object(o);
        };
    }

    private Expr object(JObject o) {
        List<Expr.ObjectItem> items = new ArrayList<>();
        Map<String, SourceRange> seen = new HashMap<>();
        for (Property p : o.properties()) {
            Expr key = string(p.name());
            if (isConstantString(key)) {
                // Two equal constant names would silently lose one value; HCL reports it, as do we.
                String name = constantString(key);
                SourceRange first = seen.putIfAbsent(name, p.name().range());
                if (first != null) {
                    diags.add(Diagnostic.error(
                            "Duplicate object attribute",
                            "An attribute named \"" + name + "\" was already defined at " + first.filename() + ":"
                                    + first.start().line() + "," + first.start().column() + "-"
                                    + first.end().column() + ". Each property name may appear only once.",
                            p.name().range(),
                            o.range()));
                    continue;
                }
            }
            // Forced: a JSON property name is always an expression (a template), never a bare name.
            items.add(new Expr.ObjectItem(new Expr.ObjectKey(key, true), value(p.value())));
        }
        return new Expr.ObjectCons(items, o.openRange(), o.range());
    }

    private Expr string(JString s) {
        if (!templates) {
            return new Expr.LiteralValue(new Literal.StringLit(s.value()), s.range());
        }
        Relocator at = new Relocator(s.offsets());
        Result<Expr> r = NativeSyntax.parseTemplate(
                s.value().getBytes(StandardCharsets.UTF_8), s.range().filename(), Relocator.VIRTUAL_START);
        diags.addAll(at.diagnostics(r.diagnostics()));
        Expr e = at.expr(r.value());
        // The template's own range covers the text between the quotes; the expression is the whole string.
        return switch (e) {
            case Expr.Template t -> new Expr.Template(t.parts(), s.range());
            case Expr.TemplateWrap w -> new Expr.TemplateWrap(w.wrapped(), s.range());
            case Expr.TemplateJoin j -> new Expr.TemplateJoin(j.tuple(), s.range());
            default -> e;
        };
    }

    private static boolean isConstantString(Expr e) {
        return e instanceof Expr.LiteralValue l && l.value() instanceof Literal.StringLit
                || e instanceof Expr.Template t
                        && t.parts().stream()
                                .allMatch(p ->
                                        p instanceof Expr.LiteralValue l && l.value() instanceof Literal.StringLit);
    }

    private static String constantString(Expr e) {
        if (e instanceof Expr.LiteralValue l) {
            return ((Literal.StringLit) l.value()).value();
        }
        StringBuilder sb = new StringBuilder();
        for (Expr p : ((Expr.Template) e).parts()) {
            sb.append(((Literal.StringLit) ((Expr.LiteralValue) p).value()).value());
        }
        return sb.toString();
    }
}
