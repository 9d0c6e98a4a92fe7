package dev.strata.stacks.runtime;

import dev.strata.state.JsonValue;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The components a component instance depended on when it was last applied, kept in its own part of
 * the deployment's state as a top-level member Terraform's v4 reader ignores. A later run that
 * destroys the instance through a {@code removed} block, when the configuration no longer says what
 * it depended on, destroys it only after the removed instances that depended on it.
 */
final class RecordedDependencies {
    static final String MEMBER = "strata_stack_dependencies";

    private RecordedDependencies() {}

    /** The component calls ({@code component.a}, {@code stack.x.component.a}) recorded in {@code s}, sorted. */
    static List<String> of(StateSnapshot s) {
        if (!(s.extra().get(MEMBER) instanceof JsonValue.ArrayValue a)) {
            return List.of();
        }
        TreeSet<String> out = new TreeSet<>();
        for (JsonValue v : a.items()) {
            if (v instanceof JsonValue.StringValue str) {
                out.add(str.value());
            }
        }
        return List.copyOf(out);
    }

    /** {@code s} recording {@code calls} (none: the member is left out). */
    static StateSnapshot with(StateSnapshot s, List<String> calls) {
        Map<String, JsonValue> extra = new LinkedHashMap<>(s.extra().members());
        extra.remove(MEMBER);
        if (!calls.isEmpty()) {
            List<JsonValue> items = new ArrayList<>();
            new TreeSet<>(calls).forEach(c -> items.add(new JsonValue.StringValue(c)));
            extra.put(MEMBER, new JsonValue.ArrayValue(items));
        }
        return new StateSnapshot(
                s.terraformVersion(),
                s.serial(),
                s.lineage(),
                s.outputs(),
                s.resources(),
                s.checkResults(),
                new JsonValue.ObjectValue(extra));
    }
}
