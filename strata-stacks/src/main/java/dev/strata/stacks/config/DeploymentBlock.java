package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.stacks.addr.DeploymentAddr;

/**
 * A {@code deployment "NAME"} block: the stack's inputs for this deployment, whether the deployment
 * is being destroyed, and the {@code deployment_group} it belongs to (null: the default group).
 */
public record DeploymentBlock(
        DeploymentAddr addr, Expression inputs, Expression destroy, Traversal deploymentGroup, SourceRange declRange) {
    public String name() {
        return addr.name();
    }
}
