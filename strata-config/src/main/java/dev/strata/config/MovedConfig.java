package dev.strata.config;

import dev.strata.addr.Targetable;
import dev.strata.hcl.SourceRange;

/** A {@code moved} block: both ends relative to the module that declares it. */
public record MovedConfig(
        Targetable from, Targetable to, SourceRange fromRange, SourceRange toRange, SourceRange declRange) {}
