package dev.strata.config;

import dev.strata.hcl.Body;
import dev.strata.hcl.SourceRange;

/**
 * An {@code encryption} block of the root module's {@code terraform} block (OpenTofu's state
 * encryption: key providers, methods, {@code state} and its {@code fallback}). The body is decoded by
 * whoever opens the state, as the backend block's is, because it is read before variables exist.
 */
public record EncryptionConfig(Body config, SourceRange declRange) {}
