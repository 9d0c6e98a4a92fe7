package dev.strata.addr;

/**
 * Managed resources ({@code resource} blocks), data resources ({@code data} blocks) and ephemeral
 * resources ({@code ephemeral} blocks, which exist only while one plan or apply uses them).
 */
public enum ResourceMode {
    MANAGED,
    DATA,
    EPHEMERAL;

    /** The name Terraform's JSON formats use: {@code managed} / {@code data} / {@code ephemeral}. */
    public String jsonName() {
        return switch (this) {
            case MANAGED -> "managed";
            case DATA -> "data";
            case EPHEMERAL -> "ephemeral";
        };
    }

    /** How an address of this mode starts: nothing, {@code data.} or {@code ephemeral.}. */
    public String prefix() {
        return switch (this) {
            case MANAGED -> "";
            case DATA -> "data.";
            case EPHEMERAL -> "ephemeral.";
        };
    }
}
