package dev.strata.hcl;

public enum Severity {
    ERROR,
    WARNING
}
