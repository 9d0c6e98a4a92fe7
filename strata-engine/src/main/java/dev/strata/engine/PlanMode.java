package dev.strata.engine;

/** Terraform's planning modes. */
public enum PlanMode {
    NORMAL,
    DESTROY,
    REFRESH_ONLY
}
