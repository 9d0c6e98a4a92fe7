package dev.strata.cli.view;

import dev.strata.addr.AttributePath;
import dev.strata.engine.Schemas;
import dev.strata.engine.StateValues;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;
import java.util.Map;

/** The human rendering of a state for {@code strata show}: each object's attributes, secrets hidden. */
final class StateText {
    private StateText() {}

    /**
     * Terraform's layout: a blank line between the objects of one module and two before the first
     * object of each further module; attribute values in the plan's notation, with the sensitive
     * parts hidden where they are (not the whole attribute); then the root outputs.
     */
    static String render(StateSnapshot s, View view, Schemas schemas) {
        StringBuilder b = new StringBuilder();
        boolean first = true;
        dev.strata.addr.ModuleInstance module = null;
        for (ResourceState rs : s.resources()) {
            boolean newModule = !rs.module().equals(module);
            module = rs.module();
            for (ResourceInstanceObject o : rs.instances()) {
                if (!first) {
                    b.append(newModule ? "\n\n" : "\n");
                }
                first = false;
                newModule = false;
                object(b, rs, o, view, schemas);
            }
        }
        if (!s.outputs().isEmpty()) {
            b.append("\n\nOutputs:\n\n");
            s.outputs()
                    .forEach((k, o) -> b.append(k)
                            .append(" = ")
                            .append(
                                    o.sensitive()
                                            ? "(sensitive value)"
                                            : ValueDiff.forState(false).plain(StateValues.outputValue(o), 0))
                            .append('\n'));
        }
        return b.toString();
    }

    /** One object: its address (tainted or deposed said after it, as Terraform does) and its attributes. */
    static void object(StringBuilder b, ResourceState rs, ResourceInstanceObject o, View view, Schemas schemas) {
        String addr = rs.addr().instance(o.key()).toString();
        b.append(view.style(View.Style.BOLD, "# " + addr + ":"))
                .append(
                        o.deposed() != null
                                ? " (deposed object " + o.deposed() + ")"
                                : o.status() == dev.strata.state.ObjectStatus.TAINTED ? " (tainted)" : "")
                .append('\n');
        boolean data = rs.mode() == dev.strata.addr.ResourceMode.DATA;
        b.append(data ? "data" : "resource")
                .append(" \"")
                .append(rs.type())
                .append("\" \"")
                .append(rs.name())
                .append("\" {\n");
        Value v = schemas.decode(rs, o)
                .orElseGet(() -> o.attributes() == null ? flat(o) : hideAll(StateValues.infer(o.attributes()), o));
        var schema = schemas.block(rs.provider(), data, rs.type());
        // Write-only attributes are never stored; Terraform names them where the schema has them.
        java.util.Set<String> writeOnly = new java.util.TreeSet<>();
        schema.ifPresent(blk -> blk.attributes().forEach((n, a) -> {
            if (a.writeOnly()) {
                writeOnly.add(n);
            }
        }));
        if (v.isKnownAndNotNull() && v.type() instanceof ObjectType) {
            Map<String, Value> attrs = v.attributes();
            int width = attrs.entrySet().stream()
                    .filter(e -> !e.getValue().isNull() || writeOnly.contains(e.getKey()))
                    .mapToInt(e -> e.getKey().length())
                    .max()
                    .orElse(0);
            attrs.forEach((k, x) -> {
                if (x.isNull() && !writeOnly.contains(k)) {
                    return;
                }
                // A dynamically typed attribute is plain JSON to Terraform's renderer: maps look like
                // objects and null attributes stay; without a schema everything is such JSON.
                boolean dynamic = schema.map(blk -> blk.attribute(k) == null
                                || blk.attribute(k).type().hasDynamic())
                        .orElse(true);
                String shown = writeOnly.contains(k)
                        ? "(write-only attribute)"
                        : ValueDiff.forState(dynamic).plain(x, 4);
                b.append("    ")
                        .append(k)
                        .append(" ".repeat(width - k.length()))
                        .append(" = ")
                        .append(shown)
                        .append('\n');
            });
        }
        b.append("}\n");
    }

    /**
     * An object stored only in the legacy flat form ({@code attributes_flat}, from a state written before
     * Terraform 0.12 and not yet upgraded by its provider): its keys and string values as they are.
     */
    private static Value flat(ResourceInstanceObject o) {
        Map<String, Value> m = new java.util.TreeMap<>();
        if (o.attributesFlat() != null) {
            o.attributesFlat().forEach((k, x) -> m.put(k, Value.string(x)));
        }
        return Value.object(m);
    }

    /** Without a schema, every attribute named in sensitive_attributes is hidden whole. */
    private static Value hideAll(Value v, ResourceInstanceObject o) {
        if (o.sensitiveAttributes() == null || !v.isKnownAndNotNull() || !(v.type() instanceof ObjectType)) {
            return v;
        }
        Map<String, Value> m = new java.util.TreeMap<>(v.attributes());
        for (var p : o.sensitiveAttributes()) {
            if (!p.steps().isEmpty()
                    && p.steps().getFirst() instanceof AttributePath.Attr g
                    && m.containsKey(g.name())) {
                m.put(g.name(), m.get(g.name()).mark(Mark.SENSITIVE));
            }
        }
        return Value.object(m);
    }
}
