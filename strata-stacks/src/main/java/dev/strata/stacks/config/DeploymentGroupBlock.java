package dev.strata.stacks.config;

import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import java.util.List;

/**
 * A {@code deployment_group "NAME"} block: the {@code deployment_auto_approve} rules
 * ({@code auto_approve_checks}) that decide whether its deployments' plans apply unattended.
 */
public record DeploymentGroupBlock(String name, List<Traversal> autoApproveChecks, SourceRange declRange) {
    public DeploymentGroupBlock {
        autoApproveChecks = List.copyOf(autoApproveChecks);
    }
}
