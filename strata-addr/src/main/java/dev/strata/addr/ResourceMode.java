package dev.strata.addr;

/** Managed resources ({@code resource} blocks) and data resources ({@code data} blocks). */
public enum ResourceMode {
    MANAGED,
    DATA;

    /** The name Terraform's JSON formats use: {@code managed} / {@code data}. */
    public String jsonName() {
        return this == MANAGED ? "managed" : "data";
    }
}
