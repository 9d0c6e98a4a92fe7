package dev.strata.hcl.syntax;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import java.util.Optional;

/** Static (unevaluated) readings of expressions, for meta-arguments such as {@code depends_on}. */
final class StaticExprs {
    private StaticExprs() {}

    static Result<Optional<Traversal>> traversal(Expr e) {
        Expr inner = e instanceof Expr.ObjectKey k ? k.wrapped() : e;
        if (inner instanceof Expr.ScopeTraversal s) {
            return Result.of(Optional.of(s.traversal()));
        }
        return Result.of(
                Optional.empty(),
                Diagnostics.of(Diagnostic.error(
                        "Invalid expression",
                        "A single static variable reference is required: only attribute access and indexing with "
                                + "constant keys. No calculations, function calls, template expressions, etc are allowed here.",
                        e.range())));
    }
}
