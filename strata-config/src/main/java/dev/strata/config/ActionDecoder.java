package dev.strata.config;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Decodes Terraform 1.14 {@code action} blocks and {@code lifecycle { action_trigger }} blocks, and
 * checks that every trigger names declared actions, as Terraform does when it loads a module.
 */
final class ActionDecoder {
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

    private static final BodySchema ACTION = new BodySchema(
            List.of(
                    AttributeSchema.optional("count"),
                    AttributeSchema.optional("for_each"),
                    AttributeSchema.optional("provider")),
            List.of(BlockHeaderSchema.of("config")));

    private static final BodySchema TRIGGER = new BodySchema(
            List.of(
                    AttributeSchema.required("events"),
                    AttributeSchema.optional("condition"),
                    AttributeSchema.required("actions")),
            List.of());

    private final Diagnostics.Builder diags;
    private final Function<Expression, ProviderRef> providerRef;

    ActionDecoder(Diagnostics.Builder diags, Function<Expression, ProviderRef> providerRef) {
        this.diags = diags;
        this.providerRef = providerRef;
    }

    /** Decodes one {@code action} block into {@code actions}, keyed {@code TYPE.NAME}. */
    void declare(Block blk, Map<String, ActionConfig> actions) {
        String type = blk.labels().get(0);
        String name = blk.labels().get(1);
        if (!IDENT.matcher(type).matches()) {
            diags.error(
                    "Invalid action type name",
                    badIdentifier(),
                    blk.labelRanges().get(0));
        }
        if (!IDENT.matcher(name).matches()) {
            diags.error(
                    "Invalid action name", badIdentifier(), blk.labelRanges().get(1));
        }
        Result<BodyContent> r = blk.body().content(ACTION);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value();
        Attribute count = c.attributes().get("count");
        Attribute forEach = c.attributes().get("for_each");
        if (count != null && forEach != null) {
            diags.error(
                    "Invalid combination of \"count\" and \"for_each\"",
                    "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used "
                            + "to be explicit about the number of actions to be declared.",
                    forEach.nameRange());
        }
        Attribute provider = c.attributes().get("provider");
        Block config = null;
        for (Block inner : c.blocks()) {
            if (config != null) {
                diags.error(
                        "Duplicate config block",
                        "An action can have only one config block; the first one is at " + config.defRange() + ".",
                        inner.defRange());
            } else {
                config = inner;
            }
        }
        ActionConfig a = new ActionConfig(
                type,
                name,
                count == null ? null : count.expr(),
                forEach == null ? null : forEach.expr(),
                provider == null ? null : providerRef.apply(provider.expr()),
                config == null ? null : config.body(),
                blk.defRange());
        ActionConfig prev = actions.putIfAbsent(type + "." + name, a);
        if (prev != null) {
            diags.error(
                    "Duplicate action \"" + type + "\" configuration",
                    "An action named \"" + name + "\" was already declared at " + prev.declRange()
                            + ". Action names must be unique per type in each module.",
                    blk.defRange());
        }
    }

    /** Decodes a {@code lifecycle { action_trigger }} block. */
    static ActionTrigger trigger(Block blk, Diagnostics.Builder diags) {
        Result<BodyContent> r = blk.body().content(TRIGGER);
        diags.addAll(r.diagnostics());
        BodyContent c = r.value();
        List<ActionTrigger.Event> events = new ArrayList<>();
        Attribute ev = c.attributes().get("events");
        if (ev != null) {
            for (Expression e : staticList(ev, diags)) {
                ActionTrigger.Event event =
                        e.asKeyword().map(ActionTrigger.Event::of).orElse(null);
                if (event == null) {
                    diags.error(
                            "Invalid action_trigger event",
                            "Valid events are before_create, after_create, before_update and after_update.",
                            e.range());
                } else {
                    events.add(event);
                }
            }
        }
        List<Traversal> refs = new ArrayList<>();
        Attribute ac = c.attributes().get("actions");
        if (ac != null) {
            for (Expression e : staticList(ac, diags)) {
                Result<Optional<Traversal>> t = e.asTraversal();
                if (t.hasErrors()
                        || t.value().isEmpty()
                        || !isActionAddress(t.value().get())) {
                    diags.error(
                            "Invalid action reference",
                            "Each entry of \"actions\" must refer to an action block, such as "
                                    + "action.aws_lambda_invoke.example.",
                            e.range());
                } else {
                    refs.add(t.value().get());
                }
            }
        }
        Attribute cond = c.attributes().get("condition");
        return new ActionTrigger(events, cond == null ? null : cond.expr(), refs, blk.defRange());
    }

    /** Every trigger's actions must be declared in the same module. */
    void checkTriggers(Collection<ResourceConfig> resources, Map<String, ActionConfig> actions) {
        for (ResourceConfig rc : resources) {
            for (ActionTrigger at : rc.lifecycle().actionTriggers()) {
                for (Traversal t : at.actions()) {
                    String type = ((Traverser.Attr) t.steps().get(1)).name();
                    String name = ((Traverser.Attr) t.steps().get(2)).name();
                    if (!actions.containsKey(type + "." + name)) {
                        diags.error(
                                "Reference to undeclared action",
                                "There is no action \"" + type + "\" \"" + name + "\" block declared in this module.",
                                t.range());
                    }
                }
            }
        }
    }

    private static boolean isActionAddress(Traversal t) {
        List<Traverser> s = t.steps();
        return "action".equals(t.rootName())
                && s.size() >= 3
                && s.get(1) instanceof Traverser.Attr
                && s.get(2) instanceof Traverser.Attr
                && (s.size() == 3 || (s.size() == 4 && s.get(3) instanceof Traverser.Index));
    }

    private static List<Expression> staticList(Attribute a, Diagnostics.Builder diags) {
        Optional<List<Expression>> list = a.expr().asList();
        if (list.isEmpty()) {
            diags.error(
                    "Invalid expression",
                    "A static list expression is required.",
                    a.expr().range());
            return List.of();
        }
        return list.get();
    }

    private static String badIdentifier() {
        return "A name must start with a letter or underscore and may contain only letters, digits, "
                + "underscores, and dashes.";
    }
}
