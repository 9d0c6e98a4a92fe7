package dev.strata.stacks.runtime;

import dev.strata.engine.PlanMode;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import dev.strata.stacks.config.DeploymentBlock;
import dev.strata.stacks.config.DeploymentConfig;
import dev.strata.stacks.config.DeploymentLoader;
import dev.strata.stacks.config.PublishOutputBlock;
import dev.strata.stacks.config.StackConfig;
import dev.strata.stacks.config.UpstreamInputBlock;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The Stacks runtime for one stack directory: its component configuration and its deployments. Each
 * deployment is opened on its own ({@link #open}), under its lock, and planned and applied on its own;
 * deployments share nothing at run time but the settings, so callers may run several at once.
 */
public final class StackRuntime {
    private final RuntimeSettings settings;
    private final StackConfig stack;
    private final DeploymentConfig deployments;
    private final FunctionTable functions;
    private final StackStorage storage;
    private final Interruption interruption = new Interruption();

    /** The runtime with its states in local files under the working directory. */
    public StackRuntime(RuntimeSettings settings, StackConfig stack, DeploymentConfig deployments) {
        this(settings, StackStorage.local(settings.workingDir(), settings.version()), stack, deployments);
    }

    /** The runtime with its states where {@code storage} keeps them. */
    public StackRuntime(
            RuntimeSettings settings, StackStorage storage, StackConfig stack, DeploymentConfig deployments) {
        this.storage = storage;
        this.settings = settings;
        this.stack = stack;
        this.deployments = deployments;
        this.functions = TemplateFunctions.builtins(FunctionContext.system(settings.workingDir()));
    }

    public StackConfig stack() {
        return stack;
    }

    public DeploymentConfig deployments() {
        return deployments;
    }

    public RuntimeSettings settings() {
        return settings;
    }

    /** The deployment's inputs, evaluated (locals, stores and upstream inputs resolved). */
    public Result<SortedMap<String, Value>> inputs(String deployment) {
        DeploymentBlock d = deployments.deployments().get(deployment);
        Result<Value> r = scope().eval(d.inputs());
        SortedMap<String, Value> out = new TreeMap<>();
        if (r.value() != null && r.value().isKnownAndNotNull()) {
            out.putAll(r.value().attributes());
        }
        return Result.of(out, r.diagnostics());
    }

    /** Whether the deployment says {@code destroy = true}: its plan destroys everything it has. */
    public Result<Boolean> destroyRequested(String deployment) {
        DeploymentBlock d = deployments.deployments().get(deployment);
        if (d.destroy() == null) {
            return Result.of(false);
        }
        Result<Value> r = scope().eval(d.destroy());
        boolean yes =
                r.value() != null && r.value().isKnownAndNotNull() && r.value().asBool();
        return Result.of(yes, r.diagnostics());
    }

    private DeploymentScope scope() {
        return new DeploymentScope(
                deployments, settings.workingDir(), settings.environment(), functions, this::upstream, null);
    }

    /**
     * An {@code upstream_input}: the outputs another Stack on this machine publishes, read from its
     * deployments' states ({@code source} is that Stack's directory).
     */
    private Result<Value> upstream(UpstreamInputBlock u) {
        Path other = settings.workingDir().resolve(u.source()).normalize();
        if (!Files.isDirectory(other)) {
            return Result.of(
                    Value.DYNAMIC_UNKNOWN,
                    Diagnostics.of(Diagnostic.error(
                            "Upstream stack not found",
                            "upstream_input \"" + u.name() + "\" reads the Stack in " + other
                                    + ", which is not a directory. Locally, source is the path of another Stack's directory.",
                            u.sourceRange())));
        }
        return published(other, settings);
    }

    /** The values a Stack's {@code publish_output} blocks give, from its deployments' current states. */
    public static Result<Value> published(Path stackDir, RuntimeSettings settings) {
        Result<DeploymentConfig> dc = DeploymentLoader.load(stackDir);
        if (dc.value() == null || dc.hasErrors()) {
            return Result.of(Value.DYNAMIC_UNKNOWN, dc.diagnostics());
        }
        DeploymentConfig config = dc.value();
        DeploymentScope scope = new DeploymentScope(
                config,
                stackDir,
                settings.environment(),
                TemplateFunctions.builtins(FunctionContext.system(stackDir)),
                u -> Result.of(
                        Value.DYNAMIC_UNKNOWN,
                        Diagnostics.of(Diagnostic.error(
                                "Upstream inputs are not followed transitively",
                                "A published output may not read upstream_input.",
                                u.declRange()))),
                name -> stackOutputs(stackDir, name, settings));
        SortedMap<String, Value> out = new TreeMap<>();
        Diagnostics.Builder diags = Diagnostics.builder();
        for (PublishOutputBlock p : config.publishOutputs().values()) {
            Result<Value> v = scope.eval(p.value());
            diags.addAll(v.diagnostics());
            out.put(p.name(), v.value() == null ? Value.DYNAMIC_UNKNOWN : v.value());
        }
        return Result.of(Value.object(out), diags.build());
    }

    /** A deployment's outputs as that Stack's own backend (its recorded choice) has them. */
    private static Value stackOutputs(Path stackDir, String deployment, RuntimeSettings settings) {
        Result<StackStorage> storage = StackStorage.open(stackDir, settings.environment(), settings.version());
        if (storage.value() == null) {
            return Value.DYNAMIC_UNKNOWN;
        }
        Result<StateManager> r = storage.value().deployment(deployment).openStack(LockRequest.none());
        if (r.value() == null) {
            return Value.DYNAMIC_UNKNOWN;
        }
        try (StateManager m = r.value()) {
            return DeploymentRun.outputsOf(m.state());
        }
    }

    /** Opens a deployment: its state under its lock, held until the session is closed. */
    public Result<DeploymentSession> open(String deployment, LockRequest lock) {
        DeploymentStore store = storage.deployment(deployment);
        Result<StateManager> st = store.openStack(lock);
        interruption.opened(st.value());
        if (st.value() == null) {
            return Result.of(null, st.diagnostics());
        }
        return Result.of(new DeploymentSession(this, deployment, store, st.value()), st.diagnostics());
    }

    /** Deployments that have state, sorted: those the configuration declares and those it no longer does. */
    public Result<List<String>> deploymentsWithState() {
        return storage.deploymentsWithState();
    }

    /**
     * The first interrupt: every deployment's run starts no new component instance, and the engines
     * working on one start no new operation; what is running finishes and is recorded.
     */
    public void stop() {
        interruption.stop();
    }

    /** Tells {@code listener} of every state the runtime opens (locks a second interrupt must release). */
    public void onStateOpened(java.util.function.Consumer<StateManager> listener) {
        interruption.onOpened(listener);
    }

    public StackStorage storage() {
        return storage;
    }

    DeploymentRun run(
            String deployment,
            DeploymentRun.Phase phase,
            PlanMode mode,
            DeploymentStore store,
            StackEvents events,
            Map<String, Value> inputs,
            DeploymentPlan reviewed,
            boolean fromFile) {
        return new DeploymentRun(
                deployment, phase, mode, settings, store, events, stack, inputs, reviewed, fromFile, interruption);
    }

    static StateSnapshot withOutputs(StateSnapshot s, SortedMap<String, Value> outputs) {
        Map<String, dev.strata.state.OutputValue> out = new TreeMap<>();
        outputs.forEach((n, v) -> {
            if (v.isWhollyKnown()) {
                out.put(n, OutputValues.of(v));
            }
        });
        return s.withOutputs(out);
    }
}
