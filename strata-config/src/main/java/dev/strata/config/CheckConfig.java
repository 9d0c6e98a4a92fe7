package dev.strata.config;

import dev.strata.hcl.SourceRange;
import java.util.List;

/** A {@code check} block: assertions and an optional scoped data source (null when absent). */
public record CheckConfig(String name, List<CheckRule> asserts, ResourceConfig data, SourceRange declRange) {
    public CheckConfig {
        asserts = List.copyOf(asserts);
    }
}
