package dev.strata.cli.view;

import dev.strata.engine.ApplyResult;
import dev.strata.engine.EngineEvents;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.Schemas;
import dev.strata.engine.StateValues;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Output of {@code strata plan}, {@code apply}, {@code destroy} and {@code refresh}: the plan as a
 * person reads it, with the next step, the approval prompt and the apply's progress and summary; or,
 * with {@code -json}, Terraform's machine-readable UI stream (which begins with its version message as
 * soon as the view exists). Live progress lines come from an {@link ApplyView} the command holds open
 * around each engine call; {@link #events} says who hears the engine's events.
 */
public abstract sealed class OperationView {
    final Terminal terminal;
    final View view;

    private OperationView(Terminal terminal, View view) {
        this.terminal = terminal;
        this.view = view;
    }

    public static OperationView of(Terminal terminal, boolean json, Schemas schemas) {
        return json ? new Json(terminal) : new Human(terminal, schemas);
    }

    /** The view the common steps (loading, locking, options) report their problems through. */
    public View view() {
        return view;
    }

    public void diagnostics(List<CliDiagnostic> diagnostics) {
        view.diagnostics(diagnostics);
    }

    public void diagnostics(Diagnostics diagnostics, DiagnosticRenderer.Sources sources) {
        view.diagnostics(diagnostics, sources);
    }

    /** The outcome of checking the plan against policies (the failures are reported as diagnostics). */
    public void policies(dev.strata.policy.PolicyReport report) {
        if (report.policies() == 0) {
            return;
        }
        switch (this) {
            case Human h -> h.view.out().println("\n" + report.summaryLine());
            case Json j -> j.json.policies(report);
        }
    }

    /**
     * {@code strata plan} found errors while planning (not in its arguments or configuration): as
     * Terraform, a person is told on stdout before the errors; the JSON stream has only the errors.
     */
    public void planFailed() {
        if (this instanceof Human h) {
            view.out().print(h.planView.planningFailed());
        }
    }

    /**
     * A plan found errors after planning {@code partial}: as Terraform, a person sees what it planned
     * ("planned the following actions, but then encountered a problem", or only the outputs' changes) when
     * that holds a change, else {@link #planFailed()} when {@code failedNotice}; a plan that stopped before
     * its walk ended (a cycle, conflicting moves, a destroy whose refresh failed) has no partial plan and gets
     * neither, as in Terraform. The JSON stream has the planned changes, summary and outputs before the errors.
     */
    public void erroredPlan(Optional<Plan> partial, boolean failedNotice) {
        switch (this) {
            case Human h -> {
                if (partial.isPresent() && h.planView.showsChanges(partial.get())) {
                    h.planView.plan(partial.get());
                } else if (failedNotice && partial.isPresent()) {
                    planFailed();
                }
            }
            case Json j -> partial.ifPresent(j.json::changes);
        }
    }

    /** Who hears the engine's events while it plans or applies; {@code progress} for a person. */
    public abstract EngineEvents events(ApplyView progress);

    /** The plan of {@code strata plan}. */
    public abstract void plan(Plan plan);

    /** The root-module resources whose configuration the plan generated; the JSON stream does not mark them. */
    public void generatedConfig(java.util.Set<dev.strata.addr.Resource> resources) {}

    /**
     * What {@code strata plan} suggests after a plan with changes: applying the saved plan, or a note
     * that an unsaved one may not be what an apply does.
     */
    public abstract void nextStep(Plan plan, Optional<String> savedTo);

    /** As {@link #nextStep(Plan, Optional)}, after saying where {@code -generate-config-out} wrote the configuration. */
    public void nextStep(Plan plan, Optional<String> savedTo, Optional<String> generatedTo) {
        nextStep(plan, savedTo);
    }

    /** The plan an apply is about to carry out; {@code strata refresh} shows none, as Terraform's refresh. */
    public abstract void planToApply(Plan plan, Closing closing);

    /** Which command's closing words an apply ends with. */
    public enum Closing {
        /** "Apply complete!" and the root outputs. */
        APPLY,
        /** "Destroy complete!", without outputs. */
        DESTROY,
        /** {@code strata refresh}: only the root outputs, as Terraform's refresh. */
        REFRESH
    }

    /** An apply whose plan changes nothing: Terraform still reports the (empty) apply to a person. */
    public abstract void nothingToApply(ApplyResult nothing, Closing closing);

    /** Asks to approve the plan; false (after saying why) unless the answer is {@code yes}. */
    public abstract boolean approve(PlanMode mode);

    /** Why {@code -json} needs {@code -auto-approve} or a saved plan: a stream cannot be asked. */
    public static CliDiagnostic approvalImpossible() {
        return CliDiagnostic.error(
                "Plan file or auto-approve required",
                "Strata cannot ask for interactive "
                        + "approval when -json is set. You can either apply a saved plan file, or enable the -auto-approve "
                        + "option.");
    }

    /** The prompt was interrupted: the apply does not start. */
    public void cancelled(PlanMode mode) {
        view.err().println(mode == PlanMode.DESTROY ? "Destroy cancelled." : "Apply cancelled.");
    }

    /** The apply is about to start {@code operations} operations. */
    public abstract void applying(ApplyView progress, int operations);

    /** The apply's problems and, when it ran, its summary (and the root outputs, unless destroying). */
    public abstract void applied(
            ApplyView progress,
            Diagnostics diagnostics,
            Optional<ApplyResult> result,
            DiagnosticRenderer.Sources sources,
            Closing closing);

    /** Root outputs as recorded in state, sensitive ones marked so. */
    static Map<String, Value> outputs(ApplyResult r) {
        Map<String, Value> out = new TreeMap<>();
        r.state().outputs().forEach((k, o) -> {
            Value v = StateValues.outputValue(o);
            out.put(k, o.sensitive() ? v.mark(Mark.SENSITIVE) : v);
        });
        return out;
    }

    static final class Human extends OperationView {
        private final PlanView planView;

        Human(Terminal terminal, Schemas schemas) {
            this(terminal, new PlanView(terminal).withSchemas(schemas));
        }

        private Human(Terminal terminal, PlanView planView) {
            super(terminal, planView);
            this.planView = planView;
        }

        @Override
        public EngineEvents events(ApplyView progress) {
            return progress;
        }

        @Override
        public void plan(Plan plan) {
            planView.plan(plan);
        }

        @Override
        public void generatedConfig(java.util.Set<dev.strata.addr.Resource> resources) {
            planView.withGeneratedConfig(resources);
        }

        // The next step is a hint for a person at a terminal: left out for an empty plan and, as in
        // Terraform, when TF_IN_AUTOMATION says a wrapper drives the commands.
        @Override
        public void nextStep(Plan plan, Optional<String> savedTo) {
            nextStep(plan, savedTo, Optional.empty());
        }

        @Override
        public void nextStep(Plan plan, Optional<String> savedTo, Optional<String> generatedTo) {
            if (!plan.hasChanges() || terminal.inAutomation()) {
                return;
            }
            view.out().println();
            view.out().println("─".repeat(Math.min(77, view.width() - 1)));
            view.out().println();
            if (generatedTo.isPresent()) {
                view.out()
                        .println(wrap("Strata has generated configuration and written it to " + generatedTo.get()
                                + ". Please review the configuration and edit it as necessary before adding it to version "
                                + "control."));
                view.out().println();
            }
            if (savedTo.isPresent()) {
                view.out().println("Saved the plan to: " + savedTo.get());
                view.out().println();
                view.out().println("To perform exactly these actions, run the following command to apply:");
                view.out().println("    strata apply \"" + savedTo.get() + "\"");
            } else {
                view.out().println("Note: You didn't use the -out option to save this plan, so Strata can't");
                view.out().println("guarantee to take exactly these actions if you run \"strata apply\" now.");
            }
        }

        @Override
        public void planToApply(Plan plan, Closing closing) {
            if (closing != Closing.REFRESH) {
                planView.plan(plan);
            }
        }

        @Override
        public void nothingToApply(ApplyResult nothing, Closing closing) {
            try (ApplyView progress = new ApplyView(terminal)) {
                summary(progress, nothing, closing);
            }
        }

        @Override
        public boolean approve(PlanMode mode) {
            String what = switch (mode) {
                case DESTROY -> "Do you really want to destroy all resources?";
                case REFRESH_ONLY -> "Would you like to update the Strata state to reflect these detected changes?";
                case NORMAL -> "Do you want to perform these actions?";
            };
            view.out().println();
            view.out().println(view.style(View.Style.BOLD, what));
            view.out()
                    .println(
                            switch (mode) {
                                case DESTROY ->
                                    "  Strata will destroy all your managed infrastructure, as shown above.\n  There is no undo. "
                                            + "Only 'yes' will be accepted to confirm.";
                                case REFRESH_ONLY ->
                                    "  Strata will write these changes to the state without modifying any real infrastructure.\n"
                                            + "  There is no undo. Only 'yes' will be accepted to confirm.";
                                case NORMAL ->
                                    "  Strata will perform the actions described above.\n  Only 'yes' will be accepted to approve.";
                            });
            view.out().println();
            String answer =
                    view.ask(view.style(View.Style.BOLD, "  Enter a value: ")).orElse(null);
            if (answer == null || !answer.strip().equals("yes")) {
                view.diagnostics(List.of(CliDiagnostic.error(
                        mode == PlanMode.DESTROY ? "Destroy cancelled" : "Apply cancelled",
                        "Only 'yes' approves the plan"
                                + (answer == null
                                        ? "; no answer could be read (use -auto-approve when there is no terminal)."
                                        : "."))));
                return false;
            }
            return true;
        }

        @Override
        public void applying(ApplyView progress, int operations) {
            // As Terraform: the progress lines follow the plan (or the answer to the prompt) directly.
            progress.expect(operations);
        }

        @Override
        public void applied(
                ApplyView progress,
                Diagnostics diagnostics,
                Optional<ApplyResult> result,
                DiagnosticRenderer.Sources sources,
                Closing closing) {
            progress.diagnostics(diagnostics.sorted(), sources);
            result.ifPresent(r -> summary(progress, r, closing));
        }

        private static void summary(ApplyView progress, ApplyResult r, Closing closing) {
            progress.summary(r, closing);
            if (closing != Closing.DESTROY) {
                progress.outputs(outputs(r));
            }
        }
    }

    /** Terraform's UI messages, one JSON object per line, never in colour. */
    static final class Json extends OperationView {
        private final PlanJsonView json;

        Json(Terminal terminal) {
            this(terminal, new PlanJsonView(terminal));
        }

        private Json(Terminal terminal, PlanJsonView json) {
            super(terminal, json);
            this.json = json;
            json.version();
        }

        /** The stream's messages wait with {@code progress}'s lines while the engine runs. */
        @Override
        public EngineEvents events(ApplyView progress) {
            return json.during(progress);
        }

        @Override
        public void plan(Plan plan) {
            json.changes(plan);
        }

        @Override
        public void nextStep(Plan plan, Optional<String> savedTo) {
            // A program reads the stream: it needs no hint.
        }

        @Override
        public void planToApply(Plan plan, Closing closing) {
            if (closing != Closing.REFRESH) {
                json.changes(plan);
            }
        }

        @Override
        public void nothingToApply(ApplyResult nothing, Closing closing) {
            // As Terraform: the apply's own summary (and its outputs) follows the plan's, with nothing done.
            json.applySummary(nothing, closing);
        }

        /** The stream cannot ask; the arguments refuse -json without -auto-approve or a saved plan. */
        @Override
        public boolean approve(PlanMode mode) {
            json.diagnostics(List.of(approvalImpossible()));
            return false;
        }

        @Override
        public void applying(ApplyView progress, int operations) {
            progress.expect(operations);
        }

        @Override
        public void applied(
                ApplyView progress,
                Diagnostics diagnostics,
                Optional<ApplyResult> result,
                DiagnosticRenderer.Sources sources,
                Closing closing) {
            json.stopTicker();
            json.diagnostics(diagnostics, sources);
            result.ifPresent(r -> json.applySummary(r, closing));
        }
    }

    /** Greedy word wrap at Terraform's 78 columns. */
    static String wrap(String text) {
        StringBuilder out = new StringBuilder();
        int col = 0;
        for (String w : text.split(" ")) {
            if (col > 0 && col + 1 + w.length() > 78) {
                out.append('\n');
                col = 0;
            } else if (col > 0) {
                out.append(' ');
                col++;
            }
            out.append(w);
            col += w.length();
        }
        return out.toString();
    }
}
