package dev.strata.engine;

import dev.strata.hcl.Diagnostics;
import dev.strata.lang.value.Value;
import dev.strata.state.StateSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The result of planning: what the apply will do, and what it was computed from.
 *
 * @param priorState  the state the plan was made against, refreshed (its serial and lineage are those
 *                    of the stored state, so a stale plan can be recognised)
 * @param variables   the root module's input values
 * @param changes     one per resource instance object, sorted by address
 * @param drift       objects that changed outside Strata, found by the refresh
 * @param deferred    resources whose expansion waits for the apply
 * @param outputs     root output changes by name
 * @param diagnostics warnings found while planning; errors only in the partial plan of a plan that failed
 *                    ({@link #errored()}), which is shown and may be saved but is never applied
 * @param timestamp   when the plan was made, to the second: {@code plantimestamp()} while planning and
 *                    again when this plan is applied, and the plan JSON's {@code timestamp}
 * @param relevantAttributes the resource attributes the changes depend on (which drift a normal plan shows,
 *                    the plan JSON's {@code relevant_attributes}), worked out on first use;
 *                    {@link RelevantAttributes#UNKNOWN} when not known
 */
public record Plan(
        PlanMode mode,
        StateSnapshot priorState,
        SortedMap<String, Value> variables,
        List<ResourceChange> changes,
        List<ResourceChange> drift,
        List<DeferredResource> deferred,
        SortedMap<String, OutputChange> outputs,
        List<String> targets,
        Diagnostics diagnostics,
        Instant timestamp,
        RelevantAttributes relevantAttributes) {
    public Plan {
        java.util.Objects.requireNonNull(timestamp, "timestamp");
        relevantAttributes = relevantAttributes == null ? RelevantAttributes.UNKNOWN : relevantAttributes;
        variables = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(variables));
        changes = List.copyOf(changes);
        drift = List.copyOf(drift);
        deferred = List.copyOf(deferred);
        outputs = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(outputs));
        targets = List.copyOf(targets);
    }

    /** A plan whose relevant attributes are not known: every drifted attribute counts as relevant. */
    public Plan(
            PlanMode mode,
            StateSnapshot priorState,
            SortedMap<String, Value> variables,
            List<ResourceChange> changes,
            List<ResourceChange> drift,
            List<DeferredResource> deferred,
            SortedMap<String, OutputChange> outputs,
            List<String> targets,
            Diagnostics diagnostics,
            Instant timestamp) {
        this(
                mode,
                priorState,
                variables,
                changes,
                drift,
                deferred,
                outputs,
                targets,
                diagnostics,
                timestamp,
                RelevantAttributes.UNKNOWN);
    }

    /**
     * Whether planning found errors after planning what this plan holds, as Terraform's errored plans: what it
     * holds is well-formed, but actions it would have needed may be missing, so it cannot be applied.
     */
    public boolean errored() {
        return diagnostics.hasErrors();
    }

    /**
     * Records what refreshing found when this plan is applied with nothing to change, as Terraform's apply does:
     * its refreshed prior state is written to {@code state} when the two differ (an object deleted outside that
     * the configuration no longer declares is forgotten). Nothing is written when the state moved on since this
     * plan was made (its serial or lineage differ): that write is not this plan's to undo.
     */
    public Diagnostics recordRefreshed(dev.strata.state.StateManager state) {
        StateSnapshot now = state.state();
        if (priorState.serial() != now.serial()
                || !priorState.lineage().equals(now.lineage())
                || priorState.sameContentAs(now)) {
            return Diagnostics.NONE;
        }
        return state.persist(priorState).diagnostics();
    }

    /** Whether applying would change anything: resources, deferred expansions or outputs. */
    public boolean hasChanges() {
        return changes.stream()
                        .anyMatch(c -> c.action() != Action.NO_OP || c.previousAddr() != null || c.importId() != null)
                || !deferred.isEmpty()
                || outputs.values().stream().anyMatch(o -> o.action() != Action.NO_OP)
                || (mode == PlanMode.REFRESH_ONLY && !drift.isEmpty());
    }

    /** Counts for the summary line. */
    public record Summary(int add, int change, int destroy, int importing, int deferred) {}

    public Summary summary() {
        int add = 0, change = 0, destroy = 0, imp = 0;
        for (ResourceChange c : changes) {
            switch (c.action()) {
                case CREATE -> add++;
                case UPDATE -> change++;
                case DELETE -> destroy++;
                case DELETE_THEN_CREATE, CREATE_THEN_DELETE -> {
                    add++;
                    destroy++;
                }
                case NO_OP, READ, FORGET -> {}
            }
            if (c.importId() != null) {
                imp++;
            }
        }
        return new Summary(add, change, destroy, imp, deferred.size());
    }

    public Map<String, Value> rootVariables() {
        return variables;
    }
}
