package dev.strata.stacks.config;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Traversal;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Static checks of a deployment configuration against the stack it deploys: references resolve to
 * declared blocks, deployment inputs match the stack's variables, auto-approve rules read only
 * {@code context}, and HCP-only blocks are errors where they are used.
 */
final class DeploymentChecks {
    private final DeploymentConfig config;
    private final StackConfig stack;
    private final Diagnostics.Builder diags = Diagnostics.builder();

    DeploymentChecks(DeploymentConfig config, StackConfig stack) {
        this.config = config;
        this.stack = stack;
    }

    /** Which reference roots an expression may use. */
    private enum Site {
        INPUTS(Set.of("local", "store", "identity_token", "upstream_input")),
        PUBLISH(Set.of("local", "deployment", "store", "identity_token", "upstream_input")),
        APPROVAL(Set.of("context"));

        final Set<String> roots;

        Site(Set<String> roots) {
            this.roots = roots;
        }
    }

    Diagnostics run() {
        if (config.files().isEmpty()) {
            return Diagnostics.NONE;
        }
        if (config.deployments().isEmpty()) {
            diags.error(
                    "No deployments",
                    "A deployment configuration must declare at least one deployment block, such as "
                            + "deployment \"dev\" { inputs = {} }.",
                    null);
        }
        for (StackLocal l : config.locals().values()) {
            refs(l.expr(), Site.INPUTS);
        }
        for (DeploymentBlock d : config.deployments().values()) {
            refs(d.inputs(), Site.INPUTS);
            refs(d.destroy(), Site.INPUTS);
            inputs(d);
            Traversal g = d.deploymentGroup();
            if (g != null) {
                String name = g.attrName(1);
                if (!"deployment_group".equals(g.rootName()) || name == null) {
                    diags.error(
                            "Invalid deployment_group reference",
                            "The deployment_group argument must refer to a deployment_group block, such as "
                                    + "deployment_group.canary.",
                            g.range());
                } else if (!config.deploymentGroups().containsKey(name)) {
                    diags.error(
                            "Reference to undeclared deployment group",
                            "There is no deployment_group \"" + name + "\" block declared in this deployment "
                                    + "configuration.",
                            g.rangeTo(1));
                }
            }
        }
        for (DeploymentGroupBlock g : config.deploymentGroups().values()) {
            for (Traversal t : g.autoApproveChecks()) {
                String name = t.attrName(1);
                if (!"deployment_auto_approve".equals(t.rootName()) || name == null) {
                    diags.error(
                            "Invalid auto_approve_checks entry",
                            "Each entry must refer to a deployment_auto_approve block, such as "
                                    + "deployment_auto_approve.no_destroy.",
                            t.range());
                } else if (!config.autoApproveRules().containsKey(name)) {
                    diags.error(
                            "Reference to undeclared auto-approve rule",
                            "There is no deployment_auto_approve \"" + name + "\" block declared in this "
                                    + "deployment configuration.",
                            t.rangeTo(1));
                }
            }
        }
        for (AutoApproveRule r : config.autoApproveRules().values()) {
            for (AutoApproveRule.Check c : r.checks()) {
                refs(c.condition(), Site.APPROVAL);
                refs(c.reason(), Site.APPROVAL);
            }
        }
        for (PublishOutputBlock p : config.publishOutputs().values()) {
            refs(p.value(), Site.PUBLISH);
        }
        return StackLoader.distinct(diags.build());
    }

    private void refs(Expression e, Site site) {
        if (e == null) {
            return;
        }
        for (Traversal t : e.variables()) {
            ref(t, site);
        }
    }

