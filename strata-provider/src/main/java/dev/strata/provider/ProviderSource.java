package dev.strata.provider;

import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Result;

/**
 * Where the engine gets providers from: the built-in {@link ProviderRegistry}, providers installed
 * from a mirror (strata-tfplugin), or a chain of those. The engine knows only this interface.
 */
public interface ProviderSource {

    /**
     * The provider for {@code address} whose version satisfies {@code constraints}; when there is none,
     * a null value with an error that names the provider and says what is available.
     */
    Result<ProviderFactory> resolve(dev.strata.addr.Provider address, VersionConstraint constraints);

    /**
     * Tries {@code first}, then {@code second} when {@code first} has no provider of that address. A
     * built-in registry that has the address answers alone (a version mismatch stays its error); when
     * neither has the provider, {@code second}'s error is the one shown (it says how to install it).
     */
    static ProviderSource chain(ProviderSource first, ProviderSource second) {
        return (address, constraints) -> {
            Result<ProviderFactory> r = first.resolve(address, constraints);
            if (r.value() != null || (first instanceof ProviderRegistry reg && reg.has(address))) {
                return r;
            }
            return second.resolve(address, constraints);
        };
    }
}
