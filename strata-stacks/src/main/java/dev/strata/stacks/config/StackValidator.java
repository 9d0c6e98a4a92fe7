package dev.strata.stacks.config;

import dev.strata.hcl.Diagnostics;
import dev.strata.provider.ProviderSource;
import java.nio.file.Path;

/** Static validation of stack and deployment configurations: each configuration object checked once. */
public final class StackValidator {
    private StackValidator() {}

    /** Checks a loaded stack (and its embedded stacks) without evaluating anything. */
    public static Diagnostics validate(StackConfig root) {
        return new StaticChecks(root).run();
    }

    /**
     * Checks every component module of the stack tree (and of its removed blocks) against the schemas of
     * the providers it uses, which {@code providers} supplies: the part of validation that starts
     * providers (unconfigured) to read their schemas.
     */
    public static Diagnostics validateModules(
            StackConfig root, ProviderSource providers, Path workingDir, String engineVersion) {
        return new ModuleSchemaChecks(root.dir(), providers, workingDir, engineVersion).run(root);
    }

    /** Checks a deployment configuration against the stack it deploys. */
    public static Diagnostics validateDeployments(DeploymentConfig deployments, StackConfig root) {
        return new DeploymentChecks(deployments, root).run();
    }
}
