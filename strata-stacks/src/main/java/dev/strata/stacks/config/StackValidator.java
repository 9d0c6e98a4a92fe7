package dev.strata.stacks.config;

import dev.strata.hcl.Diagnostics;

/** Static validation of stack and deployment configurations: each configuration object checked once. */
public final class StackValidator {
    private StackValidator() {}

    /** Checks a loaded stack (and its embedded stacks) without evaluating anything. */
    public static Diagnostics validate(StackConfig root) {
        return new StaticChecks(root).run();
    }

    /** Checks a deployment configuration against the stack it deploys. */
    public static Diagnostics validateDeployments(DeploymentConfig deployments, StackConfig root) {
        return new DeploymentChecks(deployments, root).run();
    }
}
