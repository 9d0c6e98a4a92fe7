package dev.strata.stacks.runtime;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.value.Value;
import dev.strata.stacks.config.AutoApproveRule;
import dev.strata.stacks.config.DeploymentBlock;
import dev.strata.stacks.config.DeploymentConfig;
import dev.strata.stacks.config.DeploymentGroupBlock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether a deployment's plan may be applied without asking: its {@code deployment_group}'s
 * {@code deployment_auto_approve} rules, each {@code check} evaluated with {@code context.plan}
 * ({@code changes.add/change/remove/total}, {@code applyable}, {@code deployment}). A deployment
 * without a group, or a group without rules, is never approved automatically; an empty plan needs no
 * approval.
 *
 * @param approved whether every check passed
 * @param reasons  the {@code reason} of each check that failed (or why there is no rule)
 */
public record AutoApproval(boolean approved, List<String> reasons) {

    public static Result<AutoApproval> decide(DeploymentConfig config, DeploymentPlan plan, Path dir) {
        DeploymentBlock d = config.deployments().get(plan.deployment());
        if (d == null || d.deploymentGroup() == null) {
            return Result.of(new AutoApproval(
                    false, List.of("deployment \"" + plan.deployment() + "\" has no auto-approve rules")));
        }
        String groupName = d.deploymentGroup().attrName(1);
        DeploymentGroupBlock g =
                groupName == null ? null : config.deploymentGroups().get(groupName);
        if (g == null || g.autoApproveChecks().isEmpty()) {
            return Result.of(new AutoApproval(
                    false, List.of("deployment group \"" + groupName + "\" has no auto-approve rules")));
        }
        DeploymentPlan.Summary s = plan.summary();
        Value context = Value.objectOf(
                "plan",
                Value.objectOf(
                        "changes",
                        Value.objectOf(
                                "add", Value.number(s.add()),
                                "change", Value.number(s.change()),
                                "remove", Value.number(s.remove()),
                                "total", Value.number(s.total())),
                        "applyable",
                        Value.bool(plan.applyable()),
                        "deployment",
                        Value.string(plan.deployment())),
                "success",
                Value.bool(plan.applyable()));
        Scope scope = Scope.binding(
                Scope.empty(TemplateFunctions.builtins(FunctionContext.system(dir))), Map.of("context", context));
        List<String> failed = new ArrayList<>();
        Diagnostics.Builder diags = Diagnostics.builder();
        for (Traversal t : g.autoApproveChecks()) {
            String ruleName = t.attrName(1);
            AutoApproveRule rule =
                    ruleName == null ? null : config.autoApproveRules().get(ruleName);
            if (rule == null) {
                diags.add(Diagnostic.error(
                        "Reference to undeclared auto-approve rule",
                        "There is no deployment_auto_approve \"" + ruleName + "\".",
                        t.range()));
                continue;
            }
            for (AutoApproveRule.Check c : rule.checks()) {
                Result<Value> ok = new Evaluator(scope).evaluate(c.condition());
                diags.addAll(ok.diagnostics());
                if (ok.hasErrors()
                        || !ok.value().isKnownAndNotNull()
                        || !ok.value().type().equals(dev.strata.lang.types.Type.BOOL)) {
                    failed.add(ruleName + ": the condition could not be evaluated");
                    continue;
                }
                if (!ok.value().asBool()) {
                    Result<Value> why = new Evaluator(scope).evaluate(c.reason());
                    diags.addAll(why.diagnostics());
                    failed.add(
                            why.value() != null
                                            && why.value().isKnownAndNotNull()
                                            && why.value().type().equals(dev.strata.lang.types.Type.STRING)
                                    ? why.value().asString()
                                    : ruleName + " failed");
                }
            }
        }
        return Result.of(new AutoApproval(failed.isEmpty() && !diags.hasErrors(), failed), diags.build());
    }
}
