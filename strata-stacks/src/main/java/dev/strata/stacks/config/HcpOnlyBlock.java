package dev.strata.stacks.config;

import dev.strata.hcl.Body;
import dev.strata.hcl.SourceRange;
import java.util.List;

/**
 * A block only HCP Terraform can act on ({@code identity_token}, {@code orchestrate}). It loads, so a
 * configuration written for HCP Terraform still validates; using it (referring to
 * {@code identity_token.NAME}) is the error.
 */
public record HcpOnlyBlock(String type, List<String> labels, Body body, SourceRange declRange) {
    public HcpOnlyBlock {
        labels = List.copyOf(labels);
    }
}
