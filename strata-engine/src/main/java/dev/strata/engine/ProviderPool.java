package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.ProviderSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The provider instances of one run, one per provider configuration, created on first use and
 * closed with the run. Schemas are fetched once per provider configuration.
 */
final class ProviderPool implements AutoCloseable {
    private final ProviderSource source;
    private final String engineVersion;
    private final Map<AbsProviderConfig, Result<Provider>> instances = new ConcurrentHashMap<>();
    private final Map<AbsProviderConfig, ProviderSchema> schemas = new ConcurrentHashMap<>();
    private final Map<AbsProviderConfig, Boolean> configured = new ConcurrentHashMap<>();

    private final java.nio.file.Path workingDir;
    private final Map<String, String> environment;
    private final Map<AbsProviderConfig, Value> supplied;
    private final Overrides interceptor;
    /** The provider-defined functions of this run: their own unconfigured instances, closed with the pool. */
    final ProviderFunctions functions;

    ProviderPool(
            ProviderSource source,
            String engineVersion,
            java.nio.file.Path workingDir,
            Map<String, String> environment,
            Map<AbsProviderConfig, Value> supplied,
            Overrides interceptor) {
        this.interceptor = interceptor;
        this.source = source;
        this.supplied = supplied;
        this.engineVersion = engineVersion;
        this.workingDir = workingDir;
        this.environment = environment;
        this.functions = new ProviderFunctions(source);
    }

    /**
     * The configuration the engine's caller supplied for a provider configuration without a
     * {@code provider} block (a Stack passes each component its providers), or null.
     */
    Value supplied(AbsProviderConfig cfg) {
        return supplied.get(cfg);
    }

    /** The {@code required_providers} entry of the module a provider configuration belongs to, or null. */
    static dev.strata.config.RequiredProvider requirement(dev.strata.config.ConfigTree tree, AbsProviderConfig cfg) {
        dev.strata.config.ConfigNode n = tree.node(cfg.module()).orElse(tree.root());
        return n.module().requiredProviders().values().stream()
                .filter(r -> r.source().equals(cfg.provider()))
                .findFirst()
                .orElse(null);
    }

    /** The version constraints a requirement states (any version when it states none or they do not parse). */
    static VersionConstraint constraints(dev.strata.config.RequiredProvider rp) {
        if (rp == null || rp.version() == null) {
            return VersionConstraint.ANY;
        }
        Result<VersionConstraint> parsed = VersionConstraint.parse(rp.version().source());
        return parsed.value() != null ? parsed.value() : VersionConstraint.ANY;
    }

    /**
     * The provider for a configuration of {@code tree}, with the version constraints its module's
     * {@code required_providers} states; when it cannot be had, the problems are placed at that
     * requirement (null value).
     */
    Result<Provider> get(dev.strata.config.ConfigTree tree, AbsProviderConfig cfg) {
        dev.strata.config.RequiredProvider rp = requirement(tree, cfg);
        Result<Provider> r = get(cfg, constraints(rp));
        if (r.value() != null) {
            return r;
        }
        Diagnostics.Builder placed = Diagnostics.builder();
        for (Diagnostic d : r.diagnostics()) {
            placed.add(new Diagnostic(d.severity(), d.summary(), d.detail(), rp != null ? rp.declRange() : null, null));
        }
        return Result.of(null, placed.build());
    }

    /** The (unconfigured until {@link #configure}) provider for a configuration; null with errors if unavailable. */
    Result<Provider> get(AbsProviderConfig cfg, VersionConstraint constraints) {
        return instances.computeIfAbsent(cfg, c -> {
            Result<ProviderFactory> f = source.resolve(c.provider(), constraints);
            if (f.value() == null) {
                return Result.of(null, f.diagnostics());
            }
            Provider p = interceptor.forConfiguration(c, f.value().create());
            // Only operations that will configure the provider come here: let it start meanwhile.
            p.prepare();
            schemas.put(c, p.schema());
            return Result.of(p, f.diagnostics());
        });
    }

    /** The provider that works on {@code instance}: its configuration's, unless the interceptor stands in. */
    Provider forInstance(dev.strata.addr.AbsResourceInstance instance, Provider provider) {
        return interceptor.forInstance(instance, provider);
    }

    /** The outputs of a child module instance the interceptor gives in place of running it, if it does. */
    java.util.Optional<Map<String, Value>> moduleOutputs(dev.strata.addr.ModuleInstance instance) {
        return interceptor.moduleOutputs(instance);
    }

    /** The provider block the interceptor gives for {@code cfg} instead of the configuration's, if it does. */
    java.util.Optional<Overrides.ProviderBlock> providerBlock(AbsProviderConfig cfg) {
        return interceptor.providerBlock(cfg);
    }

    /** Whether {@code rc}'s {@code lifecycle.prevent_destroy} applies in this run (the interceptor may lift it). */
    boolean preventsDestroy(dev.strata.config.ResourceConfig rc) {
        return rc.lifecycle().preventDestroy() && interceptor.preventDestroy();
    }

    /** Whether the root module may declare ephemeral outputs in this run (under {@code strata test} only). */
    boolean ephemeralRootOutputs() {
        return interceptor.ephemeralRootOutputs();
    }

    Provider configured(AbsProviderConfig cfg) {
        Result<Provider> r = instances.get(cfg);
        return r == null ? null : r.value();
    }

    ProviderSchema schema(AbsProviderConfig cfg) {
        return schemas.get(cfg);
    }

    Diagnostics configure(AbsProviderConfig cfg, Value config) {
        Provider p = configured(cfg);
        if (p == null) {
            return Diagnostics.of(Diagnostic.error(
                    "Provider not available", "The provider configuration " + cfg + " could not be started.", null));
        }
        Diagnostics d = p.validateProviderConfig(config).toDiagnostics();
        if (d.hasErrors()) {
            return d;
        }
        d = d.with(p.configure(new Provider.ConfigureRequest(config, engineVersion, workingDir, environment))
                .toDiagnostics());
        if (!d.hasErrors()) {
            configured.put(cfg, true);
        }
        return d;
    }

    boolean isConfigured(AbsProviderConfig cfg) {
        return configured.containsKey(cfg);
    }

    /** Asks every running provider to stop its operations (first Ctrl-C). */
    void stopAll() {
        instances.values().forEach(r -> {
            if (r.value() != null) {
                r.value().stop();
            }
        });
    }

    @Override
    public void close() {
        functions.close();
        instances.values().forEach(r -> {
            if (r.value() != null) {
                try {
                    r.value().close();
                } catch (RuntimeException ignored) {
                    // Closing is best effort; the run's result is already decided.
                }
            }
        });
    }
}
