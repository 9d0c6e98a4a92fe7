package dev.strata.provider.testkit;

/** What a plan would do to one resource instance. */
public enum Action {
    NO_OP,
    CREATE,
    UPDATE,
    REPLACE,
    DELETE
}
