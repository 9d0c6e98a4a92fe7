package dev.strata.hcl.json;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.hcl.json.JsonValue.JArray;
import dev.strata.hcl.json.JsonValue.JObject;
import dev.strata.hcl.json.JsonValue.JString;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * An expression written in JSON. Evaluation sees it through {@link #syntax()}: the native tree it
 * means, with every string read as a template. Static readings ({@link #asTraversal()},
 * {@link #asList()}, ...) follow the HCL JSON specification: a reference is a string that contains one.
 */
public final class JsonExpression implements Expression {
    private final JsonValue value;
    private volatile Result<Expr> lowered;

    JsonExpression(JsonValue value) {
        this.value = value;
    }

    JsonValue value() {
        return value;
    }

    @Override
    public SourceRange range() {
        return value.range();
    }

    @Override
    public SourceRange startRange() {
        return value.startRange();
    }

    @Override
    public List<Traversal> variables() {
        return syntax().value().variables();
    }

    @Override
    public Result<Expr> syntax() {
        Result<Expr> r = lowered;
        if (r == null) {
            r = Lowering.lower(value, true);
            lowered = r;
        }
        return r;
    }

    /**
     * The value in literal mode: strings (and property names) are plain strings, never templates, as
     * the HCL JSON specification defines for callers that evaluate without variables or functions.
     */
    public Result<Expr> literalSyntax() {
        return Lowering.lower(value, false);
    }

    /**
     * A string's content parsed as one native-syntax expression (not a template), with ranges in this
     * file: how Terraform reads arguments whose JSON form is "a string containing an expression",
     * such as a variable's {@code type} ({@code "list(string)"}). Any other JSON value is an error.
     */
    public Result<Expr> asNativeExpression() {
        if (value instanceof JString s) {
            Relocator at = new Relocator(s.offsets());
            Result<Expr> r = NativeSyntax.parseExpression(
                    s.value().getBytes(StandardCharsets.UTF_8), s.range().filename(), Relocator.VIRTUAL_START);
            return Result.of(at.expr(r.value()), at.diagnostics(r.diagnostics()));
        }
        return Result.of(
                syntax().value(),
                Diagnostics.of(Diagnostic.error(
                        "Invalid expression",
                        "A string containing an expression is required here; a " + value.kind() + " is not allowed.",
                        value.startRange())));
    }

    @Override
    public Result<Optional<Traversal>> asTraversal() {
        if (value instanceof JString s) {
            Relocator at = new Relocator(s.offsets());
            Result<Traversal> r = NativeSyntax.parseTraversal(
                    s.value().getBytes(StandardCharsets.UTF_8), s.range().filename(), Relocator.VIRTUAL_START);
            Diagnostics diags = at.diagnostics(r.diagnostics());
            if (r.value() == null || diags.hasErrors()) {
                return Result.of(Optional.empty(), diags);
            }
            return Result.of(Optional.of(at.traversal(r.value())), diags);
        }
        return Result.of(
                Optional.empty(),
                Diagnostics.of(Diagnostic.error(
                        "Invalid expression",
                        "A single static variable reference is required here. In JSON syntax it is written as a string "
                                + "containing the reference, such as \"aws_instance.web\"; a " + value.kind()
                                + " is not allowed.",
                        value.startRange())));
    }

    @Override
    public Optional<List<Expression>> asList() {
        if (value instanceof JArray a) {
            return Optional.of(
                    a.elements().stream().<Expression>map(JsonExpression::new).toList());
        }
        return Optional.empty();
    }

    @Override
    public Optional<List<KeyValue>> asMap() {
        if (value instanceof JObject o) {
            return Optional.of(o.properties().stream()
                    .map(p -> new KeyValue(new JsonExpression(p.name()), new JsonExpression(p.value())))
                    .toList());
        }
        return Optional.empty();
    }

    @Override
    public Optional<String> asKeyword() {
        if (!(value instanceof JString s)) {
            return Optional.empty();
        }
        // A keyword is a string that is exactly one identifier: no spaces, no steps after it.
        Result<Traversal> r = NativeSyntax.parseTraversal(
                s.value().getBytes(StandardCharsets.UTF_8), s.range().filename(), Relocator.VIRTUAL_START);
        if (r.value() != null
                && !r.hasErrors()
                && r.value().steps().size() == 1
                && r.value().steps().get(0) instanceof Traverser.Root root
                && root.name().equals(s.value())) {
            return Optional.of(root.name());
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "JsonExpression[" + value.kind() + " at " + value.range() + "]";
    }
}
