package dev.strata.cli.command.stacks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.command.CommandContext;
import dev.strata.cli.view.FileSources;
import dev.strata.cli.view.PlanView;
import dev.strata.cli.view.View;
import dev.strata.engine.Plan;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.value.Value;
import dev.strata.stacks.runtime.ComponentApplied;
import dev.strata.stacks.runtime.ComponentPlan;
import dev.strata.stacks.runtime.DeploymentApplied;
import dev.strata.stacks.runtime.DeploymentPlan;
import dev.strata.stacks.runtime.StackEvents;
import java.util.List;
import java.util.SortedMap;

/**
 * The one view of the {@code strata stacks} operations (ADR 0010): what was planned and applied per
 * deployment and per component instance, progress as it happens, approvals, diagnostics. Human text,
 * or one JSON record per line for each deployment and each component instance.
 */
sealed interface StacksView extends StackEvents permits StacksView.Human, StacksView.Json {

    static StacksView of(CommandContext context, boolean json) {
        return json ? new Json(context) : new Human(context);
    }

    void diagnostics(String deployment, Diagnostics ds);

    void planned(DeploymentPlan plan);

    /** An apply's approval: given automatically (by rule or flag), or held with the reasons. */
    void approval(String deployment, boolean approved, String how, List<String> reasons);

    /** Asks whether to apply a deployment's plan; only "yes" approves. */
    boolean approve(String deployment);

    void applied(DeploymentApplied applied);

    void planSaved(String file);

    /** A plan without changes: one line in text, the usual records in JSON. */
    void noChanges(DeploymentPlan plan);

    void outputs(String deployment, SortedMap<String, Value> outputs, java.util.Optional<String> name);

    void line(String text);

    void raw(ObjectNode record);

    final class Human extends View implements StacksView {
        private final CommandContext context;

        Human(CommandContext context) {
            super(context);
            this.context = context;
        }

        @Override
        public void diagnostics(String deployment, Diagnostics ds) {
            diagnostics(ds, new FileSources(context.workingDir()));
        }

        @Override
        public synchronized void componentStarted(String deployment, String component, String what) {
            out().println(style(Style.BOLD, deployment + ": " + component + ": ")
                    + Character.toUpperCase(what.charAt(0)) + what.substring(1) + "...");
        }

        @Override
        public synchronized void componentFinished(String deployment, String component, String what, String outcome) {
            out().println(style(Style.BOLD, deployment + ": " + component + ": ")
                    + Character.toUpperCase(what.charAt(0)) + what.substring(1) + " complete: " + outcome);
        }

        @Override
        public synchronized void planned(DeploymentPlan plan) {
            out().println();
            out().println(style(
                    Style.BOLD,
                    "Deployment \"" + plan.deployment() + "\""
                            + (plan.mode() == dev.strata.engine.PlanMode.DESTROY ? " (destroy)" : "")));
            PlanView pv = new PlanView(context);
            for (ComponentPlan c : plan.components()) {
                if (c.deferred()) {
                    out().println("  " + c.address() + ": deferred, " + c.deferredReason()
                            + "; it will be planned and applied once that is known.");
                    continue;
                }
                if (c.plan() == null) {
                    if (c.removed() && c.diagnostics().isEmpty()) {
                        out().println("  " + c.address() + ": will be removed from the state without being destroyed.");
                    }
                    continue;
                }
                Plan p = c.plan();
                if (!p.hasChanges()) {
                    out().println("  " + c.address() + ": no changes.");
                    continue;
                }
                out().println("  " + c.address() + (c.removed() ? " (removed from the configuration)" : "") + ":");
                String text = pv.render(p);
                for (String l : text.split("\n", -1)) {
                    out().println(l.isEmpty() ? "" : "    " + l);
                }
            }
            DeploymentPlan.Summary s = plan.summary();
            out().println("Plan for \"" + plan.deployment() + "\": " + s.add() + " to add, " + s.change()
                    + " to change, " + s.remove() + " to destroy"
                    + (s.deferred() > 0 ? ", " + s.deferred() + " deferred" : "") + ".");
            plan.components().forEach(c -> {
                if (!c.diagnostics().isEmpty()) {
                    diagnostics(c.diagnostics(), new FileSources(context.workingDir()));
                }
            });
        }