    private void ref(Traversal t, Site site) {
        String root = t.rootName();
        if (!site.roots.contains(root)) {
            diags.error(
                    "Invalid reference",
                    switch (site) {
                        case APPROVAL ->
                            "A deployment_auto_approve check can refer only to the context object "
                                    + "(context.plan and context.success), not to \"" + root + "\".";
                        case INPUTS ->
                            "Deployment inputs and locals can refer only to local, store, "
                                    + "upstream_input and identity_token values, not to \"" + root + "\".";
                        case PUBLISH ->
                            "A publish_output value can refer only to deployment outputs, local, "
                                    + "store and upstream_input values, not to \"" + root + "\".";
                    },
                    t.rangeTo(0));
            return;
        }
        switch (root) {
            case "local" -> {
                String name = t.attrName(1);
                if (name != null && !config.locals().containsKey(name)) {
                    diags.error(
                            "Reference to undeclared local value",
                            "There is no local value named \"" + name + "\" declared in this deployment "
                                    + "configuration.",
                            t.rangeTo(1));
                }
            }
            case "deployment" -> {
                String name = t.attrName(1);
                if (name != null && !config.deployments().containsKey(name)) {
                    diags.error(
                            "Reference to undeclared deployment",
                            "There is no deployment \"" + name + "\" block declared in this deployment "
                                    + "configuration.",
                            t.rangeTo(1));
                }
            }
            case "upstream_input" -> {
                String name = t.attrName(1);
                if (name != null && !config.upstreamInputs().containsKey(name)) {
                    diags.error(
                            "Reference to undeclared upstream input",
                            "There is no upstream_input \"" + name + "\" block declared in this deployment "
                                    + "configuration.",
                            t.rangeTo(1));
                }
            }
            case "store" -> {
                String type = t.attrName(1);
                String name = t.attrName(2);
                if (type == null || name == null) {
                    diags.error(
                            "Invalid reference",
                            "A store reference must have the form store.TYPE.NAME.KEY.",
                            t.range());
                    return;
                }
                StoreBlock s = config.stores().get(type + "." + name);
                if (s == null) {
                    diags.error(
                            "Reference to undeclared store",
                            "There is no store \"" + type + "\" \"" + name + "\" block declared in this deployment "
                                    + "configuration.",
                            t.rangeTo(2));
                } else if (s.kind() == StoreBlock.Kind.HCP_ONLY) {
                    diags.error(
                            "Not available outside HCP Terraform",
                            "The store type \"" + type + "\" reads values kept by HCP Terraform, which are not "
                                    + "available outside HCP Terraform. Read secrets locally with a store \"env\" "
                                    + "or store \"file\" block instead.",
                            t.rangeTo(2));
                }
            }
            case "identity_token" -> {
                String name = t.attrName(1);
                if (name != null && !config.hcpOnly().containsKey("identity_token." + name)) {
                    diags.error(
                            "Reference to undeclared identity token",
                            "There is no identity_token \"" + name + "\" block declared in this deployment "
                                    + "configuration.",
                            t.rangeTo(1));
                } else {
                    diags.error(
                            "Not available outside HCP Terraform",
                            "identity_token blocks ask HCP Terraform for a workload identity (OIDC) token, which "
                                    + "is not available outside HCP Terraform. Give the provider its credentials "
                                    + "another way, for example from a store \"env\" or store \"file\" block.",
                            t.rangeTo(1));
                }
            }
            default -> {
                // context: its attributes are the plan's, known only when approving
            }
        }
    }

    /** Static inputs against the stack's variables: each must be declared, required ones set. */
    private void inputs(DeploymentBlock d) {
        Set<String> keys = new TreeSet<>();
        if (d.inputs() != null) {
            Optional<List<Expression.KeyValue>> kvs = d.inputs().asMap();
            if (kvs.isEmpty()) {
                return;
            }
            for (Expression.KeyValue kv : kvs.get()) {
                String k = Decoding.keyName(kv.key());
                if (k == null) {
                    continue;
                }
                keys.add(k);
                if (!stack.variables().containsKey(k)) {
                    diags.error(
                            "Unsupported input variable",
                            "The stack has no input variable named \"" + k + "\". Remove it from the inputs of "
                                    + "deployment \"" + d.name() + "\", or declare it with a variable block.",
                            kv.key().range());
                }
            }
        }
        for (StackVariable v : stack.variables().values()) {
            if (v.required() && !keys.contains(v.name())) {
                diags.error(
                        "No value for required variable",
                        "The deployment \"" + d.name() + "\" sets no value for the stack's required input variable \""
                                + v.name() + "\". Add it to the deployment's inputs.",
                        d.inputs() == null ? d.declRange() : d.inputs().range());
            }
        }
    }
}
