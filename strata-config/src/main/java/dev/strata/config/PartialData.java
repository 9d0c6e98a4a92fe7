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
import dev.strata.lang.value.Value;

/**
 * The data of a phase that knows few kinds of references (validation knows types, a variable's
 * validation the variables, the encryption block only variables): it overrides those, and every
 * other reference is {@link #other}, by default an unknown value of any type without diagnostics.
 * A traversal that is no valid reference is unknown here too, without diagnostics.
 */
public abstract class PartialData implements ScopeData {

    /** Problems of the reference itself are static validation's to report, not this phase's. */
    @Override
    public Diagnostics invalidReference(Traversal traversal, Diagnostics problems) {
        return Diagnostics.NONE;
    }

    /** A reference this phase has no particular answer for. */
    protected Result<Value> other(Reference ref) {
        return Result.of(Value.DYNAMIC_UNKNOWN);
    }

    @Override
    public Result<Value> inputVariable(InputVariable variable, Reference ref) {
        return other(ref);
    }

    @Override
    public Result<Value> localValue(LocalValue local, Reference ref) {
        return other(ref);
    }

    @Override
    public Result<Value> resource(Resource resource, InstanceKey key, Reference ref) {
        return other(ref);
    }

    @Override
    public Result<Value> moduleCall(ModuleCall call, InstanceKey key, String output, Reference ref) {
        return other(ref);
    }

    @Override
    public Result<Value> countIndex(Reference ref) {
        return other(ref);
    }

    @Override
    public Result<Value> forEachAttr(ForEachAttr attr, Reference ref) {
        return other(ref);
    }

    @Override
    public Result<Value> pathAttr(PathAttr attr, Reference ref) {
        return other(ref);
    }

    @Override
    public Result<Value> terraformAttr(TerraformAttr attr, Reference ref) {
        return other(ref);
    }

    @Override
    public Result<Value> self(Reference ref) {
        return other(ref);
    }
}
