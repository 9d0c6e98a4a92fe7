package dev.strata.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import java.util.List;

/**
 * What checking a plan against a policy set found: how many policies and checks there were, and each
 * check that did not pass, in plan order.
 */
public record PolicyReport(int policies, int checks, List<PolicyOutcome> outcomes, Diagnostics problems) {

    public static final PolicyReport NONE = new PolicyReport(0, 0, List.of(), Diagnostics.NONE);

    public PolicyReport {
        outcomes = List.copyOf(outcomes);
    }

    /** Whether a mandatory policy did not pass: the plan must not be saved as applyable nor applied. */
    public boolean blocksApply() {
        return problems.hasErrors() || outcomes.stream().anyMatch(PolicyOutcome::blocks);
    }

    public long failed(Enforcement e) {
        return outcomes.stream().filter(o -> o.enforcement() == e).count();
    }

    /**
     * The outcomes as diagnostics, pointing at each policy's condition: a mandatory policy that did not
     * pass is an error, an advisory one a warning.
     */
    public Diagnostics diagnostics() {
        Diagnostics.Builder out = Diagnostics.builder();
        out.addAll(problems);
        for (PolicyOutcome o : outcomes) {
            String summary = switch (o.status()) {
                case FAILED -> "Policy \"" + o.policy() + "\" failed";
                case UNKNOWN -> "Policy \"" + o.policy() + "\" cannot be decided";
                case ERRORED -> "Policy \"" + o.policy() + "\" could not be checked";
            };
            String consequence = o.blocks()
                    ? "The policy is mandatory, so this plan cannot be applied until the configuration (or the policy) "
                            + "changes."
                    : "The policy is advisory, so the plan may still be applied.";
            String detail = o.address() + " (" + o.action() + "): " + o.message() + "\n\n" + consequence;
            out.add(
                    o.blocks()
                            ? Diagnostic.error(summary, detail, o.range())
                            : Diagnostic.warning(summary, detail, o.range()));
        }
        return out.build();
    }

    /** The summary line printed after the plan, e.g. {@code Policies: 3 checked, 1 mandatory failed.} */
    public String summaryLine() {
        long mandatory = failed(Enforcement.MANDATORY);
        long advisory = failed(Enforcement.ADVISORY);
        StringBuilder b = new StringBuilder("Policies: ")
                .append(policies)
                .append(policies == 1 ? " policy, " : " policies, ")
                .append(checks)
                .append(checks == 1 ? " check" : " checks");
        if (mandatory == 0 && advisory == 0) {
            return b.append(", all passed.").toString();
        }
        if (mandatory > 0) {
            b.append(", ").append(mandatory).append(" mandatory not passed");
        }
        if (advisory > 0) {
            b.append(", ").append(advisory).append(" advisory not passed");
        }
        return b.append('.').toString();
    }

    /** The report as recorded in plan JSON and saved plan files. */
    public ObjectNode toJson() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        o.put("policies", policies);
        o.put("checks", checks);
        o.put("applyable", !blocksApply());
        ArrayNode results = o.putArray("results");
        for (PolicyOutcome r : outcomes) {
            ObjectNode x = results.addObject();
            x.put("policy", r.policy());
            x.put("enforcement", r.enforcement().word());
            x.put("address", r.address());
            x.put("action", r.action());
            x.put("status", r.status().word());
            x.put("message", r.message());
            if (r.range() != null) {
                x.put("file", r.range().filename());
                x.put("line", r.range().start().line());
            }
        }
        return o;
    }

    /** Whether a report read back from a saved plan file lets the plan be applied. */
    public static boolean applyable(JsonNode saved) {
        return saved == null
                || !saved.has("applyable")
                || saved.get("applyable").asBoolean(false);
    }
}
