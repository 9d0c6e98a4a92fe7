package dev.strata.provider;

import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A path from the root of an object to a value inside it, as the protocol's {@code AttributePath}:
 * attribute names and element keys (a number for lists and tuples, a string for maps, the element
 * itself for sets). Used for requires-replace paths and to point diagnostics at an attribute.
 */
public record AttributePath(List<Step> steps) {

    public static final AttributePath ROOT = new AttributePath(List.of());

    /** One step of a path. */
    public sealed interface Step {}

    /** Selects an attribute of an object. */
    public record GetAttr(String name) implements Step {}

    /** Selects an element of a collection or tuple by its key. */
    public record Index(Value key) implements Step {}

    public AttributePath {
        steps = List.copyOf(steps);
    }

    /** A path of attribute names only, e.g. {@code of("rule", "cidr")}. */
    public static AttributePath of(String... names) {
        AttributePath p = ROOT;
        for (String n : names) {
            p = p.attr(n);
        }
        return p;
    }

    public AttributePath attr(String name) {
        return with(new GetAttr(name));
    }

    public AttributePath index(long i) {
        return with(new Index(Value.number(i)));
    }

    public AttributePath key(String k) {
        return with(new Index(Value.string(k)));
    }

    public AttributePath element(Value setElement) {
        return with(new Index(setElement));
    }

    private AttributePath with(Step s) {
        List<Step> l = new ArrayList<>(steps.size() + 1);
        l.addAll(steps);
        l.add(s);
        return new AttributePath(l);
    }

    public boolean isRoot() {
        return steps.isEmpty();
    }

    /** Whether this path starts with all of {@code prefix}'s steps. */
    public boolean startsWith(AttributePath prefix) {
        return prefix.steps.size() <= steps.size()
                && steps.subList(0, prefix.steps.size()).equals(prefix.steps);
    }

    /**
     * The value this path selects in {@code root}; empty when a step does not apply (missing
     * attribute or key, index out of range) or passes through a null or unknown value.
     */
    public Optional<Value> valueIn(Value root) {
        Value cur = root;
        for (Step s : steps) {
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

    private static Optional<Value> step(Value v, Step s) {
        Type t = v.type();
        return switch (s) {
            case GetAttr g ->
                t instanceof ObjectType ? Optional.ofNullable(v.attributes().get(g.name())) : Optional.empty();
            case Index i -> {
                if (t instanceof MapType
                        && i.key().type() == Type.STRING
                        && i.key().isKnownAndNotNull()) {
                    yield Optional.ofNullable(v.attributes().get(i.key().asString()));
                }
                if ((t instanceof ListType || t instanceof TupleType)
                        && i.key().type() == Type.NUMBER
                        && i.key().isKnownAndNotNull()) {
                    int idx = i.key().asNumber().intValue();
                    List<Value> els = v.elements();
                    yield idx >= 0 && idx < els.size() ? Optional.of(els.get(idx)) : Optional.empty();
                }
                if (t instanceof SetType) {
                    yield v.elements().stream()
                            .filter(e -> e.equalsIgnoringMarks(i.key()))
                            .findFirst();
                }
                yield Optional.empty();
            }
        };
    }

    /**
     * Terraform's rendering, e.g. {@code rule[0].cidr} or {@code tags["env"]}. Set elements render
     * as {@code [...]} so that a sensitive element never reaches a message.
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Step s : steps) {
            switch (s) {
                case GetAttr g -> {
                    if (!b.isEmpty()) {
                        b.append('.');
                    }
                    b.append(g.name());
                }
                case Index i -> {
                    Value k = i.key();
                    if (k.type() == Type.NUMBER && k.isKnownAndNotNull()) {
                        b.append('[').append(k.numberText()).append(']');
                    } else if (k.type() == Type.STRING && k.isKnownAndNotNull()) {
                        b.append("[\"")
                                .append(k.asString().replace("\\", "\\\\").replace("\"", "\\\""))
                                .append("\"]");
                    } else {
                        b.append("[...]");
                    }
                }
            }
        }
        return b.toString();
    }
}