        @Override
        public synchronized void approval(String deployment, boolean approved, String how, List<String> reasons) {
            if (approved) {
                out().println("Deployment \"" + deployment + "\" approved " + how + ".");
            } else {
                out().println("Deployment \"" + deployment + "\" is held for approval: " + String.join("; ", reasons)
                        + ".");
            }
        }

        @Override
        public boolean approve(String deployment) {
            out().println();
            out().println(style(Style.BOLD, "Do you want to apply deployment \"" + deployment + "\"?"));
            out().println("  Strata will perform the actions described above for this deployment.");
            out().println("  Only 'yes' will be accepted to approve.");
            out().println();
            return confirm(style(Style.BOLD, "  Enter a value: "));
        }

        @Override
        public synchronized void applied(DeploymentApplied a) {
            for (ComponentApplied c : a.components()) {
                if (!c.diagnostics().isEmpty()) {
                    diagnostics(c.diagnostics(), new FileSources(context.workingDir()));
                }
            }
            diagnostics(a.diagnostics(), new FileSources(context.workingDir()));
            if (a.interrupted()) {
                // As the modules apply says it: no error of its own, what was done, and exit status 1.
                out().println(style(Style.BOLD, "Apply interrupted for \"" + a.deployment() + "\".")
                        + " Resources: " + a.added() + " added, " + a.changed() + " changed, " + a.destroyed()
                        + " destroyed. Run \"strata stacks apply\" again to finish.");
                return;
            }
            String head = a.failed()
                    ? "Apply failed for \"" + a.deployment() + "\""
                    : "Apply complete for \"" + a.deployment() + "\"";
            out().println(style(
                    a.failed() ? Style.BOLD_RED : Style.BOLD_GREEN,
                    head + "! Resources: " + a.added() + " added, " + a.changed() + " changed, " + a.destroyed()
                            + " destroyed."));
        }

        @Override
        public void planSaved(String file) {
            out().println();
            out().println("Saved the plan to: " + file);
            out().println();
            out().println("To perform exactly these actions, run the following command to apply:");
            out().println("    strata stacks apply \"" + file + "\"");
        }

        @Override
        public synchronized void noChanges(DeploymentPlan plan) {
            out().println("Deployment \"" + plan.deployment()
                    + "\": no changes. Your infrastructure matches the configuration.");
        }

        @Override
        public void outputs(String deployment, SortedMap<String, Value> outputs, java.util.Optional<String> name) {
            if (name.isPresent()) {
                Value v = outputs.get(name.get());
                if (v != null) {
                    out().println(
                                    v.isSensitive()
                                            ? "(sensitive value)"
                                            : dev.strata.lang.value.ConsoleFormat.render(v));
                }
                return;
            }
            out().println(style(Style.BOLD, "Deployment \"" + deployment + "\":"));
            outputs.forEach((n, v) -> out().println("  " + n + " = "
                    + (v.hasMarkDeep(dev.strata.lang.value.Mark.SENSITIVE)
                            ? "(sensitive value)"
                            : dev.strata.lang.value.ConsoleFormat.render(v).replace("\n", "\n  "))));
        }

        @Override
        public void line(String text) {
            out().println(text);
        }

        @Override
        public void raw(ObjectNode record) {
            out().println(record.toString());
        }
    }

    final class Json implements StacksView {
        private static final ObjectMapper JSON = new ObjectMapper();
        private final CommandContext context;

        Json(CommandContext context) {
            this.context = context;
        }

        private synchronized void emit(ObjectNode n) {
            context.stdout().println(n.toString());
            context.stdout().flush();
        }

        private ObjectNode record(String type, String deployment) {
            ObjectNode n = JSON.createObjectNode();
            n.put("type", type);
            if (deployment != null) {
                n.put("deployment", deployment);
            }
            return n;
        }

        @Override
        public void diagnostics(String deployment, Diagnostics ds) {
            for (Diagnostic d : ds.inPlaceOrder()) {
                ObjectNode n = record("diagnostic", deployment);
                n.put("severity", d.isError() ? "error" : "warning");
                n.put("summary", d.summary());
                n.put("detail", d.detail());
                if (d.subject() != null) {
                    n.put("range", d.subject().toString());
                }
                emit(n);
            }
        }

