package dev.strata.cli.view;

import dev.strata.addr.AttributePath;
import dev.strata.engine.Schemas;
import dev.strata.engine.StateValues;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;
import java.util.Map;

/** The human rendering of a state for {@code strata show}: each object's attributes, secrets hidden. */
final class StateText {
    private StateText() {}

    static String render(StateSnapshot s, View view, Schemas schemas) {
        StringBuilder b = new StringBuilder();
        for (ResourceState rs : s.resources()) {
            for (ResourceInstanceObject o : rs.instances()) {
                String addr = rs.addr().instance(o.key()).toString();
                b.append(view.style(
                                View.Style.BOLD,
                                "# " + addr + (o.deposed() != null ? " (deposed object " + o.deposed() + ")" : "")
                                        + ":"))
                        .append('\n');
                String kind = rs.mode() == dev.strata.addr.ResourceMode.DATA ? "data" : "resource";
                b.append(kind)
                        .append(" \"")
                        .append(rs.type())
                        .append("\" \"")
                        .append(rs.name())
                        .append("\" {\n");
                Value v = schemas.decode(rs, o).orElseGet(() -> hideAll(StateValues.infer(o.attributes()), o));
                // Write-only attributes are never stored; Terraform names them where the schema has them.
                java.util.Set<String> writeOnly = new java.util.TreeSet<>();
                schemas.block(rs.provider(), rs.mode() == dev.strata.addr.ResourceMode.DATA, rs.type())
                        .ifPresent(blk -> blk.attributes().forEach((n, a) -> {
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
                        String shown = writeOnly.contains(k)
                                ? "(write-only attribute)"
                                : x.hasMarkDeep(Mark.SENSITIVE)
                                        ? "(sensitive value)"
                                        : ConsoleFormat.render(x).replace("\n", "\n    ");
                        b.append("    ")
                                .append(k)
                                .append(" ".repeat(width - k.length()))
                                .append(" = ")
                                .append(shown)
                                .append('\n');
                    });
                }
                b.append("}\n\n");
            }
        }
        if (!s.outputs().isEmpty()) {
            b.append("\nOutputs:\n\n");
            s.outputs()
                    .forEach((k, o) -> b.append(k)
                            .append(" = ")
                            .append(
                                    o.sensitive()
                                            ? "(sensitive value)"
                                            : ConsoleFormat.render(StateValues.outputValue(o)))
                            .append('\n'));
        }
        return b.toString();
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
