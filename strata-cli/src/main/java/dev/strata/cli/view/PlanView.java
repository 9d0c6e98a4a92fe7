package dev.strata.cli.view;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.AttributePath;
import dev.strata.addr.ResourceMode;
import dev.strata.engine.Action;
import dev.strata.engine.DeferredResource;
import dev.strata.engine.OutputChange;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.RelevantAttributes;
import dev.strata.engine.ResourceChange;
import dev.strata.lang.value.Value;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The human rendering of a plan, in the shape Terraform users know. */
public final class PlanView extends View {

    private dev.strata.engine.Schemas schemas;

    public PlanView(Terminal context) {
        super(context);
    }

    /** Root-module resources whose configuration this plan generated ({@code -generate-config-out}). */
    private java.util.Set<dev.strata.addr.Resource> generated = java.util.Set.of();

    /** Marks the imports of these root-module resources "(config will be generated)", as Terraform does. */
    public PlanView withGeneratedConfig(java.util.Set<dev.strata.addr.Resource> resources) {
        this.generated = java.util.Set.copyOf(resources);
        return this;
    }

    /** Provider schemas, so that nested blocks render as blocks; without them they render as attributes. */
    public PlanView withSchemas(dev.strata.engine.Schemas s) {
        this.schemas = s;
        typeSchemas.clear();
        return this;
    }

    /**
     * The drift to show: all of it in a refresh-only plan (or when the plan does not know its relevant
     * attributes); otherwise, as Terraform since 1.2, only the changes of attributes that contribute to
     * the plan's changes (and objects deleted outside when one of those is theirs), with every other
     * attribute shown as it is now.
     */
    List<ResourceChange> shownDrift(Plan plan) {
        if (plan.mode() == PlanMode.REFRESH_ONLY
                || !plan.relevantAttributes().isKnown()
                || plan.drift().isEmpty()) {
            // No drift (the usual plan): the relevant attributes are never worked out.
            return plan.drift();
        }
        RelevantAttributes relevant = plan.relevantAttributes();
        List<ResourceChange> out = new java.util.ArrayList<>();
        for (ResourceChange c : plan.drift()) {
            if (c.action() != Action.UPDATE) {
                if (relevant.covers(c.addr())) {
                    out.add(c);
                }
                continue;
            }
            Value before = relevant.relevantBefore(c.addr(), c.before(), c.after());
            if (!before.equalsIgnoringMarks(c.after())) {
                out.add(new ResourceChange(
                        c.addr(),
                        c.deposed(),
                        c.action(),
                        before,
                        c.after(),
                        c.replacePaths(),
                        c.reason(),
                        c.provider(),
                        c.schemaVersion(),
                        c.plannedPrivate(),
                        c.previousAddr(),
                        c.importId()));
            }
        }
        return out;
    }

    /**
     * The whole plan: drift, the symbol legend, each change, the summary and output changes. A plan that then
     * found errors is introduced as Terraform introduces it, and one that planned nothing says that planning
     * failed.
     */
    public void plan(Plan plan) {
        out().print(render(plan));
    }

    /** Whether {@link #render} shows a change: of an object or of an output. */
    boolean showsChanges(Plan plan) {
        return !plan.deferred().isEmpty()
                || plan.changes().stream()
                        .anyMatch(c -> c.action() != Action.NO_OP || c.previousAddr() != null || c.importId() != null)
                || plan.outputs().values().stream().anyMatch(o -> o.action() != Action.NO_OP);
    }

    /** What Terraform says of a plan that failed before it planned anything to show, blank lines around it. */
    String planningFailed() {
        return "\n" + style(Style.BOLD, style(Style.RED, "Planning failed."))
                + style(Style.BOLD, " Strata encountered an error while generating this plan.") + "\n\n";
    }

