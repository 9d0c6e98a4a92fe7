package dev.strata.hcl;

/** A parsed configuration file: its body and its source, kept for rendering diagnostics. */
public record HclFile(String filename, byte[] bytes, Body body) {}
