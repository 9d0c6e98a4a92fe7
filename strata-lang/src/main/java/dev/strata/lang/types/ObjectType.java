package dev.strata.lang.types;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An object type: named attributes, each with its own type. {@code optionalAttrs} names the
 * attributes declared with {@code optional(...)} in a type constraint; it is empty for the type
 * of an actual value. Default values for optional attributes belong to the value layer
 * ({@code dev.strata.lang.value.TypeConstraint}) because they are values.
 */
public record ObjectType(SortedMap<String, Type> attrs, Set<String> optionalAttrs) implements Type {
    public ObjectType {
        attrs = Collections.unmodifiableSortedMap(new TreeMap<>(attrs));
        // Most object types have no optional attributes: no set of their own for those (one per value built).
        optionalAttrs = optionalAttrs.isEmpty() ? Set.of() : Collections.unmodifiableSet(new TreeSet<>(optionalAttrs));
        for (String o : optionalAttrs) {
            if (!attrs.containsKey(o)) {
                throw new IllegalArgumentException("optional attribute " + o + " is not an attribute");
            }
        }
    }

    public ObjectType(Map<String, Type> attrs) {
        this(new TreeMap<>(attrs), Set.of());
    }

    public boolean hasAttr(String name) {
        return attrs.containsKey(name);
    }

    public Type attrType(String name) {
        return attrs.get(name);
    }

    public boolean isOptional(String name) {
        return optionalAttrs.contains(name);
    }

    /** The same attributes with no optional markers, as used for values. */
    public ObjectType withoutOptional() {
        return optionalAttrs.isEmpty() ? this : new ObjectType(attrs, Set.of());
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String toString() {
        return typeExpr();
    }

    /** Builds object types attribute by attribute; the entry point for a type-constraint parser. */
    public static final class Builder {
        private final SortedMap<String, Type> attrs = new TreeMap<>();
        private final Set<String> optional = new TreeSet<>();

        private Builder() {}

        public Builder attr(String name, Type type) {
            attrs.put(Objects.requireNonNull(name), Objects.requireNonNull(type));
            optional.remove(name);
            return this;
        }

        public Builder optionalAttr(String name, Type type) {
            attrs.put(Objects.requireNonNull(name), Objects.requireNonNull(type));
            optional.add(name);
            return this;
        }

        public ObjectType build() {
            return new ObjectType(attrs, optional);
        }
    }
}
