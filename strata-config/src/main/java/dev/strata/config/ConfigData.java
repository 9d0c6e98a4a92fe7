package dev.strata.config;

import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceMode;
import dev.strata.addr.TerraformAttr;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.DidYouMean;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the references of one module mean from its configuration alone (the inspect phase without
 * state, as {@code strata console} uses it): {@code var.*} from the given values, {@code local.*}
 * evaluated lazily on first use with cycle detection that names the whole cycle, {@code path.*} and
 * {@code terraform.workspace}. Resources, data sources and module outputs have no recorded values
 * yet, so they are unknown.
 */
public final class ConfigData implements ScopeData {
    private final ConfigNode node;
    private final Map<String, Value> variables;
    private final FunctionTable functions;
    private final Path cwd;
    private final String workspace;
    private final RecordedResources recorded;
    /** Where local values are evaluated (and cached): the configuration without recorded resources. */
    private final ConfigData configOnly;

    private final Map<String, Value> locals = new HashMap<>();
    /** Locals being evaluated, each with the range of the reference that asked for it. */
    private final List<Step> evaluating = new ArrayList<>();

    private record Step(String name, SourceRange referencedAt) {}

    public ConfigData(
            ConfigNode node, Map<String, Value> variables, FunctionTable functions, Path cwd, String workspace) {
        this(node, variables, functions, cwd, workspace, RecordedResources.NONE, null);
    }

    private ConfigData(
            ConfigNode node,
            Map<String, Value> variables,
            FunctionTable functions,
            Path cwd,
            String workspace,
            RecordedResources recorded,
            ConfigData configOnly) {
        this.node = node;
        this.variables = Map.copyOf(variables);
        this.functions = functions;
        this.cwd = cwd;
        this.workspace = workspace;
        this.recorded = recorded;
        this.configOnly = configOnly == null ? this : configOnly;
    }

    /**
     * This configuration with its resources as {@code recorded} (the inspect phase with a state); a
     * local value is still evaluated from the configuration alone, so one that refers to a resource
     * stays unknown.
     */
    public ConfigData withRecorded(RecordedResources recorded) {
        return new ConfigData(node, variables, functions, cwd, workspace, recorded, configOnly);
    }

    /** The scope these references resolve in. */
    public Scope scope() {
        return new ReferenceScope(this);
    }

    @Override
    public FunctionTable functions() {
        return functions;
    }

    @Override
    public Result<Value> inputVariable(InputVariable v, Reference ref) {
        Value x = variables.get(v.name());
        if (x == null || !node.module().variables().containsKey(v.name())) {
            String didYouMean =
                    DidYouMean.sentence(v.name(), node.module().variables().keySet());
            return fail(
                    "Reference to undeclared input variable",
                    "An input variable with the name \""
                            + v.name() + "\" has not been declared."
                            + (didYouMean.isEmpty()
                                    ? " This variable can be declared with a variable \"" + v.name() + "\" {} block."
                                    : didYouMean),
                    ref.range());
        }
        return Result.of(x);
    }

    @Override
    public Result<Value> pathAttr(PathAttr p, Reference ref) {
        return Result.of(Value.string(
                switch (p.name()) {
                    case "cwd" -> cwd.toString();
                    case "root" -> ".";
                    default -> display(node.module().dir());
                }));
    }

    @Override
    public Result<Value> terraformAttr(TerraformAttr ta, Reference ref) {
        return Result.of(ta.name().equals("workspace") ? Value.string(workspace) : Value.FALSE);
    }

    @Override
    public Result<Value> countIndex(Reference ref) {
        return fail(
                "Reference to \"count\" in non-counted context",
                "The \"count\" object can only be used in "
                        + "\"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.",
                ref.range());
    }

    @Override
    public Result<Value> forEachAttr(ForEachAttr f, Reference ref) {
        return fail(
                "Reference to \"each\" in context without for_each",
                "The \"each\" object can be used only in "
                        + "\"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.",
                ref.range());
    }

