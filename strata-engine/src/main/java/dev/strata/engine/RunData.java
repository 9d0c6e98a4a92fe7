package dev.strata.engine;

import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.TerraformAttr;
import dev.strata.config.ReferenceScope;
import dev.strata.config.ScopeData;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;

/**
 * What references mean in one module instance (and, for a resource instance's arguments, one instance
 * key) in the plan or apply phase: the values the run has produced so far — planned values while
 * planning, applied ones while applying (ARCHITECTURE §3.4).
 */
final class RunData implements ScopeData {
    private final Run run;
    private final ModuleInstance module;
    private final InstanceKey key;
    private final Value eachValue;
    private final Value self;
    /** Some instance not known yet: count.index and each.* are unknown (see {@link #forAnyInstance}). */
    private final boolean anyInstance;

    RunData(Run run, ModuleInstance module) {
        this(run, module, null, null, null, false);
    }

    private RunData(Run run, ModuleInstance module, InstanceKey key, Value eachValue, Value self, boolean anyInstance) {
        this.run = run;
        this.module = module;
        this.key = key;
        this.eachValue = eachValue;
        this.self = self;
        this.anyInstance = anyInstance;
    }

    /** The scope of {@code module} with no instance key: count, each and self are not available. */
    static Scope scope(Run run, ModuleInstance module) {
        return new RunData(run, module).scope();
    }

    Scope scope() {
        return new ReferenceScope(this);
    }

    RunData forInstance(InstanceKey k, Value each) {
        return new RunData(run, module, k, each, self, false);
    }

    /** For an instance whose key is not known yet: count.index, each.key and each.value are unknown. */
    RunData forAnyInstance() {
        return new RunData(run, module, null, null, self, true);
    }

    RunData withSelf(Value s) {
        return new RunData(run, module, key, eachValue, s, anyInstance);
    }

    ModuleInstance module() {
        return module;
    }

    @Override
    public FunctionTable functions() {
        return run.functions(module.module());
    }

    @Override
    public boolean resourceKeyAbsent(Resource resource, InstanceKey k) {
        return run.resourceKeyAbsent(module.resource(resource), k);
    }

    @Override
    public boolean moduleKeyAbsent(ModuleCall call, InstanceKey k) {
        return run.moduleKeyAbsent(module, call.name(), k);
    }

    @Override
    public Result<Value> inputVariable(InputVariable variable, Reference ref) {
        return Result.of(run.variable(module, variable.name()));
    }

    @Override
    public Result<Value> localValue(LocalValue local, Reference ref) {
        return Result.of(run.local(module, local.name()));
    }

    @Override
    public Result<Value> resource(Resource resource, InstanceKey k, Reference ref) {
        return Result.of(run.resourceValue(module.resource(resource), k));
    }

    @Override
    public Result<Value> moduleCall(ModuleCall call, InstanceKey k, String output, Reference ref) {
        return Result.of(run.moduleCallValue(module, call.name(), k, output));
    }

    @Override
    public Result<Value> pathAttr(PathAttr attr, Reference ref) {
        return Result.of(Value.string(
                switch (attr.name()) {
                    case "cwd" -> run.startDir().toString();
                    case "root" -> run.relativeDir(dev.strata.addr.Module.ROOT);
                    default -> run.relativeDir(module.module());
                }));
    }

    @Override
    public Result<Value> terraformAttr(TerraformAttr attr, Reference ref) {
        // terraform.applying differs between plan and apply, so, as in Terraform, it is ephemeral: it may steer
        // what is evaluated but never be persisted.
        return Result.of(
                attr.name().equals("workspace")
                        ? Value.string(run.workspace())
                        : Value.bool(run.applying()).mark(dev.strata.lang.value.Mark.EPHEMERAL));
    }

    @Override
    public Result<Value> countIndex(Reference ref) {
        if (anyInstance) {
            return Result.of(Value.unknown(Type.NUMBER));
        }
        return key instanceof InstanceKey.IntKey ik
                ? Result.of(Value.number(ik.index()))
                : notAvailable("count", ref.range());
    }

    @Override
    public Result<Value> forEachAttr(ForEachAttr attr, Reference ref) {
        if (anyInstance) {
            return Result.of(attr.name().equals("key") ? Value.unknown(Type.STRING) : Value.DYNAMIC_UNKNOWN);
        }
        // An import block's for_each over a list binds each.key to the element's index.
        if (key instanceof InstanceKey.IntKey ik && eachValue != null) {
            return Result.of(attr.name().equals("key") ? Value.number(ik.index()) : eachValue);
        }
        if (!(key instanceof InstanceKey.StringKey sk) || attr.name().equals("value") && eachValue == null) {
            return notAvailable("each", ref.range());
        }
        return Result.of(attr.name().equals("key") ? Value.string(sk.key()) : eachValue);
    }

    @Override
    public Result<Value> self(Reference ref) {
        return self == null ? notAvailable("self", ref.range()) : Result.of(self);
    }

    private static Result<Value> notAvailable(String name, SourceRange at) {
        return Result.of(
                Value.DYNAMIC_UNKNOWN,
                Diagnostics.of(Diagnostic.error(
                        "Invalid reference", "\"" + name + "\" is not available in this context.", at)));
    }
}
