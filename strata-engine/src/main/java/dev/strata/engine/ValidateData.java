package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.Module;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceMode;
import dev.strata.addr.TerraformAttr;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.LocalConfig;
import dev.strata.config.PartialData;
import dev.strata.config.ReferenceScope;
import dev.strata.config.ResourceConfig;
import dev.strata.config.VariableConfig;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.Schema;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What references mean in one module while validating, where no variable has a value yet: as in
 * Terraform's validate walk, input variables are unknown values of their declared type, resources
 * unknown objects of their schema's type (unknown of any type when they have {@code count} or
 * {@code for_each}, since their instances are not known), module outputs unknown, and local values
 * are evaluated from those. Problems of references themselves are static validation's to report, so
 * resolving never adds diagnostics here.
 */
final class ValidateData extends PartialData {
    private final Shared shared;
    private final ConfigNode node;
    private final boolean counted;
    private final boolean forEach;

    /** What the scopes of one validation share: the tree, schemas and the local values computed so far. */
    record Shared(
            ConfigTree tree,
            ProviderPool providers,
            java.util.function.Function<Module, FunctionTable> functions,
            Path workingDir,
            Map<Module, Map<String, Value>> locals) {
        Shared(
                ConfigTree tree,
                ProviderPool providers,
                java.util.function.Function<Module, FunctionTable> functions,
                Path workingDir) {
            this(tree, providers, functions, workingDir, new ConcurrentHashMap<>());
        }
    }

    private ValidateData(Shared shared, ConfigNode node, boolean counted, boolean forEach) {
        this.shared = shared;
        this.node = node;
        this.counted = counted;
        this.forEach = forEach;
    }

    /** The scope of {@code node}'s expressions; of a resource's with count or for_each as flagged. */
    static Scope scope(Shared shared, ConfigNode node, boolean counted, boolean forEach) {
        return new ReferenceScope(new ValidateData(shared, node, counted, forEach));
    }

    @Override
    public FunctionTable functions() {
        return shared.functions().apply(node.path());
    }

    @Override
    public Result<Value> inputVariable(InputVariable variable, Reference ref) {
        VariableConfig v = node.module().variables().get(variable.name());
        if (v == null || v.type() == null) {
            return Result.of(Value.DYNAMIC_UNKNOWN);
        }
        Value u = Value.unknown(v.type().type());
        return Result.of(v.ephemeral() ? u.mark(dev.strata.lang.value.Mark.EPHEMERAL) : u);
    }

    @Override
    public Result<Value> localValue(LocalValue local, Reference ref) {
        String name = local.name();
        Map<String, Value> known = shared.locals().computeIfAbsent(node.path(), m -> new ConcurrentHashMap<>());
        Value v = known.get(name);
        if (v != null) {
            return Result.of(v);
        }
        LocalConfig l = node.module().locals().get(name);
        if (l == null) {
            return Result.of(Value.DYNAMIC_UNKNOWN);
        }
        // Cycles were refused before the walk, so this recursion ends. Errors in a local are static
        // validation's; a broken local is simply unknown here.
        Result<Value> r = new Evaluator(scope(shared, node, false, false)).evaluate(l.expr());
        v = r.hasErrors() || r.value() == null ? Value.DYNAMIC_UNKNOWN : r.value();
        known.putIfAbsent(name, v);
        return Result.of(v);
    }

    @Override
    public Result<Value> resource(Resource r, InstanceKey key, Reference ref) {
        ResourceConfig rc = node.module().resources().get(r);
        if (rc == null || (rc.isInstanced() && key == null)) {
            return Result.of(Value.DYNAMIC_UNKNOWN);
        }
        AbsProviderConfig cfg = GraphBuilder.providerOf(shared.tree(), node, rc);
        ProviderSchema ps = shared.providers().schema(cfg);
        Schema s = ps == null ? null : Walk.schemaOf(ps, r);
        Value v = s == null ? Value.DYNAMIC_UNKNOWN : Value.unknown(s.block().impliedType());
        // An ephemeral resource's result is only ever known while planning or applying, and ephemeral.
        return Result.of(r.mode() == ResourceMode.EPHEMERAL ? v.mark(dev.strata.lang.value.Mark.EPHEMERAL) : v);
    }

    @Override
    public Result<Value> pathAttr(PathAttr attr, Reference ref) {
        return Result.of(Value.string(
                switch (attr.name()) {
                    case "cwd" -> shared.workingDir().toString();
                    case "root" ->
                        Run.relativeDir(shared.workingDir(), shared.tree().root());
                    default -> Run.relativeDir(shared.workingDir(), node);
                }));
    }

    @Override
    public Result<Value> terraformAttr(TerraformAttr attr, Reference ref) {
        return Result.of(
                attr.name().equals("workspace")
                        ? Value.unknown(Type.STRING)
                        : Value.FALSE.mark(dev.strata.lang.value.Mark.EPHEMERAL));
    }

    @Override
    public Result<Value> countIndex(Reference ref) {
        return Result.of(counted ? Value.unknown(Type.NUMBER) : Value.DYNAMIC_UNKNOWN);
    }

    @Override
    public Result<Value> forEachAttr(ForEachAttr attr, Reference ref) {
        return Result.of(forEach && attr.name().equals("key") ? Value.unknown(Type.STRING) : Value.DYNAMIC_UNKNOWN);
    }
}
