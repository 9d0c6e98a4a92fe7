package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.config.ConfigTree;
import dev.strata.config.Validator;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderSource;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The engine's one entry point, for the CLI and later Stacks and the SDK: created once for a
 * configuration and where its providers come from, it validates, plans, applies (a fresh or a saved
 * plan), imports and draws the graph. Every operation is built complete from this engine's
 * collaborators, so the wiring of a walk exists once ({@link Wiring}).
 *
 * <pre>{@code
 * Engine engine = Engine.builder(tree, providers, "1.0.0").environment(env).build();
 * Result<Plan> plan = engine.plan(variables, state.state(), options, events);
 * Result<ApplyResult> applied = engine.apply(plan.value(), state, options, events);
 * }</pre>
 *
 * {@link #stop()} is the first interrupt: running plans and applies start nothing new.
 */
public final class Engine {
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private final Wiring wiring;

    private Engine(Builder b) {
        this.wiring = new Wiring(
                b.config,
                b.providers,
                b.engineVersion,
                b.environment,
                b.clock,
                stopRequested::get,
                b.suppliedProviders,
                b.interceptor);
    }

    /** An engine for {@code config}, whose providers come from {@code providers}, reporting {@code engineVersion}. */
    public static Builder builder(ConfigTree config, ProviderSource providers, String engineVersion) {
        return new Builder(config, providers, engineVersion);
    }

    /** The optional collaborators of an {@link Engine}; each has the default its setter names. */
    public static final class Builder {
        private final ConfigTree config;
        private final ProviderSource providers;
        private final String engineVersion;
        private Map<String, String> environment = System.getenv();
        private Clock clock = Clock.systemUTC();
        private Map<AbsProviderConfig, Value> suppliedProviders = Map.of();
        private Overrides interceptor = Overrides.NONE;

        private Builder(ConfigTree config, ProviderSource providers, String engineVersion) {
            this.config = Objects.requireNonNull(config, "config");
            this.providers = Objects.requireNonNull(providers, "providers");
            this.engineVersion = Objects.requireNonNull(engineVersion, "engineVersion");
        }

        /** The environment providers see (PGHOST, AWS_*, ...); the process's own by default. */
        public Builder environment(Map<String, String> env) {
            this.environment = Map.copyOf(env);
            return this;
        }

        /** The clock that dates plans ({@code plantimestamp()}); the system's by default. */
        public Builder clock(Clock c) {
            this.clock = Objects.requireNonNull(c, "clock");
            return this;
        }

        /**
         * Configurations for the root module's provider configurations that have no {@code provider}
         * block: a Stack configures providers itself and passes them into each component. Each value is
         * an object conforming to the provider's configuration schema.
         */
        public Builder providerConfigs(Map<AbsProviderConfig, Value> configs) {
            this.suppliedProviders = Map.copyOf(configs);
            return this;
        }

        /** Who may stand in for providers ({@code strata test}'s mocks and overrides); nobody by default. */
        public Builder interceptor(Overrides i) {
            this.interceptor = Objects.requireNonNull(i, "interceptor");
            return this;
        }

        public Engine build() {
            return new Engine(this);
        }
    }

    /**
     * The static checks of the configuration (references, types of constants, count and for_each rules,
     * module arguments) with each module's functions: the built-in ones and the provider-defined ones
     * ({@code provider::NAME::FUNC}) of its {@code required_providers}. Only providers whose functions
     * the configuration calls are started, and they are shut down before this returns.
     */
    public Diagnostics checkConfig() {
        try (ProviderFunctions functions = new ProviderFunctions(wiring.providers())) {
            return Validator.validate(wiring.config(), functions.tables(wiring.config()));
        }
    }

    /**
     * The checks of {@code validate} that need providers (schemas and the providers' own validation),
     * for a configuration whose static checks already ran; returns only this walk's diagnostics.
     */
    public Diagnostics validate(Path workingDir) {
        return new SchemaValidation(wiring).validate(workingDir);
    }

    /** Refreshes, evaluates and plans against {@code state}; null with the errors when it cannot. */
    public Result<Plan> plan(
            SortedMap<String, Value> variables, StateSnapshot state, PlanOptions options, EngineEvents events) {
        return new Planner(wiring).plan(variables, state, options, events);
    }

    /**
     * For {@code plan -generate-config-out}: imports the objects of the {@code import} blocks whose target
     * has no configuration and returns the configuration to write for them (null when there is none),
     * or the errors. The caller writes it and plans again with it.
     */
    public Result<String> generateConfig(
            SortedMap<String, Value> variables, StateSnapshot state, PlanOptions options, EngineEvents events) {
        return new Planner(wiring).generateConfig(variables, state, options, events);
    }

    /** Applies a plan made now or read from a file, recording every change in {@code state}. */
    public Result<ApplyResult> apply(Plan plan, StateManager state, PlanOptions options, EngineEvents events) {
        return new Applier(wiring).apply(plan, state, options, events);
    }

    /**
     * Imports the remote object {@code id} into {@code state} at {@code addr}, which the configuration
     * must declare. An interrupt does not stop it: it is one operation.
     */
    public Diagnostics importResource(
            SortedMap<String, Value> variables,
            StateManager state,
            PlanOptions options,
            AbsResourceInstance addr,
            String id,
            EngineEvents events) {
        return new Importer(wiring).importResource(variables, state, options, addr, id, events);
    }

    /** The dependency graph in DOT; with the cycle errors, and no graph unless {@code drawCycles}. */
    public Result<String> graph(boolean drawCycles) {
        return Planner.dot(wiring.config(), drawCycles);
    }

    /**
     * Terraform's default graph ({@code terraform graph} without {@code -type}): the resources only, each to the
     * nearest ones it depends on, grouped by module; {@code tool} is the command named in the hint an empty
     * configuration gets.
     */
    public Result<String> resourceGraph(String tool) {
        return Planner.resourceDot(wiring.config(), tool);
    }

    /** The first interrupt: plans and applies in progress start nothing new and report it. */
    public void stop() {
        stopRequested.set(true);
    }
}
