package dev.strata.config;

import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.TerraformAttr;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;

/**
 * What references mean in one phase: the values {@link ReferenceScope} asks for once it has parsed a
 * traversal into a reference. Each phase (static validation, schema validation, plan and apply,
 * console) supplies its own; the parsing, the dispatch and the bookkeeping of consumed steps are the
 * scope's. Every method gets the parsed reference (its subject's range for diagnostics, the steps
 * after it); a result whose value is null stands for an unknown placeholder.
 */
public interface ScopeData {

    /** The functions expressions may call here (built-ins and provider-defined functions). */
    FunctionTable functions();

    /**
     * The diagnostics for a traversal that is no valid reference ({@code var} alone, {@code count.foo}):
     * by default {@code problems}, the parser's; phases where static validation already reported them
     * return none.
     */
    default Diagnostics invalidReference(Traversal traversal, Diagnostics problems) {
        return problems;
    }

    Result<Value> inputVariable(InputVariable variable, Reference ref);

    Result<Value> localValue(LocalValue local, Reference ref);

    /** A resource as a whole ({@code key} null) or one of its instances. */
    Result<Value> resource(Resource resource, InstanceKey key, Reference ref);

    /**
     * A module call as a whole ({@code key} and {@code output} null), one of its instances
     * ({@code output} null), or one instance's output ({@code key} {@link InstanceKey#NONE} when the call
     * has no count or for_each).
     */
    Result<Value> moduleCall(ModuleCall call, InstanceKey key, String output, Reference ref);

    /** {@code count.index}. */
    Result<Value> countIndex(Reference ref);

    /** {@code each.key} or {@code each.value}. */
    Result<Value> forEachAttr(ForEachAttr attr, Reference ref);

    Result<Value> pathAttr(PathAttr attr, Reference ref);

    Result<Value> terraformAttr(TerraformAttr attr, Reference ref);

    Result<Value> self(Reference ref);

    /**
     * Whether the known expansion of {@code resource} lacks {@code key}: the scope then resolves the
     * whole resource and leaves the index step to the evaluator, which reports it (or try() handles it).
     */
    default boolean resourceKeyAbsent(Resource resource, InstanceKey key) {
        return false;
    }

    /** As {@link #resourceKeyAbsent}, for a module call's instances. */
    default boolean moduleKeyAbsent(ModuleCall call, InstanceKey key) {
        return false;
    }
}
