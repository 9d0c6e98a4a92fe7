package dev.strata.cli.command;

import dev.strata.cli.view.View;
import dev.strata.engine.StateValues;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.lang.value.Value;
import dev.strata.provider.ValueJson;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;

/** The human rendering of a state for {@code strata show}: each object's attributes, secrets hidden. */
final class StateText {
    private StateText() {}

    static String render(StateSnapshot s, View view) {
        StringBuilder b = new StringBuilder();
        for (ResourceState rs : s.resources()) {
            for (ResourceInstanceObject o : rs.instances()) {
                String addr = rs.addr().instance(o.key()).toString();
                b.append(view.style(View.Style.BOLD, "# " + addr + (o.deposed() != null ? " (deposed object "
                        + o.deposed() + ")" : "") + ":")).append('\n');
                String kind = rs.mode() == dev.strata.state.ResourceMode.DATA ? "data" : "resource";
                b.append(kind).append(" \"").append(rs.type()).append("\" \"").append(rs.name()).append("\" {\n");
                var node = StateValues.jsonNode(o.attributes());
                java.util.Set<String> secret = new java.util.TreeSet<>();
                if (o.sensitiveAttributes() != null) {
                    for (var p : o.sensitiveAttributes()) {
                        if (!p.steps().isEmpty() && p.steps().getFirst() instanceof dev.strata.state.AttributePath.GetAttr g) {
                            secret.add(g.name());
                        }
                    }
                }
                int width = 0;
                for (var it = node.fieldNames(); it.hasNext(); ) {
                    String k = it.next();
                    if (!node.get(k).isNull()) {
                        width = Math.max(width, k.length());
                    }
                }
                for (var it = node.fields(); it.hasNext(); ) {
                    var e = it.next();
                    if (e.getValue().isNull()) {
                        continue;
                    }
                    String shown;
                    if (secret.contains(e.getKey())) {
                        shown = "(sensitive value)";
                    } else {
                        Value v = ValueJson.fromNode(e.getValue(), dev.strata.lang.types.Type.DYNAMIC);
                        shown = ConsoleFormat.render(v).replace("\n", "\n    ");
                    }
                    b.append("    ").append(e.getKey()).append(" ".repeat(width - e.getKey().length())).append(" = ")
                            .append(shown).append('\n');
                }
                b.append("}\n\n");
            }
        }
        if (!s.outputs().isEmpty()) {
            b.append("\nOutputs:\n\n");
            s.outputs().forEach((k, o) -> b.append(k).append(" = ").append(o.sensitive() ? "(sensitive value)"
                    : ConsoleFormat.render(StateOutputs.value(o))).append('\n'));
        }
        return b.toString();
    }
}