    public String render(Plan plan) {
        boolean errored = plan.errored();
        if (errored && !showsChanges(plan)) {
            return planningFailed();
        }
        StringBuilder b = new StringBuilder();
        List<ResourceChange> drift = plan.mode() == PlanMode.DESTROY ? List.of() : shownDrift(plan);
        if (!drift.isEmpty()) {
            b.append('\n')
                    .append(style(Style.BOLD, "Note: Objects have changed outside of Strata"))
                    .append("\n\n");
            b.append(wrap("Strata detected the following changes made outside of Strata since the last "
                            + "\"strata apply\" which may have affected this plan:"))
                    .append("\n\n");
            for (ResourceChange c : drift) {
                b.append(change(c, true)).append('\n');
            }
            // As Terraform: two empty lines after the last object.
            b.append('\n');
            if (plan.mode() == PlanMode.REFRESH_ONLY) {
                b.append(wrap("This is a refresh-only plan, so Strata will not take any actions to undo these. If "
                                + "you were expecting these changes then you can apply this plan to record the updated "
                                + "values in the Strata state without changing any remote objects."))
                        .append('\n');
                // The next-step hint draws the rule that ends a refresh-only plan.
            } else {
                b.append(wrap("Unless you have made equivalent changes to your configuration, or ignored the "
                                + "relevant attributes using ignore_changes, the following plan may include actions to undo "
                                + "or respond to these changes."))
                        .append('\n');
                b.append("\n").append("─".repeat(Math.min(77, width() - 1))).append('\n');
            }
        }
        List<ResourceChange> shown = plan.changes().stream()
                .filter(c -> c.action() != Action.NO_OP || c.previousAddr() != null || c.importId() != null)
                .toList();
        boolean outputsChange = plan.outputs().values().stream().anyMatch(o -> o.action() != Action.NO_OP);
        if (shown.isEmpty() && plan.deferred().isEmpty() && plan.mode() != PlanMode.REFRESH_ONLY) {
            if (outputsChange) {
                b.append('\n').append(wrap("Changes to Outputs:")).append('\n');
                outputs(plan, b);
                b.append('\n')
                        .append(wrap("You can apply this plan to save these new output values to the Strata "
                                + "state, without changing any real infrastructure."))
                        .append('\n');
            } else if (plan.mode() == PlanMode.DESTROY) {
                b.append('\n')
                        .append(style(Style.BOLD, style(Style.GREEN, "No changes.")))
                        .append(style(Style.BOLD, " No objects need to be destroyed."))
                        .append("\n\n");
                b.append(wrap("Either you have not created any objects yet or the existing objects were already "
                                + "deleted outside of Strata."))
                        .append('\n');
            } else {
                b.append('\n')
                        .append(style(Style.BOLD, style(Style.GREEN, "No changes.")))
                        .append(style(Style.BOLD, " Your infrastructure matches the configuration."))
                        .append("\n\n");
                b.append(wrap("Strata has compared your real infrastructure against your configuration and found no "
                                + "differences, so no changes are needed."))
                        .append('\n');
            }
            return b.toString();
        }
        if (plan.mode() == PlanMode.REFRESH_ONLY) {
            if (plan.drift().isEmpty()) {
                b.append('\n')
                        .append(style(Style.BOLD, style(Style.GREEN, "No changes.")))
                        .append(style(Style.BOLD, " Your infrastructure still matches the configuration."))
                        .append("\n\n")
                        .append(wrap("Strata has checked that the real remote objects still match the "
                                + "result of your most recent changes, and found no differences."))
                        .append('\n');
            }
            return b.toString();
        }
        Set<Action> used = EnumSet.noneOf(Action.class);
        shown.forEach(c -> used.add(c.action()));
        // As Terraform: no legend when every shown change is a no-op (only imports or moves).
        if (!used.stream().allMatch(a -> a == Action.NO_OP) || !plan.deferred().isEmpty()) {
            b.append('\n')
                    .append(wrap("Strata used the selected providers to generate the following execution plan. "
                            + "Resource actions are indicated with the following symbols:"))
                    .append('\n');
        }
        if (used.contains(Action.CREATE) || !plan.deferred().isEmpty()) {
            b.append("  ").append(style(Style.GREEN, "+")).append(" create\n");
        }
        if (used.contains(Action.UPDATE)) {
            b.append("  ").append(style(Style.YELLOW, "~")).append(" update in-place\n");
        }
        if (used.contains(Action.DELETE)) {
            b.append("  ").append(style(Style.RED, "-")).append(" destroy\n");
        }
        if (used.contains(Action.DELETE_THEN_CREATE)) {
            b.append(style(Style.RED, "-"))
                    .append('/')
                    .append(style(Style.GREEN, "+"))
                    .append(" destroy and then create replacement\n");
        }
        if (used.contains(Action.CREATE_THEN_DELETE)) {
            b.append(style(Style.GREEN, "+"))
                    .append('/')
                    .append(style(Style.RED, "-"))
                    .append(" create replacement and then destroy\n");
        }
        if (used.contains(Action.READ)) {
            b.append(" ").append(style(Style.CYAN, "<=")).append(" read (data resources)\n");
        }
        b.append(
                errored
                        ? "\nStrata planned the following actions, but then encountered a problem:\n\n"
                        : "\nStrata will perform the following actions:\n\n");
        for (ResourceChange c : shown) {
            b.append(change(c, false)).append('\n');
        }
        for (DeferredResource d : plan.deferred()) {
            b.append(style(Style.BOLD, "  # " + d.addr() + " will be created during apply"))
                    .append('\n');
            b.append("  # (")
                    .append(d.argument())
                    .append(" depends on values known after apply: ")
                    .append(String.join(", ", d.dependsOn()))
                    .append("; instances will be created during apply)\n");
            b.append("  ")
                    .append(style(Style.GREEN, "+"))
                    .append(" resource \"")
                    .append(d.addr().resource().type())
                    .append("\" \"")
                    .append(d.addr().resource().name())
                    .append("\" {\n")
                    .append("      # (instances known after apply)\n    }\n\n");
        }
        Plan.Summary s = plan.summary();
        b.append(style(Style.BOLD, "Plan:")).append(' ');
        if (s.importing() > 0) {
            b.append(s.importing()).append(" to import, ");
        }
        b.append(s.add())
                .append(" to add, ")
                .append(s.change())
                .append(" to change, ")
                .append(s.destroy())
                .append(" to destroy");
        if (s.deferred() > 0) {
            b.append(", ").append(s.deferred()).append(" deferred to apply");
        }
        b.append(".\n");
        if (outputsChange) {
            b.append("\nChanges to Outputs:\n");
            outputs(plan, b);
        }
        return b.toString();
    }

