package dev.strata.provider;

import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A block schema: attributes and nested block types by name. Names are unique across both. The
 * value of a block is an object of {@link #impliedType()}.
 */
public record Block(
        SortedMap<String, Attribute> attributes,
        SortedMap<String, NestedBlock> blockTypes,
        String description,
        boolean deprecated) {

    public Block {
        attributes = Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
        blockTypes = Collections.unmodifiableSortedMap(new TreeMap<>(blockTypes));
        description = description == null ? "" : description;
        for (String name : blockTypes.keySet()) {
            if (attributes.containsKey(name)) {
                throw new IllegalArgumentException(name + " is both an attribute and a block type");
            }
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Attribute attribute(String name) {
        return attributes.get(name);
    }

    public NestedBlock blockType(String name) {
        return blockTypes.get(name);
    }

    /**
     * How HCL finds this block's nested block types in a body: by type name, with one label (the key) for
     * a map-nested type.
     */
    public List<dev.strata.hcl.BlockHeaderSchema> blockHeaders() {
        return blockTypes.entrySet().stream()
                .map(e -> e.getValue().nesting() == NestingMode.MAP
                        ? dev.strata.hcl.BlockHeaderSchema.of(e.getKey(), "key")
                        : dev.strata.hcl.BlockHeaderSchema.of(e.getKey()))
                .toList();
    }

    /** Whether this block or one nested in it has a write-only attribute. */
    public boolean hasWriteOnly() {
        return attributes.values().stream().anyMatch(Attribute::writeOnly)
                || blockTypes.values().stream().anyMatch(nb -> nb.block().hasWriteOnly());
    }

    /** Whether this block or one nested in it has a sensitive attribute. */
    public boolean hasSensitive() {
        return attributes.values().stream().anyMatch(Attribute::sensitive)
                || blockTypes.values().stream().anyMatch(nb -> nb.block().hasSensitive());
    }

    /**
     * The object type a value of this block has: each attribute's type, and for each nested block
     * an object (single), a list, set or map of objects. As in Terraform, a list of blocks whose
     * type contains the dynamic pseudo-type is a tuple and a map of them an object, because their
     * elements may differ in type; here such blocks keep the dynamic type per element instead.
     */
    public ObjectType impliedType() {
        SortedMap<String, Type> attrs = new TreeMap<>();
        attributes.forEach((name, a) -> attrs.put(name, a.type()));
        blockTypes.forEach((name, nb) -> attrs.put(name, nestedType(nb)));
        return new ObjectType(attrs);
    }

    static Type nestedType(NestedBlock nb) {
        ObjectType elem = nb.block().impliedType();
        return switch (nb.nesting()) {
            case SINGLE -> elem;
            case LIST -> Type.list(elem);
            case SET -> Type.set(elem);
            case MAP -> Type.map(elem);
        };
    }

    /**
     * The value of this block with nothing set: attributes null, single blocks null, and
     * collections of blocks empty, as Terraform decodes a body that sets nothing.
     */
    public Value emptyValue() {
        Map<String, Value> m = new TreeMap<>();
        attributes.forEach((name, a) -> m.put(name, Value.nullValue(a.type())));
        blockTypes.forEach((name, nb) -> m.put(name, emptyNested(nb)));
        return Value.object(m);
    }

    static Value emptyNested(NestedBlock nb) {
        ObjectType elem = nb.block().impliedType();
        return switch (nb.nesting()) {
            case SINGLE -> Value.nullValue(elem);
            case LIST -> Value.list(elem, List.of());
            case SET -> Value.set(elem, List.of());
            case MAP -> Value.map(elem, Map.of());
        };
    }

    /** The null object of this block's type: the state of an object that does not exist. */
    public Value nullValue() {
        return Value.nullValue(impliedType());
    }

    /** Builds block schemas in code. */
    public static final class Builder {
        private final SortedMap<String, Attribute> attributes = new TreeMap<>();
        private final SortedMap<String, NestedBlock> blockTypes = new TreeMap<>();
        private String description = "";
        private boolean deprecated;

        private Builder() {}

        public Builder attribute(String name, Attribute attribute) {
            attributes.put(Objects.requireNonNull(name), Objects.requireNonNull(attribute));
            return this;
        }

        public Builder block(String name, NestedBlock block) {
            blockTypes.put(Objects.requireNonNull(name), Objects.requireNonNull(block));
            return this;
        }

        public Builder description(String text) {
            description = text;
            return this;
        }

        public Builder deprecated() {
            deprecated = true;
            return this;
        }

        public Block build() {
            return new Block(attributes, blockTypes, description, deprecated);
        }
    }
}
