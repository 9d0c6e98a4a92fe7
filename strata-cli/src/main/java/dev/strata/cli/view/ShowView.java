package dev.strata.cli.view;

import dev.strata.cli.version.Version;
import dev.strata.config.ConfigTree;
import dev.strata.engine.Plan;
import dev.strata.engine.Schemas;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.state.StateSnapshot;
import java.util.List;

/**
 * Output of {@code strata show}: a saved plan or the current state, as a person reads them or in
 * Terraform's JSON formats ({@code -json}, sensitive values null). Both render attributes with the
 * providers' schemas where they are available.
 */
public abstract sealed class ShowView {
    final View view;
    final Schemas schemas;

    private ShowView(View view, Schemas schemas) {
        this.view = view;
        this.schemas = schemas;
    }

    public static ShowView of(Terminal terminal, boolean json, Schemas schemas) {
        return json ? new Json(terminal, schemas) : new Human(terminal, schemas);
    }

    public void diagnostics(List<CliDiagnostic> diagnostics) {
        view.diagnostics(diagnostics);
    }

    public void diagnostics(Diagnostics diagnostics, DiagnosticRenderer.Sources sources) {
        view.diagnostics(diagnostics, sources);
    }

    /**
     * A saved plan, with the outcome of the policies checked when it was made ({@code policy_results} of
     * the plan file; null when no policy applied).
     */
    public abstract void plan(Plan plan, ConfigTree config, com.fasterxml.jackson.databind.JsonNode policyResults);

    public abstract void state(StateSnapshot state);

    static final class Human extends ShowView {
        private final PlanView planView;

        Human(Terminal terminal, Schemas schemas) {
            this(new PlanView(terminal).withSchemas(schemas), schemas);
        }

        private Human(PlanView planView, Schemas schemas) {
            super(planView, schemas);
            this.planView = planView;
        }

        @Override
        public void plan(Plan plan, ConfigTree config, com.fasterxml.jackson.databind.JsonNode policyResults) {
            planView.plan(plan);
            if (policyResults != null && policyResults.path("summary").isTextual()) {
                view.out().println();
                view.out().println(policyResults.get("summary").asText());
            }
        }

        @Override
        public void state(StateSnapshot state) {
            if (state.isEmpty() && state.outputs().isEmpty()) {
                view.out().println("No state.");
                return;
            }
            view.out().print(StateText.render(state, view, schemas));
        }
    }

    /** Terraform's plan and state JSON on one line each; diagnostics without colour, since a program reads stdout. */
    static final class Json extends ShowView {
        Json(Terminal terminal, Schemas schemas) {
            super(View.monochrome(terminal), schemas);
        }

        @Override
        public void plan(Plan plan, ConfigTree config, com.fasterxml.jackson.databind.JsonNode policyResults) {
            var doc = PlanJson.of(plan, config, Version.current(), schemas);
            if (policyResults != null) {
                // Strata's addition; readers of Terraform's format ignore keys they do not know.
                doc.set("policy_results", policyResults);
            }
            view.out().println(doc.toString());
        }

        @Override
        public void state(StateSnapshot state) {
            view.out()
                    .println(PlanJson.showStateJson(state, Version.current(), schemas)
                            .toString());
        }
    }
}
