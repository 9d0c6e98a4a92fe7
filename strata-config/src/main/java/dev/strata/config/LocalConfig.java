package dev.strata.config;

import dev.strata.addr.LocalValue;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/** One named value of a {@code locals} block. */
public record LocalConfig(String name, Expression expr, SourceRange declRange) {
    public LocalValue addr() {
        return new LocalValue(name);
    }
}