    private void outputs(Plan plan, StringBuilder b) {
        // As Terraform, names align over every output of the plan, those without a change included.
        int width = plan.outputs().values().stream()
                .mapToInt(o -> o.name().length())
                .max()
                .orElse(0);
        for (OutputChange o : plan.outputs().values()) {
            if (o.action() == Action.NO_OP) {
                continue;
            }
            ValueDiff d = ValueDiff.forOutput();
            String name = o.name() + " ".repeat(width - o.name().length());
            Value after = o.sensitive() ? o.after().mark(dev.strata.lang.value.Mark.SENSITIVE) : o.after();
            Value before = o.sensitive() ? o.before().mark(dev.strata.lang.value.Mark.SENSITIVE) : o.before();
            switch (o.action()) {
                case CREATE ->
                    b.append("  ")
                            .append(style(Style.GREEN, "+"))
                            .append(' ')
                            .append(name)
                            .append(" = ")
                            .append(d.created(after, 4))
                            .append('\n');
                case DELETE ->
                    b.append("  ")
                            .append(style(Style.RED, "-"))
                            .append(' ')
                            .append(name)
                            .append(" = ")
                            .append(d.deleted(before, 4))
                            .append(" -> null\n");
                default ->
                    b.append("  ")
                            .append(style(Style.YELLOW, "~"))
                            .append(' ')
                            .append(name)
                            .append(" = ")
                            .append(o.sensitive() ? "(sensitive value)" : d.changed(before, after, 4, ""))
                            .append('\n');
            }
        }
    }

    private String change(ResourceChange c, boolean drift) {
        StringBuilder b = new StringBuilder();
        AbsResourceInstance a = c.addr();
        String addr = c.deposed() == null ? a.toString() : a + " (deposed object " + c.deposed() + ")";
        String what = switch (c.action()) {
            case NO_OP -> c.importId() != null ? "will be imported" : "";
            case FORGET -> "will no longer be managed by Strata, but will not be destroyed";
            case CREATE -> "will be created";
            case UPDATE -> drift ? "has changed" : "will be updated in-place";
            case DELETE -> drift ? "has been deleted" : "will be destroyed";
            case DELETE_THEN_CREATE, CREATE_THEN_DELETE ->
                c.reason() != null && c.reason().equals("replace_by_request")
                        ? "will be replaced, as requested"
                        : c.reason() != null && c.reason().equals("replace_because_tainted")
                                ? "is tainted, so must be replaced"
                                : c.reason() != null && c.reason().equals("replace_by_triggers")
                                        ? "will be replaced due to changes in replace_triggered_by"
                                        : "must be replaced";
            case READ -> "will be read during apply";
        };
        if (c.previousAddr() != null && c.action() == Action.NO_OP) {
            b.append(style(Style.BOLD, "  # " + c.previousAddr() + " has moved to " + addr))
                    .append('\n');
        } else {
            b.append(style(Style.BOLD, indent(c) + "# " + addr + " " + what)).append('\n');
        }
        if (c.previousAddr() != null && c.action() != Action.NO_OP) {
            // As Terraform: a moved object that also changes is headed by its change, the move noted below.
            b.append("  # (moved from ").append(c.previousAddr()).append(")\n");
        }
        if (c.importId() != null && c.action() != Action.NO_OP) {
            b.append("  # (imported from \"").append(c.importId()).append("\")\n");
        }
        if (c.importId() != null
                && !drift
                && a.module().isRoot()
                && generated.contains(a.resource().resource())) {
            b.append("  # (config will be generated)\n");
        }
        String because = because(c);
        if (because != null && !drift) {
            b.append(indent(c)).append("# (").append(because).append(")\n");
        }
        String sym = switch (c.action()) {
            case CREATE -> "  " + style(Style.GREEN, "+");
            case UPDATE -> "  " + style(Style.YELLOW, "~");
            case DELETE -> "  " + style(Style.RED, "-");
            case DELETE_THEN_CREATE -> style(Style.RED, "-") + "/" + style(Style.GREEN, "+");
            case CREATE_THEN_DELETE -> style(Style.GREEN, "+") + "/" + style(Style.RED, "-");
            case READ -> " " + style(Style.CYAN, "<=");
            case NO_OP -> "   ";
            case FORGET -> " " + style(Style.RED, ".");
        };
        boolean data = a.resource().resource().mode() == ResourceMode.DATA;
        b.append(sym)
                .append(data ? " data \"" : " resource \"")
                .append(a.resource().resource().type())
                .append("\" \"")
                .append(a.resource().resource().name())
                .append("\" {\n");
        Set<String> forcing = Set.of();
        if (!c.replacePaths().isEmpty()) {
            forcing = new TreeSet<>();
            for (AttributePath p : c.replacePaths()) {
                forcing.add("." + p.toString());
            }
        }
        Value before = c.action() == Action.CREATE || c.action() == Action.READ ? null : c.before();
        Value after = c.action() == Action.DELETE || c.action() == Action.FORGET ? null : c.after();
        TypeSchema ts = schema(c.provider(), data, a.resource().resource().type());
        dev.strata.provider.Block schema = ts.block();
        ValueDiff d = ValueDiff.forResource(forcing, schema, ts.mayBeLegacy());
        if (c.action() == Action.FORGET) {
            d.objectBody(before, before, 6, "", true, schema);
        } else if (c.action() == Action.DELETE) {
            d.objectBody(before, null, 6, "", false, schema);
        } else {
            d.objectBody(before, after, 6, "", c.action() != Action.CREATE, schema);
        }
        b.append(d.text());
        b.append("    }\n");
        return b.toString();
    }

