package dev.strata.state;

/** Whether a resource instance object is usable, or must be replaced on the next apply. */
public enum ObjectStatus {
    /** Written as an absent {@code status}. */
    READY,
    /** Written as {@code "status": "tainted"}. */
    TAINTED
}
