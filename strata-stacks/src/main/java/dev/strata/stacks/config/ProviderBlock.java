package dev.strata.stacks.config;

import dev.strata.addr.Provider;
import dev.strata.hcl.Body;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.stacks.addr.ProviderConfigAddr;

/**
 * A {@code provider "TYPE" "NAME"} block. {@code config} is the body of its {@code config} block,
 * decoded later against the provider's schema (null when there is none).
 *
 * @param provider the provider {@code TYPE} stands for: from {@code required_providers}, or a
 *                 built-in provider
 */
public record ProviderBlock(
        ProviderConfigAddr addr,
        Provider provider,
        Expression forEach,
        Body config,
        SourceRange configRange,
        SourceRange declRange) {}
