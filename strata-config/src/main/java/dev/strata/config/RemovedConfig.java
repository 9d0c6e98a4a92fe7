package dev.strata.config;

import dev.strata.addr.Targetable;
import dev.strata.hcl.SourceRange;
import java.util.List;

/**
 * A {@code removed} block: forget (destroy = false) or destroy the objects of a removed resource or module;
 * a managed resource's objects with the block's destroy-time {@code provisioners} (Terraform 1.9+), which
 * reach the machine through the block's {@code connection} (null: none) unless they have their own.
 */
public record RemovedConfig(
        Targetable from,
        boolean destroy,
        SourceRange fromRange,
        SourceRange declRange,
        List<Provisioner> provisioners,
        Provisioner.Connection connection) {
    public RemovedConfig {
        provisioners = List.copyOf(provisioners);
    }

    /** A block without provisioners. */
    public RemovedConfig(Targetable from, boolean destroy, SourceRange fromRange, SourceRange declRange) {
        this(from, destroy, fromRange, declRange, List.of(), null);
    }
}
