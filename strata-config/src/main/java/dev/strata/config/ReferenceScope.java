package dev.strata.config;

import dev.strata.addr.CountAttr;
import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.ModuleCallInstance;
import dev.strata.addr.ModuleCallInstanceOutput;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceInstance;
import dev.strata.addr.Self;
import dev.strata.addr.TerraformAttr;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;

/**
 * The one evaluation scope of the Terraform language (docs/adr/0014): parses a traversal into a
 * {@link Reference} once and asks the phase's {@link ScopeData} for the value of its subject; the
 * evaluator applies the steps after it.
 */
public final class ReferenceScope implements Scope {
    private final ScopeData data;

    public ReferenceScope(ScopeData data) {
        this.data = data;
    }

    @Override
    public FunctionTable functions() {
        return data.functions();
    }

    @Override
    public Result<Resolved> resolve(Traversal t) {
        Result<Reference> parsed = Reference.parse(t);
        if (parsed.value() == null) {
            return Result.of(
                    new Resolved(Value.DYNAMIC_UNKNOWN, t.steps().size()),
                    data.invalidReference(t, parsed.diagnostics()));
        }
        Reference ref = parsed.value();
        int consumed = t.steps().size() - ref.remaining().size();
        // An instance key the known expansion lacks: the whole resource or module call, with the
        // index step (and an output's attribute step) left to the evaluator.
        switch (ref.subject()) {
            case ResourceInstance ri
            when data.resourceKeyAbsent(ri.resource(), ri.key()) -> {
                return resolved(data.resource(ri.resource(), null, ref), consumed - 1);
            }
            case ModuleCallInstance c
            when data.moduleKeyAbsent(c.call(), c.key()) -> {
                return resolved(data.moduleCall(c.call(), null, null, ref), consumed - 1);
            }
            case ModuleCallInstanceOutput o
            when data.moduleKeyAbsent(o.call().call(), o.call().key()) -> {
                return resolved(data.moduleCall(o.call().call(), null, null, ref), consumed - 2);
            }
            default -> {}
        }
        Result<Value> v = switch (ref.subject()) {
            case InputVariable var -> data.inputVariable(var, ref);
            case LocalValue l -> data.localValue(l, ref);
            case Resource r -> data.resource(r, null, ref);
            case ResourceInstance ri -> data.resource(ri.resource(), ri.key(), ref);
            case ModuleCall c -> data.moduleCall(c, null, null, ref);
            case ModuleCallInstance c -> data.moduleCall(c.call(), c.key(), null, ref);
            case ModuleCallInstanceOutput o ->
                data.moduleCall(o.call().call(), o.call().key(), o.name(), ref);
            case PathAttr p -> data.pathAttr(p, ref);
            case TerraformAttr ta -> data.terraformAttr(ta, ref);
            case CountAttr c -> data.countIndex(ref);
            case ForEachAttr f -> data.forEachAttr(f, ref);
            case Self s -> data.self(ref);
        };
        return resolved(v, consumed);
    }

    private static Result<Resolved> resolved(Result<Value> v, int consumed) {
        Value value = v.value() == null ? Value.DYNAMIC_UNKNOWN : v.value();
        return Result.of(new Resolved(value, consumed), v.diagnostics());
    }
}
