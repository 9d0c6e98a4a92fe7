package dev.strata.engine;

/** What the engine does to an ephemeral resource instance, as {@link EngineEvents} report it. */
public enum EphemeralAction {
    OPEN("Opening", "Opening complete", "Opening errored"),
    RENEW("Renewing", "Renewal complete", "Renewing errored"),
    CLOSE("Closing", "Closing complete", "Closing errored");

    private final String progress;
    private final String complete;
    private final String errored;

    EphemeralAction(String progress, String complete, String errored) {
        this.progress = progress;
        this.complete = complete;
        this.errored = errored;
    }

    /** Terraform's words when it failed: {@code Opening errored}, ... */
    public String errored() {
        return errored;
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
