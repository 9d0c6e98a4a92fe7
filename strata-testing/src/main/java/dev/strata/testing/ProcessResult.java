package dev.strata.testing;

/** How a finished process ended and what it printed (stderr is empty when it went to stdout). */
public record ProcessResult(int exitCode, String stdout, String stderr) {}
