package dev.strata.provider;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.value.Value;
import java.util.List;
import java.util.Optional;

/** Navigation of values along an {@link AttributePath} (the path type itself knows no values). */
public final class AttributePaths {

    private AttributePaths() {}

    /**
     * The value {@code path} selects in {@code root}; empty when a step does not apply (missing
     * attribute or key, index out of range) or passes through a null or unknown value.
     */
    public static Optional<Value> valueIn(AttributePath path, Value root) {
        Value cur = root;
        for (AttributePath.Step s : path.steps()) {
            if (!cur.isKnownAndNotNull()) {
                return Optional.empty();
            }
            Optional<Value> next = step(cur, s);
            if (next.isEmpty()) {
                return next;
            }
            cur = next.get();
        }
        return Optional.of(cur);
    }

    private static Optional<Value> step(Value v, AttributePath.Step s) {
        return switch (s) {
            case AttributePath.Attr a ->
                v.type() instanceof ObjectType
                        ? Optional.ofNullable(v.attributes().get(a.name()))
                        : Optional.empty();
            case AttributePath.IndexString k ->
                v.type() instanceof MapType ? Optional.ofNullable(v.attributes().get(k.key())) : Optional.empty();
            case AttributePath.IndexNumber n -> {
                if (!(v.type() instanceof ListType || v.type() instanceof TupleType)) {
                    yield Optional.empty();
                }
                int idx = n.index().intValue();
                List<Value> els = v.elements();
                yield idx >= 0 && idx < els.size() ? Optional.of(els.get(idx)) : Optional.empty();
            }
        };
    }
}
