package dev.strata.lang.value;

/**
 * A mark that travels with a value through every operation. Marks form a set on each value, so
 * adding a new kind of mark does not change the shape of values.
 */
public enum Mark {
    /** The value must never be displayed, logged or put into an error message. */
    SENSITIVE,
    /** The value exists only during one run and must not be persisted in plans or state. */
    EPHEMERAL
}
