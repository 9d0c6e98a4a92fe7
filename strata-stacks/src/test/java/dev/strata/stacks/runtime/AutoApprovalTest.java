package dev.strata.stacks.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.engine.PlanMode;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.stacks.config.DeploymentConfig;
import dev.strata.stacks.config.DeploymentLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class AutoApprovalTest {
    private static final Path EXAMPLE =
            Path.of("..", "examples", "stacks").toAbsolutePath().normalize();

    private static DeploymentPlan empty(String deployment) {
        return new DeploymentPlan(
                deployment, PlanMode.NORMAL, new TreeMap<>(), List.of(), new TreeMap<>(), Diagnostics.NONE);
    }

    @Test
    void aGroupsRulesApproveAPlanThatPassesEveryCheck() {
        Result<DeploymentConfig> config = DeploymentLoader.load(EXAMPLE);
        assertThat(config.diagnostics().hasErrors())
                .as(config.diagnostics().toString())
                .isFalse();
        Result<AutoApproval> dev = AutoApproval.decide(config.value(), empty("dev"), EXAMPLE);
        assertThat(dev.diagnostics().isEmpty()).as(dev.diagnostics().toString()).isTrue();
        assertThat(dev.value().approved()).as(dev.value().reasons().toString()).isTrue();
    }

    @Test
    void aDeploymentWithoutAGroupIsNeverApprovedAutomatically() {
        Result<DeploymentConfig> config = DeploymentLoader.load(EXAMPLE);
        Result<AutoApproval> prod = AutoApproval.decide(config.value(), empty("prod"), EXAMPLE);
        assertThat(prod.value().approved()).isFalse();
        assertThat(prod.value().reasons()).containsExactly("deployment \"prod\" has no auto-approve rules");
    }
}
