package dev.strata.lang.types;

/**
 * The dynamic pseudo-type: {@code any} in a type constraint, and the type of a value whose type
 * is not known yet (the {@code null} literal, or an unknown produced after an error).
 */
public enum DynamicType implements Type {
    INSTANCE;

    @Override
    public String toString() {
        return "dynamic";
    }
}
