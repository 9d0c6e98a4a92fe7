package dev.strata.engine;

import dev.strata.config.ConfigTree;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.provider.ProviderSource;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * What every operation of one {@link Engine} is built from, and the one place that puts a walk
 * together: the run's provider pool, the provider calls and the walk with its instance operations.
 *
 * @param config        the configuration every operation works on
 * @param providers     where provider instances come from
 * @param engineVersion the version providers are told (ConfigureRequest)
 * @param environment   the environment provider processes see
 * @param clock         dates plans ({@code plantimestamp()})
 * @param stop          true once the engine was asked to stop (first interrupt)
 * @param suppliedProviders configurations for provider configurations that have no {@code provider} block
 * @param interceptor   who stands in for providers (mocks and overrides of {@code strata test})
 */
record Wiring(
        ConfigTree config,
        ProviderSource providers,
        String engineVersion,
        Map<String, String> environment,
        Clock clock,
        BooleanSupplier stop,
        Map<dev.strata.addr.AbsProviderConfig, dev.strata.lang.value.Value> suppliedProviders,
        Overrides interceptor) {

    /** The providers of one run in {@code workingDir}; the caller closes them. */
    ProviderPool pool(Path workingDir) {
        return new ProviderPool(providers, engineVersion, workingDir, environment, suppliedProviders, interceptor);
    }

    /** The dependency graph of the configuration (cycles not yet checked). */
    DependencyGraph<Node> graph() {
        return GraphBuilder.build(config);
    }

    /**
     * A walk over {@code run} of {@code roots} and what they depend on (null: the targets, or the
     * whole graph); provider calls stop being started once {@code stopCalls} says so.
     */
    Walk walk(
            Run run,
            DependencyGraph<Node> graph,
            EngineEvents events,
            InstanceOps.Inputs inputs,
            Set<Node> roots,
            BooleanSupplier stopCalls) {
        ProviderCalls calls =
                new ProviderCalls(run.options.parallelism(), ProviderCalls.Settings.DEFAULT, events, stopCalls);
        return new Walk(run, graph, events, calls, inputs, roots);
    }
}
