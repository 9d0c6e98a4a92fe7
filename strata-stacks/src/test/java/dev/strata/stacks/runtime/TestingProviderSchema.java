package dev.strata.stacks.runtime;

import dev.strata.hcl.Diagnostics;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.stacks.config.ProviderBlock;
import dev.strata.stacks.config.StackConfig;

/**
 * Test scope only: the provider configuration schema of the {@code testing} provider that HashiCorp's
 * Stacks tests use ({@code hashicorp/testing}, {@code terraform.io/builtin/testing}), which exists only
 * inside Terraform's test suite. Its {@code config} blocks take {@code ignored},
 * {@code configure_error}, {@code require_auth} and {@code authentication}, the arguments the reference
 * configurations set.
 */
public final class TestingProviderSchema {
    private TestingProviderSchema() {}

    static final Block CONFIG = Block.builder()
            .attribute("ignored", Attribute.optional(Type.STRING))
            .attribute("configure_error", Attribute.optional(Type.STRING))
            .attribute("require_auth", Attribute.optional(Type.BOOL))
            .attribute("authentication", Attribute.optional(Type.STRING))
            .build();

    /**
     * What the runtime reports when it decodes the {@code config} blocks of {@code stack}'s (and its
     * embedded stacks') {@code testing} providers against this schema, as it does before configuring
     * them.
     */
    public static Diagnostics configBodies(StackConfig stack) {
        Diagnostics.Builder out = Diagnostics.builder();
        for (ProviderBlock b : stack.providers().values()) {
            if (b.config() != null
                    && b.provider() != null
                    && b.provider().type().equals("testing")) {
                out.addAll(ProviderConfigBody.decode(b.config(), CONFIG, a -> Value.DYNAMIC_UNKNOWN)
                        .diagnostics());
            }
        }
        stack.embeddedStacks().values().forEach(e -> {
            if (e.stack() != null) {
                out.addAll(configBodies(e.stack()));
            }
        });
        return out.build();
    }
}
