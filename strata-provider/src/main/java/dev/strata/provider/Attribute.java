package dev.strata.provider;

import dev.strata.lang.types.Type;
import java.util.Objects;

/**
 * One attribute of a block schema. Exactly one of the protocol's legal flag combinations holds:
 * required; optional; computed; or optional and computed (the provider fills it in when the
 * configuration leaves it null). Build with {@link #required}, {@link #optional},
 * {@link #computed} or {@link #optionalComputed}, then refine with the {@code with...} methods.
 *
 * <p>A write-only attribute ({@link #withWriteOnly}) is sent to the provider with the configuration
 * but never kept: the engine nulls it in planned and new states, so it appears in no plan or state.
 * Only such an attribute may take an ephemeral value.
 */
public record Attribute(
        Type type,
        boolean required,
        boolean optional,
        boolean computed,
        boolean sensitive,
        String description,
        boolean deprecated,
        boolean writeOnly) {

    public Attribute {
        Objects.requireNonNull(type, "type");
        description = description == null ? "" : description;
        if (required && (optional || computed)) {
            throw new IllegalArgumentException("a required attribute cannot be optional or computed");
        }
        if (!required && !optional && !computed) {
            throw new IllegalArgumentException("an attribute must be required, optional or computed");
        }
        if (writeOnly && computed) {
            throw new IllegalArgumentException("a write-only attribute cannot be computed");
        }
    }

    /** An attribute that is not write-only. */
    public Attribute(
            Type type,
            boolean required,
            boolean optional,
            boolean computed,
            boolean sensitive,
            String description,
            boolean deprecated) {
        this(type, required, optional, computed, sensitive, description, deprecated, false);
    }

    public static Attribute required(Type type) {
        return new Attribute(type, true, false, false, false, "", false);
    }

    public static Attribute optional(Type type) {
        return new Attribute(type, false, true, false, false, "", false);
    }

    public static Attribute computed(Type type) {
        return new Attribute(type, false, false, true, false, "", false);
    }

    public static Attribute optionalComputed(Type type) {
        return new Attribute(type, false, true, true, false, "", false);
    }

    public Attribute withSensitive() {
        return new Attribute(type, required, optional, computed, true, description, deprecated, writeOnly);
    }

    public Attribute withDescription(String text) {
        return new Attribute(type, required, optional, computed, sensitive, text, deprecated, writeOnly);
    }

    public Attribute withDeprecated() {
        return new Attribute(type, required, optional, computed, sensitive, description, true, writeOnly);
    }

    /** This attribute as write-only: configured, sent to the provider, never stored. */
    public Attribute withWriteOnly() {
        return new Attribute(type, required, optional, computed, sensitive, description, deprecated, true);
    }

    /** Whether the configuration may set this attribute. */
    public boolean configurable() {
        return required || optional;
    }

    /** Computed and not settable: the provider alone decides the value. */
    public boolean computedOnly() {
        return computed && !optional;
    }

    /**
     * The element type when this attribute is a list or set of objects, which a configuration may also write
     * as blocks (as providers written for Terraform 0.11 allow); null otherwise.
     */
    public dev.strata.lang.types.ObjectType blockElementType() {
        Type elem = switch (type) {
            case dev.strata.lang.types.ListType l -> l.elem();
            case dev.strata.lang.types.SetType s -> s.elem();
            default -> null;
        };
        return elem instanceof dev.strata.lang.types.ObjectType o ? o : null;
    }
}
