package dev.strata.engine;

/** What the engine does to an ephemeral resource instance, as {@link EngineEvents} report it. */
public enum EphemeralAction {
    OPEN("Opening", "Opening complete"),
    RENEW("Renewing", "Renewal complete"),
    CLOSE("Closing", "Closing complete");

    private final String progress;
    private final String complete;

    EphemeralAction(String progress, String complete) {
        this.progress = progress;
        this.complete = complete;
    }

    /** Terraform's word for it while it runs: {@code Opening}, {@code Renewing}, {@code Closing}. */
    public String progress() {
        return progress;
    }

    /** Terraform's words once it is done: {@code Opening complete}, ... */
    public String complete() {
        return complete;
    }
}
