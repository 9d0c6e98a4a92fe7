package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import java.util.List;

/**
 * A {@code deployment_auto_approve "NAME"} block: every {@code check} must hold for a plan to be
 * approved. Conditions read {@code context.plan.*} ({@code changes.add/change/remove/total},
 * {@code applyable}, ...) and the deployment's {@code context.success}.
 */
public record AutoApproveRule(String name, List<Check> checks, SourceRange declRange) {
    public AutoApproveRule {
        checks = List.copyOf(checks);
    }

    /** One {@code check { condition = ..., reason = ... }}. */
    public record Check(Expression condition, Expression reason, SourceRange declRange) {}
}
