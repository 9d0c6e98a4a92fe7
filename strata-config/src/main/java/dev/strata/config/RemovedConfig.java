package dev.strata.config;

import dev.strata.addr.Targetable;
import dev.strata.hcl.SourceRange;

/** A {@code removed} block: forget (destroy = false) or destroy the objects of a removed resource or module. */
public record RemovedConfig(Targetable from, boolean destroy, SourceRange fromRange, SourceRange declRange) {}
