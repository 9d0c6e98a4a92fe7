package dev.strata.stacks.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import dev.strata.state.Workspaces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeploymentStoreTest {
    @TempDir
    Path dir;

    @Test
    void instanceAddressesBecomeAllowedWorkspaceNamesAndBack() {
        for (String a : new String[] {
            "component.app", "component.app[\"us-east-1\"]", "stack.s[\"a b\"].component.x[\"~é+\"]", "component.n[3]"
        }) {
            String ws = DeploymentStore.workspaceName(a);
            assertThat(Workspaces.checkName(ws)).as(ws).isNull();
            assertThat(DeploymentStore.instanceAddress(ws)).isEqualTo(a);
        }
        assertThat(DeploymentStore.workspaceName("component.app[\"a\"]")).isEqualTo("component.app~5B~22a~22~5D");
    }

    @Test
    void eachComponentInstanceHasItsOwnStateUnderTheDeployment() {
        DeploymentStore store = DeploymentStore.of(dir, "dev", "1.0.0");
        assertThat(store.readComponent("component.a").value().isEmpty()).isTrue();
        assertThat(Files.exists(dir.resolve(".strata/stacks/dev/components")))
                .as("reading creates nothing")
                .isFalse();
        Result<StateManager> m = store.openComponent("component.a[\"x\"]", LockRequest.of("test", Duration.ZERO));
        assertThat(m.diagnostics().hasErrors()).isFalse();
        m.value().close();
        assertThat(store.componentInstances().value()).containsExactly("component.a[\"x\"]");
        assertThat(store.componentStatePath("component.a[\"x\"]"))
                .isEqualTo(dir.resolve(".strata/stacks/dev/components/component.a~5B~22x~22~5D/terraform.tfstate")
                        .toAbsolutePath());
        assertThat(store.dropComponent("component.a[\"x\"]").hasErrors()).isFalse();
        assertThat(store.componentInstances().value()).isEmpty();
    }

    @Test
    void theDeploymentLockIsExclusive() {
        DeploymentStore store = DeploymentStore.of(dir, "dev", "1.0.0");
        Result<StateManager> first = store.openStack(LockRequest.of("OperationTypeApply", Duration.ZERO));
        assertThat(first.value()).isNotNull();
        try (StateManager held = first.value()) {
            Result<StateManager> second = DeploymentStore.of(dir, "dev", "1.0.0")
                    .openStack(LockRequest.of("OperationTypeApply", Duration.ZERO));
            assertThat(second.value()).isNull();
            assertThat(second.diagnostics().hasErrors()).isTrue();
        }
    }
}
