package dev.strata.config;

import dev.strata.addr.LocalProviderConfig;
import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.SourceRange;
import java.util.List;

/** An entry of {@code required_providers}: local name, source address, version constraint (or null). */
public record RequiredProvider(
        String name,
        Provider source,
        VersionConstraint version,
        List<LocalProviderConfig> configurationAliases,
        SourceRange declRange) {
    public RequiredProvider {
        configurationAliases = List.copyOf(configurationAliases);
    }
}
