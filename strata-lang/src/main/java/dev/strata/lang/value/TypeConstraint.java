package dev.strata.lang.value;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A type constraint as written in a variable's {@code type} argument: a type that may contain
 * {@code any} and {@code optional(T, default)} attributes, plus the defaults. {@link #convert}
 * converts a value to the type and then fills null optional attributes with their defaults, at
 * every depth (through objects, collections and tuples).
 *
 * <p>A parser builds constraints with {@link #of(Type)} for types without defaults, and with
 * {@link #object()} for object constraints attribute by attribute.
 */
public record TypeConstraint(Type type, Defaults defaults) {
    public TypeConstraint {
        Objects.requireNonNull(type);
        Objects.requireNonNull(defaults);
    }

    /**
     * Defaults for one object type constraint: default values of its own optional attributes and
     * the defaults that apply inside its attributes (keyed by attribute name), for nested objects.
     * For a collection or tuple constraint, {@code children} has the key {@code ""} for its
     * elements.
     */
    public record Defaults(SortedMap<String, Value> values, SortedMap<String, Defaults> children) {
        public static final Defaults NONE = new Defaults(new TreeMap<>(), new TreeMap<>());

        public Defaults {
            values = Collections.unmodifiableSortedMap(new TreeMap<>(values));
            children = Collections.unmodifiableSortedMap(new TreeMap<>(children));
        }

        public boolean isEmpty() {
            return values.isEmpty() && children.values().stream().allMatch(Defaults::isEmpty);
        }
    }

    public static TypeConstraint of(Type type) {
        return new TypeConstraint(type, Defaults.NONE);
    }

    /** A collection constraint whose elements have constraint {@code elem}: list(...), set(...), map(...). */
    public static TypeConstraint list(TypeConstraint elem) {
        return new TypeConstraint(Type.list(elem.type()), elementDefaults(elem));
    }

    public static TypeConstraint set(TypeConstraint elem) {
        return new TypeConstraint(Type.set(elem.type()), elementDefaults(elem));
    }

    public static TypeConstraint map(TypeConstraint elem) {
        return new TypeConstraint(Type.map(elem.type()), elementDefaults(elem));
    }

    private static Defaults elementDefaults(TypeConstraint elem) {
        return elem.defaults().isEmpty()
                ? Defaults.NONE
                : new Defaults(new TreeMap<>(), new TreeMap<>(Map.of("", elem.defaults())));
    }

    public static ObjectBuilder object() {
        return new ObjectBuilder();
    }

    /** Converts {@code v} to this constraint's type and applies the defaults. */
    public ConversionResult convert(Value v) {
        ConversionResult r = Convert.convert(v, type);
        if (!r.isOk() || defaults.isEmpty()) {
            return r;
        }
        return new ConversionResult.Ok(apply(r.value(), defaults));
    }

    private static Value apply(Value v, Defaults d) {
        if (v.isNull() || !v.isKnown() || d.isEmpty()) {
            return v;
        }
        Value raw = v.unmark();
        Value out = switch (raw.type()) {
            case ObjectType o -> {
                Map<String, Value> attrs = new LinkedHashMap<>();
                raw.attributes().forEach((k, a) -> {
                    Value x = a;
                    if (x.isNull() && d.values().containsKey(k)) {
                        x = Convert.convert(d.values().get(k), o.attrType(k)).value();
                    }
                    Defaults child = d.children().get(k);
                    attrs.put(k, child == null ? x : apply(x, child));
                });
                yield Value.object(attrs);
            }
            case ListType l -> {
                Defaults e = d.children().get("");
                yield e == null ? raw : listOf(raw.elements(), e, true);
            }
            case SetType s -> {
                Defaults e = d.children().get("");
                yield e == null ? raw : listOf(raw.elements(), e, false);
            }
            case MapType m -> {
                Defaults e = d.children().get("");
                if (e == null) {
                    yield raw;
                }
                Map<String, Value> out2 = new LinkedHashMap<>();
                raw.attributes().forEach((k, x) -> out2.put(k, apply(x, e)));
                yield Value.map(m.elem(), out2);
            }
            case TupleType t -> {
                List<Value> out2 = new ArrayList<>();
                List<Value> es = raw.elements();
                for (int i = 0; i < es.size(); i++) {
                    Defaults e = d.children().get(Integer.toString(i));
                    out2.add(e == null ? es.get(i) : apply(es.get(i), e));
                }
                yield Value.tuple(out2);
            }
            case PrimitiveType prim0 -> raw;
            case DynamicType dyna0 -> raw;
        };
        return out.withMarks(v.marks());
    }

    private static Value listOf(List<Value> es, Defaults e, boolean list) {
        List<Value> out = new ArrayList<>();
        es.forEach(x -> out.add(apply(x, e)));
        Type elem = out.isEmpty() ? Type.DYNAMIC : out.get(0).type();
        return list ? Value.list(elem, out) : Value.set(elem, out);
    }

    /** Builds an object type constraint; the entry point for a parser of {@code object({...})}. */
    public static final class ObjectBuilder {
        private final ObjectType.Builder type = ObjectType.builder();
        private final SortedMap<String, Value> values = new TreeMap<>();
        private final SortedMap<String, Defaults> children = new TreeMap<>();

        private ObjectBuilder() {}

        /** A required attribute. */
        public ObjectBuilder attr(String name, TypeConstraint c) {
            type.attr(name, c.type());
            child(name, c);
            return this;
        }

        /** {@code optional(T)}: missing or null means null. */
        public ObjectBuilder optional(String name, TypeConstraint c) {
            type.optionalAttr(name, c.type());
            child(name, c);
            return this;
        }

        /** {@code optional(T, default)}: missing or null means {@code dflt}, converted to T. */
        public ObjectBuilder optional(String name, TypeConstraint c, Value dflt) {
            ConversionResult r = Convert.convert(dflt, c.type());
            if (!r.isOk()) {
                throw new IllegalArgumentException("default for " + name + " does not convert to its type: "
                        + ((ConversionResult.Failed) r).message());
            }
            type.optionalAttr(name, c.type());
            values.put(name, r.value());
            child(name, c);
            return this;
        }

        private void child(String name, TypeConstraint c) {
            if (!c.defaults().isEmpty()) {
                children.put(name, c.defaults());
            }
        }

        public TypeConstraint build() {
            return new TypeConstraint(type.build(), new Defaults(values, children));
        }
    }
}