    @Override
    public Result<Value> self(Reference ref) {
        return fail(
                "Invalid \"self\" reference",
                "The \"self\" object is not available in this context. This "
                        + "object can be used only in resource provisioner, connection, and postcondition blocks.",
                ref.range());
    }

    private String display(Path dir) {
        String s = cwd.relativize(dir).toString().replace('\\', '/');
        return s.isEmpty() ? "." : s;
    }

    @Override
    public Result<Value> localValue(LocalValue local, Reference ref) {
        if (configOnly != this) {
            return configOnly.localValue(local, ref);
        }
        String name = local.name();
        SourceRange at = ref.range();
        LocalConfig lc = node.module().locals().get(name);
        if (lc == null) {
            return fail(
                    "Reference to undeclared local value",
                    "A local value with the name \"" + name + "\" has not been declared."
                            + DidYouMean.sentence(name, node.module().locals().keySet()),
                    at);
        }
        Value cached = locals.get(name);
        if (cached != null) {
            return Result.of(cached);
        }
        for (int i = 0; i < evaluating.size(); i++) {
            if (evaluating.get(i).name().equals(name)) {
                return fail("Cycle in local values", cycle(i, name, at), at);
            }
        }
        evaluating.add(new Step(name, at));
        Result<Value> v;
        try {
            v = new Evaluator(scope()).evaluate(lc.expr());
        } finally {
            evaluating.removeLast();
        }
        if (!v.hasErrors()) {
            locals.put(name, v.value());
        }
        return v;
    }

    /** "local.a refers to local.b at main.tf:2,7-14, which refers to local.a at main.tf:3,7-14." */
    private String cycle(int from, String again, SourceRange at) {
        StringBuilder sb = new StringBuilder("These local values refer to each other, so none can be evaluated: ");
        for (int i = from; i < evaluating.size(); i++) {
            String next = i + 1 < evaluating.size() ? evaluating.get(i + 1).name() : again;
            SourceRange where =
                    i + 1 < evaluating.size() ? evaluating.get(i + 1).referencedAt() : at;
            sb.append(i == from ? "" : ", which ")
                    .append(i == from ? "local." + evaluating.get(i).name() + " " : "")
                    .append("refers to local.")
                    .append(next)
                    .append(" at ")
                    .append(where);
        }
        return sb.append(". Break the cycle by computing one of them without the others.")
                .toString();
    }

    @Override
    public Result<Value> resource(Resource r, InstanceKey key, Reference ref) {
        Optional<Value> v = recorded.value(r, key);
        if (v.isPresent()) {
            return Result.of(v.get());
        }
        if (!node.module().resources().containsKey(r)) {
            return fail(
                    "Reference to undeclared resource",
                    "A " + (r.mode() == ResourceMode.MANAGED ? "managed" : "data") + " resource \"" + r.type() + "\" \""
                            + r.name() + "\" has not been "
                            + "declared in "
                            + (node.isRoot() ? "the root module" : node.path().toString()) + ".",
                    ref.range());
        }
        return Result.of(Value.unknown(Type.DYNAMIC));
    }

    @Override
    public Result<Value> moduleCall(ModuleCall call, InstanceKey key, String output, Reference ref) {
        String name = call.name();
        if (!node.module().moduleCalls().containsKey(name)) {
            return fail(
                    "Reference to undeclared module",
                    "No module call named \"" + name + "\" is "
                            + "declared in "
                            + (node.isRoot() ? "the root module" : node.path().toString()) + "."
                            + DidYouMean.sentence(
                                    name, node.module().moduleCalls().keySet()),
                    ref.range());
        }
        return Result.of(Value.unknown(Type.DYNAMIC));
    }

    private static Result<Value> fail(String summary, String detail, SourceRange range) {
        return Result.of(Value.DYNAMIC_UNKNOWN, Diagnostics.of(Diagnostic.error(summary, detail, range)));
    }
}
