package dev.strata.config;

import dev.strata.hcl.Body;
import dev.strata.hcl.SourceRange;

/** A {@code backend} block of the root module's {@code terraform} block; the body is the backend's. */
public record Backend(String type, Body config, SourceRange declRange) {}
