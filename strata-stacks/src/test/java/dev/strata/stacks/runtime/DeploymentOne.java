package dev.strata.stacks.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.provider.ProviderRegistry;
import dev.strata.stacks.config.DeploymentLoader;
import dev.strata.stacks.config.StackConfig;
import dev.strata.stacks.config.StackLoader;
import dev.strata.state.LockRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Deployment "one" of the Stack in a directory (as {@code StackTexts.ONE_DEPLOYMENT} declares it), run as
 * {@code strata stacks apply} would: the configuration is read afresh on every call, so a test can rewrite it
 * between applies. Each step must succeed; the assertion says what failed.
 *
 * @param env the environment of provisioners and providers (local-exec needs a PATH)
 */
record DeploymentOne(Path dir, StackStorage storage, Map<String, String> env) {
    /** Local state files in {@code dir}, with the environment of this JVM's PATH only. */
    static DeploymentOne local(Path dir) {
        return new DeploymentOne(dir, StackStorage.local(dir, "1.11.0"), path());
    }

    /** The environment with this JVM's PATH only. */
    static Map<String, String> path() {
        return Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    }

    StackRuntime runtime() {
        Result<StackConfig> stack = StackLoader.load(dir);
        assertThat(stack.diagnostics().hasErrors())
                .as(stack.diagnostics().toString())
                .isFalse();
        return new StackRuntime(
                new RuntimeSettings(ProviderRegistry.load(DeploymentOne.class.getClassLoader()), "1.11.0", env, dir, 4),
                storage,
                stack.value(),
                DeploymentLoader.load(dir).value());
    }

    /** A session of the deployment, not locked; the caller closes it. */
    DeploymentSession open() {
        return runtime().open("one", LockRequest.none()).value();
    }

    /** Plans and applies the deployment; returns the plan applied. */
    DeploymentPlan apply() {
        try (DeploymentSession s = open()) {
            DeploymentPlan plan = s.plan(false, new StackEvents() {});
            assertThat(plan.diagnostics().hasErrors())
                    .as(plan.diagnostics().toString())
                    .isFalse();
            DeploymentApplied applied = s.apply(plan, false, new StackEvents() {});
            assertThat(applied.diagnostics().hasErrors())
                    .as(applied.diagnostics().toString())
                    .isFalse();
            return plan;
        }
    }

    /** The addresses of the component instances in the deployment's state. */
    List<String> instances() {
        try (DeploymentSession s = open()) {
            return s.componentInstances().value();
        }
    }
}
