package dev.strata.lang.eval;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;

/** {@link Scope#constant()}: no names, no functions. */
final class ConstantScope implements Scope {
    static final ConstantScope INSTANCE = new ConstantScope();

    private ConstantScope() {}

    @Override
    public Result<Resolved> resolve(Traversal traversal) {
        return Result.of(
                new Resolved(Value.DYNAMIC_UNKNOWN, 1),
                Diagnostics.of(Diagnostic.error(
                        "Variables not allowed", "Variables may not be used here.", traversal.rootRange())));
    }

    @Override
    public FunctionTable functions() {
        return FunctionTable.empty();
    }

    @Override
    public boolean functionsAllowed() {
        return false;
    }
}
