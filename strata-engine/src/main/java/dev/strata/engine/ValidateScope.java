package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.CountAttr;
import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.LocalValue;
import dev.strata.addr.Module;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.ModuleCallInstance;
import dev.strata.addr.ModuleCallInstanceOutput;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.addr.Self;
import dev.strata.addr.TerraformAttr;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.LocalConfig;
import dev.strata.config.ResourceConfig;
import dev.strata.config.VariableConfig;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
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
 * The scope of one module while validating, where no variable has a value yet: as in Terraform's
 * validate walk, input variables are unknown values of their declared type, resources unknown
 * objects of their schema's type (unknown of any type when they have {@code count} or
 * {@code for_each}, since their instances are not known), module outputs unknown, and local values
 * are evaluated from those. Problems of references themselves are static validation's to report, so
 * resolving never adds diagnostics here.
 */
final class ValidateScope implements Scope {
    private final Shared shared;
    private final ConfigNode node;
    private final boolean counted;
    private final boolean forEach;

    /** What the scopes of one validation share: the tree, schemas and the local values computed so far. */
    record Shared(ConfigTree tree, ProviderPool providers, java.util.function.Function<Module, FunctionTable> functions,
                  Path workingDir, Map<Module, Map<String, Value>> locals) {
        Shared(ConfigTree tree, ProviderPool providers, java.util.function.Function<Module, FunctionTable> functions,
               Path workingDir) {
            this(tree, providers, functions, workingDir, new ConcurrentHashMap<>());
        }
    }

    ValidateScope(Shared shared, ConfigNode node, boolean counted, boolean forEach) {
        this.shared = shared;
        this.node = node;
        this.counted = counted;
        this.forEach = forEach;
    }

    @Override
    public FunctionTable functions() {
        return shared.functions().apply(node.path());
    }

    @Override
    public Result<Resolved> resolve(Traversal t) {
        Result<Reference> parsed = Reference.parse(t);
        if (parsed.value() == null) {
            return Result.of(new Resolved(Value.DYNAMIC_UNKNOWN, t.steps().size()), Diagnostics.NONE);
        }
        Reference ref = parsed.value();
        int consumed = t.steps().size() - ref.remaining().size();
        Value v = switch (ref.subject()) {
            case InputVariable var -> variable(var.name());
            case LocalValue l -> local(l.name());
            case Resource r -> resource(r, false);
            case ResourceInstance ri -> resource(ri.resource(), true);
            case ModuleCall c -> Value.DYNAMIC_UNKNOWN;
            case ModuleCallInstance c -> Value.DYNAMIC_UNKNOWN;
            case ModuleCallInstanceOutput o -> Value.DYNAMIC_UNKNOWN;
            case PathAttr p -> Value.string(switch (p.name()) {
                case "cwd" -> shared.workingDir().toString();
                case "root" -> Run.relativeDir(shared.workingDir(), shared.tree().root());
                default -> Run.relativeDir(shared.workingDir(), node);
            });
            case TerraformAttr ta -> ta.name().equals("workspace") ? Value.unknown(Type.STRING) : Value.FALSE;
            case CountAttr c -> counted ? Value.unknown(Type.NUMBER) : Value.DYNAMIC_UNKNOWN;
            case ForEachAttr f -> forEach && f.name().equals("key") ? Value.unknown(Type.STRING) : Value.DYNAMIC_UNKNOWN;
            case Self s -> Value.DYNAMIC_UNKNOWN;
        };
        return Result.of(new Resolved(v, consumed));
    }

    private Value variable(String name) {
        VariableConfig v = node.module().variables().get(name);
        return v == null || v.type() == null ? Value.DYNAMIC_UNKNOWN : Value.unknown(v.type().type());
    }

    private Value local(String name) {
        Map<String, Value> known = shared.locals().computeIfAbsent(node.path(), m -> new ConcurrentHashMap<>());
        Value v = known.get(name);
        if (v != null) {
            return v;
        }
        LocalConfig l = node.module().locals().get(name);
        if (l == null) {
            return Value.DYNAMIC_UNKNOWN;
        }
        // Cycles were refused before the walk, so this recursion ends. Errors in a local are static
        // validation's; a broken local is simply unknown here.
        Result<Value> r = new Evaluator(new ValidateScope(shared, node, false, false)).evaluate(l.expr());
        v = r.hasErrors() || r.value() == null ? Value.DYNAMIC_UNKNOWN : r.value();
        known.putIfAbsent(name, v);
        return v;
    }

    private Value resource(Resource r, boolean instance) {
        ResourceConfig rc = node.module().resources().get(r);
        if (rc == null || (rc.isInstanced() && !instance)) {
            return Value.DYNAMIC_UNKNOWN;
        }
        AbsProviderConfig cfg = GraphBuilder.providerOf(shared.tree(), node, rc);
        ProviderSchema ps = shared.providers().schema(cfg);
        Schema s = ps == null ? null : r.mode() == ResourceMode.DATA ? ps.dataSource(r.type()) : ps.resourceType(r.type());
        return s == null ? Value.DYNAMIC_UNKNOWN : Value.unknown(s.block().impliedType());
    }
}
