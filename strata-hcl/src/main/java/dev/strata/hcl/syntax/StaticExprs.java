package dev.strata.hcl.syntax;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Static (unevaluated) readings of expressions, for meta-arguments such as {@code depends_on}. */
final class StaticExprs {
    private StaticExprs() {}

    static Result<Optional<Traversal>> traversal(Expr e) {
        Expr inner = e instanceof Expr.ObjectKey k ? k.wrapped() : e;
        if (inner instanceof Expr.ScopeTraversal s) {
            return Result.of(Optional.of(s.traversal()));
        }
        // Traversal syntax has no keywords: "null.alt" (a provider's local name "null", as in
        // configuration_aliases) is a reference rooted at "null", though the parser read a literal first.
        Optional<String> keyword = keyword(inner);
        if (keyword.isPresent()) {
            return Result.of(Optional.of(
                    new Traversal(List.of(new dev.strata.hcl.Traverser.Root(keyword.get(), inner.range())))));
        }
        if (inner instanceof Expr.RelativeTraversal r && keyword(r.source()).isPresent()) {
            List<dev.strata.hcl.Traverser> steps = new ArrayList<>();
            steps.add(new dev.strata.hcl.Traverser.Root(
                    keyword(r.source()).get(), r.source().range()));
            steps.addAll(r.steps());
            return Result.of(Optional.of(new Traversal(steps)));
        }
        return Result.of(
                Optional.empty(),
                Diagnostics.of(Diagnostic.error(
                        "Invalid expression",
                        "A single static variable reference is required: only attribute access and indexing with "
                                + "constant keys. No calculations, function calls, template expressions, etc are allowed here.",
                        e.range())));
    }

    private static Optional<String> keyword(Expr e) {
        if (e instanceof Expr.LiteralValue lv) {
            return switch (lv.value()) {
                case dev.strata.hcl.Literal.BoolLit b -> Optional.of(b.value() ? "true" : "false");
                case dev.strata.hcl.Literal.NullLit n -> Optional.of("null");
                default -> Optional.empty();
            };
        }
        return Optional.empty();
    }
}
