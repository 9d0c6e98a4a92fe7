package dev.strata.lang.funcs;

import dev.strata.lang.types.Type;
import java.util.Objects;

/**
 * One parameter of a function. An argument is converted to {@code type} before the function
 * sees it. Unless allowed, a null argument is an error, an unknown argument makes the result
 * unknown without calling the implementation, and marks are removed from the argument (at every
 * depth) and put on the result.
 *
 * <p>{@code allowDynamicType}: whether the implementation copes with an argument whose type is
 * not known yet (an unknown of unknown type, or the untyped {@code null} literal). Where it does
 * not, such an argument makes the whole result an unknown of unknown type, as in Terraform, where
 * {@code format("%s", local.x)} is wholly unknown while {@code local.x} is a dynamic unknown.
 * Built-ins handle dynamic arguments unless declared otherwise ({@link #rejectingDynamicType()}).
 */
public record Param(
        String name,
        Type type,
        boolean allowNull,
        boolean allowUnknown,
        boolean allowMarked,
        boolean allowDynamicType) {
    public Param {
        Objects.requireNonNull(name);
        Objects.requireNonNull(type);
    }

    public Param(String name, Type type, boolean allowNull, boolean allowUnknown, boolean allowMarked) {
        this(name, type, allowNull, allowUnknown, allowMarked, true);
    }

    public static Param of(String name, Type type) {
        return new Param(name, type, false, false, false);
    }

    public Param allowingNull() {
        return new Param(name, type, true, allowUnknown, allowMarked, allowDynamicType);
    }

    public Param allowingUnknown() {
        return new Param(name, type, allowNull, true, allowMarked, allowDynamicType);
    }

    public Param allowingMarked() {
        return new Param(name, type, allowNull, allowUnknown, true, allowDynamicType);
    }

    /** This parameter, with a dynamically typed argument making the result a dynamic unknown. */
    public Param rejectingDynamicType() {
        return new Param(name, type, allowNull, allowUnknown, allowMarked, false);
    }
}
