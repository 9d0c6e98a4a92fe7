package dev.strata.engine;

import dev.strata.addr.CountAttr;
import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.ModuleCallInstance;
import dev.strata.addr.ModuleCallInstanceOutput;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceInstance;
import dev.strata.addr.Self;
import dev.strata.addr.TerraformAttr;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;

/**
 * The scope of one module instance (and, for a resource instance's arguments, one instance key) in
 * the plan or apply phase: references resolve to the values the run has produced so far — planned
 * values while planning, applied ones while applying (ARCHITECTURE §3.4).
 */
final class EvalScope implements Scope {
    private final Run run;
    private final ModuleInstance module;
    private final InstanceKey key;
    private final Value eachValue;
    private final Value self;
    /** Some instance not known yet: count.index and each.* are unknown (see {@link #forAnyInstance}). */
    private final boolean anyInstance;

    EvalScope(Run run, ModuleInstance module) {
        this(run, module, null, null, null);
    }

    EvalScope(Run run, ModuleInstance module, InstanceKey key, Value eachValue, Value self) {
        this(run, module, key, eachValue, self, false);
    }

    private EvalScope(Run run, ModuleInstance module, InstanceKey key, Value eachValue, Value self,
                      boolean anyInstance) {
        this.run = run;
        this.module = module;
        this.key = key;
        this.eachValue = eachValue;
        this.self = self;
        this.anyInstance = anyInstance;
    }

    EvalScope forInstance(InstanceKey k, Value each) {
        return new EvalScope(run, module, k, each, self);
    }

    /** For an instance whose key is not known yet: count.index, each.key and each.value are unknown. */
    EvalScope forAnyInstance() {
        return new EvalScope(run, module, null, null, self, true);
    }

    EvalScope withSelf(Value s) {
        return new EvalScope(run, module, key, eachValue, s, anyInstance);
    }

    ModuleInstance module() {
        return module;
    }

    @Override
    public FunctionTable functions() {
        return run.functions(module.module());
    }

    @Override
    public Result<Resolved> resolve(Traversal t) {
        Result<Reference> parsed = Reference.parse(t);
        if (parsed.value() == null) {
            return Result.of(new Resolved(Value.DYNAMIC_UNKNOWN, t.steps().size()), parsed.diagnostics());
        }
        Reference ref = parsed.value();
        int consumed = t.steps().size() - ref.remaining().size();
        // An instance key that the known expansion lacks: resolve the whole resource or module call
        // and leave the index step to the evaluator, which reports it (or try() handles it).
        switch (ref.subject()) {
            case ResourceInstance ri when run.resourceKeyAbsent(module.resource(ri.resource()), ri.key()) -> {
                return Result.of(new Resolved(run.resourceValue(module.resource(ri.resource()), null), consumed - 1));
            }
            case ModuleCallInstance c when run.moduleKeyAbsent(module, c.call().name(), c.key()) -> {
                return Result.of(new Resolved(run.moduleCallValue(module, c.call().name(), null, null), consumed - 1));
            }
            case ModuleCallInstanceOutput o when run.moduleKeyAbsent(module, o.call().call().name(), o.call().key()) -> {
                return Result.of(new Resolved(run.moduleCallValue(module, o.call().call().name(), null, null),
                        consumed - 2));
            }
            default -> { }
        }
        Value v = switch (ref.subject()) {
            case InputVariable var -> run.variable(module, var.name());
            case LocalValue l -> run.local(module, l.name());
            case Resource r -> run.resourceValue(module.resource(r), null);
            case ResourceInstance ri -> run.resourceValue(module.resource(ri.resource()), ri.key());
            case ModuleCall c -> run.moduleCallValue(module, c.name(), null, null);
            case ModuleCallInstance c -> run.moduleCallValue(module, c.call().name(), c.key(), null);
            case ModuleCallInstanceOutput o -> run.moduleCallValue(module, o.call().call().name(), o.call().key(),
                    o.name());
            case PathAttr p -> Value.string(switch (p.name()) {
                case "cwd" -> run.startDir().toString();
                case "root" -> run.relativeDir(dev.strata.addr.Module.ROOT);
                default -> run.relativeDir(module.module());
            });
            case TerraformAttr ta -> ta.name().equals("workspace") ? Value.string(run.workspace())
                    : Value.bool(run.applying());
            case CountAttr c when anyInstance -> Value.unknown(dev.strata.lang.types.Type.NUMBER);
            case ForEachAttr f when anyInstance -> f.name().equals("key")
                    ? Value.unknown(dev.strata.lang.types.Type.STRING) : Value.DYNAMIC_UNKNOWN;
            case CountAttr c -> key instanceof InstanceKey.IntKey ik ? Value.number(ik.index()) : null;
            case ForEachAttr f -> key instanceof InstanceKey.StringKey sk
                    ? (f.name().equals("key") ? Value.string(sk.key()) : eachValue) : null;
            case Self s -> self;
        };
        if (v == null) {
            return Result.of(new Resolved(Value.DYNAMIC_UNKNOWN, consumed), Diagnostics.of(Diagnostic.error(
                    "Invalid reference", "\"" + t.rootName() + "\" is not available in this context.",
                    ref.range())));
        }
        return Result.of(new Resolved(v, consumed));
    }
}
