package dev.strata.cli.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.AttributePath;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.config.ConfigTree;
import dev.strata.engine.Action;
import dev.strata.engine.DeferredResource;
import dev.strata.engine.Plan;
import dev.strata.engine.RelevantAttributes;
import dev.strata.engine.ResourceChange;
import dev.strata.engine.Schemas;
import dev.strata.engine.StateValues;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.ValueJson;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Terraform's JSON plan representation ({@code format_version} 1.2), as {@code show -json} prints it,
 * so tools that read Terraform plans read Strata's. One deliberate difference: sensitive values are
 * written as {@code null} (their {@code *_sensitive} flags still say where they are), because no
 * sensitive value may appear in Strata's output.
 */
public final class PlanJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private PlanJson() {}

    public static ObjectNode of(Plan plan, ConfigTree tree, String version) {
        return of(plan, tree, version, null);
    }

    /**
     * With {@code schemas}, the prior state's objects are decoded by type as {@code terraform show -json}
     * prints them (dynamic attributes unwrapped), which Rego policies reading {@code prior_state} rely on.
     */
    public static ObjectNode of(Plan plan, ConfigTree tree, String version, Schemas schemas) {
        ObjectNode n = F.objectNode();
        n.put("format_version", "1.2");
        n.put("terraform_version", version);
        ObjectNode vars = n.putObject("variables");
        // An ephemeral variable's value is never written down, in the plan file or its JSON.
        plan.variables().forEach((k, v) -> {
            if (!v.hasMarkDeep(dev.strata.lang.value.Mark.EPHEMERAL)) {
                vars.putObject(k).set("value", json(v));
            }
        });
        n.set("planned_values", plannedValues(plan));
        if (!plan.drift().isEmpty()) {
            ArrayNode drift = n.putArray("resource_drift");
            plan.drift().stream().sorted(ResourceChange.TERRAFORM_ORDER).forEach(c -> drift.add(change(c)));
        }
        ArrayNode rc = n.putArray("resource_changes");
        plan.changes().stream().sorted(ResourceChange.TERRAFORM_ORDER).forEach(c -> rc.add(change(c)));
        if (!plan.deferred().isEmpty()) {
            ArrayNode dc = n.putArray("deferred_changes");
            for (DeferredResource d : plan.deferred()) {
                ObjectNode o = dc.addObject();
                o.put("reason", "instance_count_unknown");
                ObjectNode r = o.putObject("resource_change");
                r.put("address", d.addr().toString());
                r.put("mode", d.addr().resource().mode() == ResourceMode.DATA ? "data" : "managed");
                r.put("type", d.addr().resource().type());
                r.put("name", d.addr().resource().name());
                r.put("index_unknown", true);
                ObjectNode ch = r.putObject("change");
                ch.putArray("actions").add("create");
                ch.putNull("before");
                ch.putObject("after");
                ch.put("after_unknown", true);
                ch.put("before_sensitive", false);
                ch.put("after_sensitive", false);
            }
        }
        ObjectNode oc = n.putObject("output_changes");
        plan.outputs().forEach((k, o) -> {
            ObjectNode x = oc.putObject(k);
            ArrayNode actions = x.putArray("actions");
            o.action().jsonActions().forEach(actions::add);
            Value before = o.sensitive() ? o.before().mark(Mark.SENSITIVE) : o.before();
            Value after = o.sensitive() ? o.after().mark(Mark.SENSITIVE) : o.after();
            x.set("before", json(before));
            if (after.isKnown()) {
                x.set("after", json(after));
            }
            // As Terraform: a wholly known output is not unknown anywhere (false, not an empty shape), and an
            // output is sensitive as a whole, so both sensitivities are the output's one flag.
            x.set("after_unknown", after.isWhollyKnown() ? F.booleanNode(false) : unknown(after));
            x.put("before_sensitive", o.sensitive());
            x.put("after_sensitive", o.sensitive());
        });
        n.set("prior_state", stateJson(plan.priorState(), version, schemas));
        n.set("configuration", ConfigurationJson.of(tree, schemas));
        List<RelevantAttributes.Attr> relevant = plan.relevantAttributes().all();
        if (!relevant.isEmpty()) {
            // As Terraform: left out when nothing contributes, otherwise every attribute as a path of names,
            // keys and indexes.
            ArrayNode ra = n.putArray("relevant_attributes");
            for (RelevantAttributes.Attr a : relevant) {
                ObjectNode o = ra.addObject();
                o.put("resource", a.resource());
                ArrayNode path = o.putArray("attribute");
                for (Object step : a.path()) {
                    if (step instanceof Long l) {
                        path.add(l);
                    } else {
                        path.add(step.toString());
                    }
                }
            }
        }
        // The plan's own time (whole seconds, so ISO-8601 without fraction: RFC 3339 as Terraform prints it).
        n.put("timestamp", plan.timestamp().toString());
        // As Terraform: a plan that found errors is neither applyable nor complete, whatever it holds.
        n.put("applyable", !plan.errored() && plan.hasChanges());
        n.put("complete", !plan.errored() && plan.deferred().isEmpty());
        n.put("errored", plan.errored());
        return n;
    }

    /**
     * The parts of the plan JSON a policy reads: the variables, the root module's variable declarations
     * (for their sensitivity) and the resource changes whose type {@code types} accepts, without the
     * rest (planned values, prior state, configuration) that a large plan would spend its time on.
     */
    public static ObjectNode forPolicies(Plan plan, ConfigTree tree, java.util.function.Predicate<String> types) {
        ObjectNode n = F.objectNode();
        n.put("format_version", "1.2");
        ObjectNode vars = n.putObject("variables");
        plan.variables().forEach((k, v) -> {
            if (!v.hasMarkDeep(dev.strata.lang.value.Mark.EPHEMERAL)) {
                vars.putObject(k).set("value", json(v));
            }
        });
        ObjectNode declared =
                n.putObject("configuration").putObject("root_module").putObject("variables");
        tree.root().module().variables().forEach((k, v) -> {
            if (v.sensitive()) {
                declared.putObject(k).put("sensitive", true);
            }
        });
        ArrayNode rc = n.putArray("resource_changes");
        plan.changes().stream()
                .filter(c -> types.test(c.addr().resource().resource().type()))
                .sorted(ResourceChange.TERRAFORM_ORDER)
                .forEach(c -> rc.add(change(c)));
        return n;
    }

    static ObjectNode change(ResourceChange c) {
        ObjectNode o = F.objectNode();
        address(o, c.addr());
        if (c.previousAddr() != null) {
            o.put("previous_address", c.previousAddr().toString());
        }
        o.put("provider_name", c.provider().provider().toString());
        if (c.deposed() != null) {
            o.put("deposed", c.deposed());
        }
        ObjectNode ch = o.putObject("change");
        ArrayNode actions = ch.putArray("actions");
        c.action().jsonActions().forEach(actions::add);
        ch.set("before", json(c.before()));
        ch.set("after", json(c.after()));
        // As Terraform: a wholly known new object (or an absent one) has an empty unknown-map, without the
        // empty shapes of its collections; only an object with unknowns gets the shape that locates them.
        ch.set("after_unknown", c.after().isWhollyKnown() ? F.objectNode() : unknown(c.after()));
        ch.set("before_sensitive", sensitive(c.before()));
        ch.set("after_sensitive", sensitive(c.after()));
        if (!c.replacePaths().isEmpty()) {
            ArrayNode rp = ch.putArray("replace_paths");
            for (AttributePath p : c.replacePaths()) {
                ArrayNode a = rp.addArray();
                for (AttributePath.Step s : p.steps()) {
                    switch (s) {
                        case AttributePath.Attr g -> a.add(g.name());
                        case AttributePath.IndexString k -> a.add(k.key());
                        case AttributePath.IndexNumber n -> a.add(json(Value.number(n.index())));
                    }
                }
            }
        }
        if (c.importId() != null) {
            ch.putObject("importing").put("id", c.importId());
        }
        if (c.reason() != null) {
            o.put("action_reason", c.reason());
        }
        return o;
    }

    private static void address(ObjectNode o, AbsResourceInstance a) {
        o.put("address", a.toString());
        if (!a.module().isRoot()) {
            o.put("module_address", a.module().toString());
        }
        o.put("mode", a.resource().resource().mode() == ResourceMode.DATA ? "data" : "managed");
        o.put("type", a.resource().resource().type());
        o.put("name", a.resource().resource().name());
        switch (a.resource().key()) {
            case InstanceKey.IntKey i -> o.put("index", i.index());
            case InstanceKey.StringKey s -> o.put("index", s.key());
            case InstanceKey.NoKey n -> {}
        }
    }

    private static ObjectNode plannedValues(Plan plan) {
        ObjectNode pv = F.objectNode();
        ObjectNode outs = pv.putObject("outputs");
        plan.outputs().forEach((k, o) -> {
            if (o.action() == Action.DELETE) {
                return;
            }
            ObjectNode x = outs.putObject(k);
            x.put("sensitive", o.sensitive());
            if (o.after().isWhollyKnown()) {
                x.set("type", ValueJson.typeNode(o.after().type()));
                x.set("value", json(o.sensitive() ? o.after().mark(Mark.SENSITIVE) : o.after()));
            }
        });
        Map<ModuleInstance, List<ObjectNode>> byModule = new TreeMap<>();
        for (ResourceChange c : plan.changes()) {
            if (c.action() == Action.DELETE || c.deposed() != null) {
                continue;
            }
            ObjectNode r = F.objectNode();
            address(r, c.addr());
            r.remove("module_address");
            r.put("provider_name", c.provider().provider().toString());
            r.put("schema_version", c.schemaVersion());
            r.set("values", knownOnly(c.after()));
            r.set("sensitive_values", sensitive(c.after()));
            byModule.computeIfAbsent(c.addr().module(), m -> new ArrayList<>()).add(r);
        }
        pv.set("root_module", module(ModuleInstance.ROOT, byModule));
        return pv;
    }

    private static ObjectNode module(ModuleInstance mi, Map<ModuleInstance, List<ObjectNode>> byModule) {
        ObjectNode m = F.objectNode();
        List<ObjectNode> rs = byModule.get(mi);
        if (rs != null) {
            ArrayNode a = m.putArray("resources");
            rs.forEach(a::add);
        }
        if (!mi.isRoot()) {
            m.put("address", mi.toString());
        }
        List<ModuleInstance> children = byModule.keySet().stream()
                .filter(c ->
                        c.steps().size() == mi.steps().size() + 1 && c.parent().equals(mi))
                .toList();
        List<ModuleInstance> all = new ArrayList<>(children);
        for (ModuleInstance k : byModule.keySet()) {
            ModuleInstance x = k;
            while (x.steps().size() > mi.steps().size() + 1) {
                x = x.parent();
            }
            if (x.steps().size() == mi.steps().size() + 1 && x.parent().equals(mi) && !all.contains(x)) {
                all.add(x);
            }
        }
        if (!all.isEmpty()) {
            ArrayNode cm = m.putArray("child_modules");
            all.stream().sorted().forEach(c -> cm.add(module(c, byModule)));
        }
        return m;
    }

    /** The state representation of {@code show -json} (format 1.0). */
    public static ObjectNode stateJson(StateSnapshot s, String version) {
        return stateJson(s, version, null);
    }

    /**
     * The state as {@code terraform show -json} prints it: as {@link #stateJson(StateSnapshot, String, Schemas)},
     * but only the format version when there is nothing in it (no resources, no outputs).
     */
    public static ObjectNode showStateJson(StateSnapshot s, String version, Schemas schemas) {
        if (s.isEmpty() && s.outputs().isEmpty()) {
            ObjectNode n = F.objectNode();
            n.put("format_version", "1.0");
            return n;
        }
        return stateJson(s, version, schemas);
    }

    /** With schemas, objects are decoded by type: dynamic attributes unwrapped, sensitive values null. */
    public static ObjectNode stateJson(StateSnapshot s, String version, Schemas schemas) {
        ObjectNode n = F.objectNode();
        n.put("format_version", "1.0");
        n.put("terraform_version", version);
        if (s.isEmpty() && s.outputs().isEmpty()) {
            return n;
        }
        ObjectNode values = n.putObject("values");
        ObjectNode outs = values.putObject("outputs");
        s.outputs().forEach((k, o) -> {
            ObjectNode x = outs.putObject(k);
            x.put("sensitive", o.sensitive());
            x.set("value", o.sensitive() ? F.nullNode() : StateValues.toNode(o.value()));
            x.set("type", StateValues.toNode(o.type()));
        });
        Map<ModuleInstance, List<ObjectNode>> byModule = new TreeMap<>();
        for (ResourceState rs : s.resources()) {
            var ar = rs.addr();
            for (ResourceInstanceObject o : currentThenDeposed(rs.instances())) {
                ObjectNode r = F.objectNode();
                address(r, ar.instance(o.key()));
                r.remove("module_address");
                r.put("provider_name", rs.provider().provider().toString());
                r.put("schema_version", o.schemaVersion());
                java.util.Optional<Value> typed = schemas == null ? java.util.Optional.empty() : schemas.decode(rs, o);
                if (typed.isPresent()) {
                    r.set("values", json(typed.get()));
                    r.set("sensitive_values", sensitive(typed.get()));
                } else {
                    JsonNode attrs = StateValues.toNode(o.attributes());
                    ObjectNode sens = F.objectNode();
                    if (o.sensitiveAttributes() != null) {
                        for (var p : o.sensitiveAttributes()) {
                            redact(attrs, sens, p.steps(), 0);
                        }
                    }
                    r.set("values", attrs);
                    r.set("sensitive_values", sens);
                }
                if (o.dependencies() != null && !o.dependencies().isEmpty()) {
                    ArrayNode deps = r.putArray("depends_on");
                    o.dependencies().forEach(d -> deps.add(d.toString()));
                }
                if (o.status() == dev.strata.state.ObjectStatus.TAINTED) {
                    r.put("tainted", true);
                }
                if (o.deposed() != null) {
                    r.put("deposed_key", o.deposed());
                }
                byModule.computeIfAbsent(ar.module(), m -> new ArrayList<>()).add(r);
            }
        }
        values.set("root_module", module(ModuleInstance.ROOT, byModule));
        return n;
    }

    /**
     * The objects of a resource as Terraform's state JSON lists them: for each instance its current
     * object, then its deposed objects by key.
     */
    private static List<ResourceInstanceObject> currentThenDeposed(List<ResourceInstanceObject> objects) {
        Map<InstanceKey, List<ResourceInstanceObject>> byKey = new java.util.LinkedHashMap<>();
        for (ResourceInstanceObject o : objects) {
            byKey.computeIfAbsent(o.key(), k -> new ArrayList<>()).add(o);
        }
        List<ResourceInstanceObject> out = new ArrayList<>();
        byKey.values()
                .forEach(list -> list.stream()
                        .sorted(java.util.Comparator.comparing(
                                ResourceInstanceObject::deposed,
                                java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder())))
                        .forEach(out::add));
        return out;
    }

    private static void redact(JsonNode attrs, ObjectNode sens, List<AttributePath.Step> steps, int i) {
        if (steps.isEmpty() || !(steps.getFirst() instanceof AttributePath.Attr g)) {
            return;
        }
        if (attrs instanceof ObjectNode on && on.has(g.name())) {
            if (steps.size() == 1) {
                on.putNull(g.name());
                sens.put(g.name(), true);
            } else {
                // Deeper paths: hide the whole attribute rather than risk showing part of it.
                on.putNull(g.name());
                sens.put(g.name(), true);
            }
        }
    }

    /** A value as plain JSON: unknowns and sensitive values as null. */
    static JsonNode json(Value v) {
        if (v == null || !v.isKnown() || v.isNull() || v.isSensitive()) {
            return F.nullNode();
        }
        return switch (v.type()) {
            case ObjectType o -> {
                ObjectNode n = F.objectNode();
                v.attributes().forEach((k, e) -> {
                    if (e.isKnown()) {
                        n.set(k, json(e));
                    }
                });
                yield n;
            }
            case MapType m -> {
                ObjectNode n = F.objectNode();
                v.attributes().forEach((k, e) -> n.set(k, json(e)));
                yield n;
            }
            case ListType l -> arr(v);
            case SetType s -> arr(v);
            case TupleType t -> arr(v);
            default -> {
                if (v.type() == Type.STRING) {
                    yield F.textNode(v.asString());
                }
                if (v.type() == Type.NUMBER) {
                    yield F.numberNode(v.asNumber());
                }
                yield F.booleanNode(v.asBool());
            }
        };
    }

    private static JsonNode knownOnly(Value v) {
        return json(v);
    }

    private static ArrayNode arr(Value v) {
        ArrayNode a = F.arrayNode();
        v.elements().forEach(e -> a.add(json(e)));
        return a;
    }

    /** {@code after_unknown}: true where unknown; containers mirror the value's shape; known leaves false (omitted in objects). */
    static JsonNode unknown(Value v) {
        if (v == null) {
            return F.booleanNode(false);
        }
        if (!v.isKnown()) {
            return F.booleanNode(true);
        }
        return shape(v, true);
    }

    /** {@code *_sensitive}: true where sensitive; same shape rules. */
    static JsonNode sensitive(Value v) {
        if (v == null) {
            return F.booleanNode(false);
        }
        if (v.isSensitive()) {
            return F.booleanNode(true);
        }
        if (!v.isKnown()) {
            // Nothing is known of an unknown collection's content: an empty shape, as Terraform writes it.
            return switch (v.type()) {
                case ObjectType o -> F.objectNode();
                case MapType m -> F.objectNode();
                case ListType l -> F.arrayNode();
                case SetType st -> F.arrayNode();
                case TupleType t -> F.arrayNode();
                default -> F.booleanNode(false);
            };
        }
        return shape(v, false);
    }

    private static JsonNode shape(Value v, boolean unknowns) {
        if (v.isNull()) {
            return F.booleanNode(false);
        }
        return switch (v.type()) {
            case ObjectType o -> obj(v, unknowns);
            case MapType m -> obj(v, unknowns);
            case ListType l -> seq(v, unknowns);
            case SetType s -> seq(v, unknowns);
            case TupleType t -> seq(v, unknowns);
            default -> F.booleanNode(false);
        };
    }

    private static ObjectNode obj(Value v, boolean unknowns) {
        ObjectNode n = F.objectNode();
        v.attributes().forEach((k, e) -> {
            JsonNode x = unknowns ? unknown(e) : sensitive(e);
            if (!(x.isBoolean() && !x.booleanValue())) {
                n.set(k, x);
            }
        });
        return n;
    }

    private static ArrayNode seq(Value v, boolean unknowns) {
        ArrayNode a = F.arrayNode();
        v.elements().forEach(e -> a.add(unknowns ? unknown(e) : sensitive(e)));
        return a;
    }
}