    /**
     * A resource type's schema as the diff needs it, looked up once per type and provider: a plan repeats
     * them (a thousand instances of one resource, one type), and the lookup and the legacy check cost
     * more than rendering a small object.
     */
    private record TypeSchema(
            dev.strata.addr.AbsProviderConfig provider,
            boolean data,
            dev.strata.provider.Block block,
            boolean mayBeLegacy) {}

    /** By resource type; a type has one entry per provider configuration and mode that renders it. */
    private final java.util.Map<String, List<TypeSchema>> typeSchemas = new java.util.HashMap<>();

    private TypeSchema schema(dev.strata.addr.AbsProviderConfig provider, boolean data, String type) {
        List<TypeSchema> known = typeSchemas.computeIfAbsent(type, t -> new java.util.ArrayList<>(1));
        for (TypeSchema ts : known) {
            if (ts.data() == data && java.util.Objects.equals(ts.provider(), provider)) {
                return ts;
            }
        }
        dev.strata.provider.Block b =
                schemas == null ? null : schemas.block(provider, data, type).orElse(null);
        TypeSchema ts = new TypeSchema(provider, data, b, b != null && ValueDiff.mayBeLegacy(b));
        known.add(ts);
        return ts;
    }

    /** Terraform 1.11 indents a forgotten object's comment lines by one space, as its symbol. */
    private static String indent(ResourceChange c) {
        return c.action() == Action.FORGET ? " " : "  ";
    }

    private static String because(ResourceChange c) {
        if (c.action() == Action.FORGET) {
            return "destroy = false is set in the configuration";
        }
        if (c.reason() == null) {
            return null;
        }
        AbsResourceInstance a = c.addr();
        return switch (c.reason()) {
            // As Terraform: the resource's name within its module, whatever module that is.
            case "delete_because_no_resource_config" ->
                "because " + a.resource().resource() + " is not in configuration";
            case "delete_because_no_module" -> "because " + a.module() + " is not in configuration";
            case "delete_because_count_index" -> "because index " + a.resource().key() + " is out of range for count";
            case "delete_because_each_key" -> "because key " + a.resource().key() + " is not in for_each map";
            case "delete_because_wrong_repetition" ->
                "because resource does not use "
                        + (a.resource().key() instanceof dev.strata.addr.InstanceKey.IntKey ? "count" : "for_each");
            case "read_because_config_unknown" -> "config refers to values not yet known";
            case "read_because_dependency_pending" -> "depends on a resource or a module with changes pending";
            default -> null;
        };
    }

    String wrap(String text) {
        // As Terraform: a column short of the width.
        return dev.strata.hcl.TextWrap.wrap(text, width() - 1, "");
    }
}
