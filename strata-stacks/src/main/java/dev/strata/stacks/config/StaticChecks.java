package dev.strata.stacks.config;

import dev.strata.hcl.Diagnostics;

/** The static walk over a stack's configuration objects. */
final class StaticChecks {
    private final StackConfig root;
    private final Diagnostics.Builder diags = Diagnostics.builder();

    StaticChecks(StackConfig root) {
        this.root = root;
    }

    Diagnostics run() {
        return diags.build().sorted();
    }
}