        @Override
        public void componentStarted(String deployment, String component, String what) {
            ObjectNode n = record("progress", deployment);
            n.put("component_instance", component);
            n.put("action", what);
            n.put("status", "started");
            emit(n);
        }

        @Override
        public void componentFinished(String deployment, String component, String what, String outcome) {
            ObjectNode n = record("progress", deployment);
            n.put("component_instance", component);
            n.put("action", what);
            n.put("status", "complete");
            n.put("outcome", outcome);
            emit(n);
        }

        @Override
        public void planned(DeploymentPlan plan) {
            for (ComponentPlan c : plan.components()) {
                ObjectNode n = record("component_instance", plan.deployment());
                n.put("phase", "plan");
                n.put("address", c.address());
                if (c.plan() != null) {
                    Plan.Summary s = c.plan().summary();
                    ObjectNode ch = n.putObject("changes");
                    ch.put("add", s.add());
                    ch.put("change", s.change());
                    ch.put("remove", s.destroy());
                }
                if (c.deferred()) {
                    n.put("deferred", c.deferredReason());
                }
                n.put("removed", c.removed());
                var deps = n.putArray("depends_on");
                c.dependsOn().forEach(deps::add);
                emit(n);
                diagnostics(plan.deployment(), c.diagnostics());
            }
            DeploymentPlan.Summary s = plan.summary();
            ObjectNode n = record("deployment", plan.deployment());
            n.put("phase", "plan");
            n.put("mode", plan.mode() == dev.strata.engine.PlanMode.DESTROY ? "destroy" : "normal");
            ObjectNode ch = n.putObject("changes");
            ch.put("add", s.add());
            ch.put("change", s.change());
            ch.put("remove", s.remove());
            ch.put("total", s.total());
            ch.put("deferred", s.deferred());
            n.put("applyable", plan.applyable());
            emit(n);
        }

        @Override
        public void approval(String deployment, boolean approved, String how, List<String> reasons) {
            ObjectNode n = record("approval", deployment);
            n.put("approved", approved);
            n.put("how", how);
            var r = n.putArray("reasons");
            reasons.forEach(r::add);
            emit(n);
        }

        @Override
        public boolean approve(String deployment) {
            return false;
        }

        @Override
        public void applied(DeploymentApplied a) {
            for (ComponentApplied c : a.components()) {
                ObjectNode n = record("component_instance", a.deployment());
                n.put("phase", "apply");
                n.put("address", c.address());
                n.put("failed", c.failed());
                n.put("replanned", c.replanned());
                if (c.result() != null) {
                    ObjectNode ch = n.putObject("changes");
                    ch.put("add", c.result().added());
                    ch.put("change", c.result().changed());
                    ch.put("remove", c.result().destroyed());
                }
                emit(n);
                diagnostics(a.deployment(), c.diagnostics());
            }
            diagnostics(a.deployment(), a.diagnostics());
            ObjectNode n = record("deployment", a.deployment());
            n.put("phase", "apply");
            n.put("failed", a.failed());
            n.put("interrupted", a.interrupted());
            ObjectNode ch = n.putObject("changes");
            ch.put("add", a.added());
            ch.put("change", a.changed());
            ch.put("remove", a.destroyed());
            emit(n);
        }

        @Override
        public void planSaved(String file) {
            ObjectNode n = record("plan_saved", null);
            n.put("path", file);
            emit(n);
        }

        @Override
        public void noChanges(DeploymentPlan plan) {
            planned(plan);
        }

        @Override
        public void outputs(String deployment, SortedMap<String, Value> outputs, java.util.Optional<String> name) {
            ObjectNode n = record("outputs", deployment);
            ObjectNode o = n.putObject("outputs");
            outputs.forEach((k, v) -> {
                if (name.isPresent() && !name.get().equals(k)) {
                    return;
                }
                ObjectNode e = o.putObject(k);
                boolean sensitive = v.hasMarkDeep(dev.strata.lang.value.Mark.SENSITIVE);
                e.put("sensitive", sensitive);
                e.set(
                        "value",
                        sensitive
                                ? JSON.nullNode()
                                : dev.strata.engine.StateValues.toNode(
                                        dev.strata.engine.StateValues.toJson(v.unmarkDeep(), v.type())));
            });
            emit(n);
        }

        @Override
        public void line(String text) {}

        @Override
        public void raw(ObjectNode record) {
            emit(record);
        }
    }
}
