package dev.strata.stacks.runtime;

import dev.strata.engine.StateValues;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.stacks.config.DeploymentConfig;
import dev.strata.stacks.config.StackLocal;
import dev.strata.stacks.config.StoreBlock;
import dev.strata.stacks.config.UpstreamInputBlock;
import dev.strata.state.JsonValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What references mean in a deployment configuration: {@code local.*} (the file's locals),
 * {@code store.TYPE.NAME.KEY} (environment variables or a JSON file, always sensitive) and
 * {@code upstream_input.NAME.OUTPUT} (another local Stack's published outputs). Publishing Stacks
 * also see {@code deployment.NAME.OUTPUT} through {@link #withDeploymentOutputs}.
 */
final class DeploymentScope implements Scope {
    private final DeploymentConfig config;
    private final Path dir;
    private final Map<String, String> env;
    private final FunctionTable functions;
    private final Function<UpstreamInputBlock, Result<Value>> upstream;
    private final Function<String, Value> deploymentOutputs;
    private final Map<String, Value> locals = new ConcurrentHashMap<>();

    DeploymentScope(
            DeploymentConfig config,
            Path dir,
            Map<String, String> env,
            FunctionTable functions,
            Function<UpstreamInputBlock, Result<Value>> upstream,
            Function<String, Value> deploymentOutputs) {
        this.config = config;
        this.dir = dir;
        this.env = env;
        this.functions = functions;
        this.upstream = upstream;
        this.deploymentOutputs = deploymentOutputs;
    }

    Result<Value> eval(dev.strata.hcl.Expression e) {
        return e == null ? Result.of(Value.NULL) : new Evaluator(this).evaluate(e);
    }

    @Override
    public Result<Resolved> resolve(Traversal t) {
        String first = t.attrName(1);
        String second = t.attrName(2);
        String root = t.rootName() == null ? "" : t.rootName();
        if (first == null) {
            return error(t, "Invalid reference", "A reference to " + root + " must name what it refers to.");
        }
        switch (root) {
            case "local" -> {
                StackLocal l = config.locals().get(first);
                if (l == null) {
                    return error(
                            t,
                            "Reference to undeclared local value",
                            "There is no local value named \"" + first + "\".");
                }
                Value v = locals.get(first);
                if (v == null) {
                    Result<Value> r = eval(l.expr());
                    if (r.hasErrors()) {
                        return Result.of(new Resolved(Value.DYNAMIC_UNKNOWN, 2), r.diagnostics());
                    }
                    v = r.value();
                    locals.put(first, v);
                }
                return Result.of(new Resolved(v, 2));
            }
            case "store" -> {
                String key = t.attrName(3);
                StoreBlock s = second == null ? null : config.stores().get(first + "." + second);
                if (s == null) {
                    s = second == null
                            ? null
                            : config.stores().values().stream()
                                    .filter(b ->
                                            b.type().equals(first) && b.name().equals(second))
                                    .findFirst()
                                    .orElse(null);
                }
                if (s == null || key == null) {
                    return error(
                            t,
                            "Reference to undeclared store",
                            "There is no store \"" + first + "\" \"" + second
                                    + "\" here; a store value is read as store.TYPE.NAME.KEY.");
                }
                return store(t, s, key);
            }
            case "upstream_input" -> {
                UpstreamInputBlock u = config.upstreamInputs().get(first);
                if (u == null) {
                    return error(
                            t,
                            "Reference to undeclared upstream input",
                            "There is no upstream_input \"" + first + "\".");
                }
                Result<Value> v = upstream.apply(u);
                return Result.of(new Resolved(v.value(), 2), v.diagnostics());
            }
            case "deployment" -> {
                if (deploymentOutputs == null || !config.deployments().containsKey(first)) {
                    return error(
                            t, "Reference to undeclared deployment", "There is no deployment \"" + first + "\" here.");
                }
                return Result.of(new Resolved(deploymentOutputs.apply(first), 2));
            }
            default -> {
                return error(
                        t,
                        "Reference to undeclared name",
                        "There is nothing named \"" + root
                                + "\" in a deployment configuration: references start with local, store or upstream_input.");
            }
        }
    }

    private Result<Resolved> store(Traversal t, StoreBlock s, String key) {
        switch (s.kind()) {
            case ENV -> {
                String prefix = "";
                if (s.arguments().containsKey("prefix")) {
                    Result<Value> p = eval(s.arguments().get("prefix").expr());
                    if (p.value() != null && p.value().isKnownAndNotNull()) {
                        prefix = p.value().asString();
                    }
                }
                String v = env.get(prefix + key);
                if (v == null) {
                    return error(
                            t,
                            "Missing store value",
                            "The environment variable " + prefix + key + " that store." + s.type() + "." + s.name()
                                    + "." + key + " reads is not set.");
                }
                return Result.of(new Resolved(Value.string(v).mark(Mark.SENSITIVE), 4));
            }
            case FILE -> {
                Result<Value> p = eval(s.arguments().get("path").expr());
                if (p.hasErrors() || !p.value().isKnownAndNotNull()) {
                    return Result.of(new Resolved(Value.DYNAMIC_UNKNOWN, 4), p.diagnostics());
                }
                Path file = dir.resolve(p.value().asString());
                String text;
                try {
                    text = Files.readString(file, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    return error(
                            t, "Failed to read store file", "Could not read " + file + ": " + e.getMessage() + ".");
                }
                Result<JsonValue> json = JsonValue.parse(text, file.toString());
                if (json.value() == null || json.hasErrors() || !(json.value() instanceof JsonValue.ObjectValue o)) {
                    return error(t, "Invalid store file", file + " must hold a JSON object.");
                }
                JsonValue member = o.members().get(key);
                if (member == null) {
                    return error(t, "Missing store value", file + " has no member \"" + key + "\".");
                }
                return Result.of(new Resolved(StateValues.infer(member).mark(Mark.SENSITIVE), 4));
            }
            case HCP_ONLY -> {
                return error(
                        t,
                        "Store not available outside HCP Terraform",
                        "store \"" + s.type() + "\" is read only "
                                + "by HCP Terraform. Use an \"env\" or \"file\" store to run this Stack locally.");
            }
        }
        throw new IllegalStateException();
    }

    private static Result<Resolved> error(Traversal t, String summary, String detail) {
        return Result.of(
                new Resolved(Value.DYNAMIC_UNKNOWN, 1), Diagnostics.of(Diagnostic.error(summary, detail, t.range())));
    }

    @Override
    public FunctionTable functions() {
        return functions;
    }
}
