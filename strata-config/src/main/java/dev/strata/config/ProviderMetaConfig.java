package dev.strata.config;

import dev.strata.hcl.Body;
import dev.strata.hcl.SourceRange;

/**
 * A {@code provider_meta "NAME"} block of a module's {@code terraform} block: data the module passes to
 * the provider {@code NAME} (a local name of the module) with every request about the module's own
 * resources and data sources. The body is decoded against the provider's {@code provider_meta} schema
 * while planning, as Terraform does; {@code validate} does not look at it.
 *
 * @param name      the provider's local name, the block's label
 * @param nameRange the label's range
 */
public record ProviderMetaConfig(String name, Body config, SourceRange nameRange, SourceRange declRange) {}
