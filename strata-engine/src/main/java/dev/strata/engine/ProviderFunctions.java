package dev.strata.engine;

import dev.strata.addr.VersionConstraint;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.ModuleConfig;
import dev.strata.config.RequiredProvider;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.provider.LanguageFunctions;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderFunction;
import dev.strata.provider.ProviderSource;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Provider-defined functions ({@code provider::NAME::FUNC(...)}) for the expressions of a
 * configuration. Each module gets its own function table, because NAME is a local name of that
 * module's {@code required_providers} (a provider only implied by a resource's type name offers no
 * functions there, as in Terraform).
 *
 * <p>Nothing is started up front: a table resolves a provider function the first time an
 * expression calls it, so only the providers whose functions the configuration actually uses are
 * started. Functions run on one unconfigured instance per provider (as Terraform calls them), shared
 * by every module and closed by {@link #close()}.
 *
 * <p>Plan, apply and import get their tables through the run's provider pool; commands that
 * evaluate outside a run ({@code console}, {@code validate}) create one of these, use
 * {@link #tables(ConfigTree)} (or {@link #table}) and close it when done.
 */
public final class ProviderFunctions implements AutoCloseable {
    private final ProviderSource source;
    private final Map<dev.strata.addr.Provider, Result<Provider>> instances = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public ProviderFunctions(ProviderSource source) {
        this.source = source;
    }

    /** {@code base} (the built-in functions) with the provider functions of {@code module}. */
    public FunctionTable table(ModuleConfig module, FunctionTable base) {
        return base.withResolver(name -> resolve(module, name));
    }

    /**
     * For each module of {@code tree}, the built-in functions with that module's provider functions;
     * for {@code dev.strata.config.Validator#validate(ConfigTree, java.util.function.Function)}, which
     * checks each module once. File functions read relative to the root module's directory, as in
     * Terraform (where the working directory is the root module's).
     */
    public java.util.function.Function<ModuleConfig, FunctionTable> tables(ConfigTree tree) {
        // Validating is not applying: timestamp(), uuid() and bcrypt() are unknown, as in terraform validate.
        FunctionTable builtins = TemplateFunctions.planning(
                FunctionContext.system(tree.root().module().dir()));
        Map<Path, FunctionTable> byDir = new ConcurrentHashMap<>();
        for (ConfigNode n : tree.nodes()) {
            byDir.computeIfAbsent(n.module().dir(), d -> table(n.module(), builtins));
        }
        return m -> byDir.computeIfAbsent(m.dir(), d -> table(m, builtins));
    }

    /** The function {@code name} as {@code module} sees it, or Terraform's wording for why there is none. */
    FunctionTable.Lookup resolve(ModuleConfig module, String name) {
        String[] parts = name.split("::", -1);
        RequiredProvider rp = parts.length == 3 ? module.requiredProviders().get(parts[1]) : null;
        if (rp == null) {
            return FunctionTable.undeclared(name);
        }
        Result<Provider> p = instance(rp);
        if (p.value() == null) {
            Diagnostic d = p.diagnostics().asList().isEmpty()
                    ? null
                    : p.diagnostics().asList().get(0);
            return new FunctionTable.Lookup.Missing(
                    d == null ? "Provider not available" : d.summary(),
                    d == null ? "The provider " + rp.source() + " could not be started." : d.detail());
        }
        ProviderFunction f = p.value().functions().get(parts[2]);
        if (f == null) {
            return new FunctionTable.Lookup.Missing(
                    "Unknown provider function",
                    "The function \"" + parts[2] + "\" is not available from the provider \"" + parts[1] + "\".");
        }
        return new FunctionTable.Lookup.Found(LanguageFunctions.of(name, f, p.value()));
    }

    private Result<Provider> instance(RequiredProvider rp) {
        if (closed) {
            return Result.of(
                    null,
                    dev.strata.hcl.Diagnostics.of(Diagnostic.error(
                            "Provider not available",
                            "The provider " + rp.source() + " is no longer running for this operation.",
                            null)));
        }
        return instances.computeIfAbsent(rp.source(), a -> {
            VersionConstraint vc = VersionConstraint.ANY;
            if (rp.version() != null) {
                Result<VersionConstraint> parsed =
                        VersionConstraint.parse(rp.version().source());
                if (parsed.value() != null) {
                    vc = parsed.value();
                }
            }
            Result<ProviderFactory> f = source.resolve(a, vc);
            if (f.value() == null) {
                return Result.of(null, f.diagnostics());
            }
            return Result.of(f.value().create(), f.diagnostics());
        });
    }

    @Override
    public void close() {
        closed = true;
        instances.values().forEach(r -> {
            if (r.value() != null) {
                try {
                    r.value().close();
                } catch (RuntimeException ignored) {
                    // Closing is best effort; the operation's result is already decided.
                }
            }
        });
    }
}
