package dev.strata.provider;

import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ServiceLoader;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The providers this build of Strata can run, by source address. Built from the
 * {@link ProviderFactory} services on the class path; two implementations of one address are a
 * packaging mistake and rejected.
 */
public final class ProviderRegistry implements ProviderSource {

    private final SortedMap<dev.strata.addr.Provider, ProviderFactory> factories;

    private ProviderRegistry(SortedMap<dev.strata.addr.Provider, ProviderFactory> factories) {
        this.factories = Collections.unmodifiableSortedMap(factories);
    }

    /** The providers registered with {@link ServiceLoader} on the given class loader. */
    public static ProviderRegistry load(ClassLoader loader) {
        List<ProviderFactory> found = new ArrayList<>();
        ServiceLoader.load(ProviderFactory.class, loader).forEach(found::add);
        return of(found);
    }

    public static ProviderRegistry load() {
        return load(Thread.currentThread().getContextClassLoader());
    }

    public static ProviderRegistry of(List<ProviderFactory> factories) {
        SortedMap<dev.strata.addr.Provider, ProviderFactory> m = new TreeMap<>();
        for (ProviderFactory f : factories) {
            ProviderFactory old = m.put(f.address(), f);
            if (old != null) {
                throw new IllegalStateException("two implementations of provider " + f.address() + ": "
                        + old.getClass().getName() + " and " + f.getClass().getName());
            }
        }
        return new ProviderRegistry(m);
    }

    /** Every available provider, ordered by address. */
    public List<ProviderFactory> available() {
        return List.copyOf(factories.values());
    }

    /**
     * The provider for {@code address} whose version satisfies {@code constraints}. When there is
     * none, the result is null with an error that names the provider and lists what is available.
     */
    /** Whether some version of the provider at {@code address} is built in. */
    public boolean has(dev.strata.addr.Provider address) {
        return factories.containsKey(address);
    }

    @Override
    public Result<ProviderFactory> resolve(dev.strata.addr.Provider address, VersionConstraint constraints) {
        ProviderFactory f = factories.get(address);
        if (f == null) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Provider not available",
                            "Strata has no provider \"" + address + "\" (" + address.forDisplay() + "). "
                                    + "The available providers are: " + availableList() + ".",
                            null)));
        }
        if (!constraints.selects(f.version())) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Unsatisfiable provider version constraint",
                            "The configuration requires " + address.forDisplay() + " version \"" + constraints
                                    + "\", but Strata provides version " + f.version() + " of it. Relax the constraint"
                                    + " in required_providers to allow " + f.version() + ".",
                            null)));
        }
        return Result.of(f);
    }

    private String availableList() {
        if (factories.isEmpty()) {
            return "none";
        }
        return factories.values().stream()
                .map(f -> f.address().forDisplay() + " " + f.version())
                .collect(Collectors.joining(", "));
    }
}
