package dev.strata.stacks.config;

import dev.strata.hcl.Diagnostics;

/** Static checks of a deployment configuration. */
final class DeploymentChecks {
    private final DeploymentConfig deployments;
    private final StackConfig root;
    private final Diagnostics.Builder diags = Diagnostics.builder();

    DeploymentChecks(DeploymentConfig deployments, StackConfig root) {
        this.deployments = deployments;
        this.root = root;
    }

    Diagnostics run() {
        return diags.build().sorted();
    }
}
