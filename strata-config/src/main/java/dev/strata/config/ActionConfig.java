package dev.strata.config;

import dev.strata.hcl.Body;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/**
 * An {@code action "TYPE" "NAME"} block (Terraform 1.14): a provider-defined operation that a
 * resource's {@code lifecycle { action_trigger }} invokes. {@code provider} is null when the
 * action uses the provider its type implies; {@code config} is null without a {@code config} block.
 */
public record ActionConfig(
        String type,
        String name,
        Expression count,
        Expression forEach,
        ProviderRef provider,
        Body config,
        SourceRange declRange) {

    /** The address Terraform writes for it, {@code action.TYPE.NAME}. */
    public String address() {
        return "action." + type + "." + name;
    }
}
