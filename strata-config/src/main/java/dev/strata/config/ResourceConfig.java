package dev.strata.config;

import dev.strata.addr.LocalProviderConfig;
import dev.strata.addr.Resource;
import dev.strata.hcl.Body;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import java.util.List;

/**
 * A {@code resource} or {@code data} block: its address, meta-arguments, and the rest of the body
 * ({@code config}, including {@code dynamic} blocks) kept for decoding against the provider's schema.
 * {@code provisioners} are its {@code provisioner} blocks in order, {@code connection} its resource-level
 * {@code connection} block (null when there is none).
 */
public record ResourceConfig(
        Resource addr,
        Expression count,
        Expression forEach,
        List<Traversal> dependsOn,
        ProviderRef provider,
        Lifecycle lifecycle,
        Body config,
        SourceRange declRange,
        SourceRange typeRange,
        List<Provisioner> provisioners,
        Provisioner.Connection connection) {
    public ResourceConfig {
        dependsOn = List.copyOf(dependsOn);
        provisioners = List.copyOf(provisioners);
    }

    /** The provisioners that run at {@code when}, in their order in the block. */
    public List<Provisioner> provisioners(Provisioner.When when) {
        return provisioners.stream().filter(p -> p.when() == when).toList();
    }

    /** Whether {@code count} or {@code for_each} is set, so references need an instance key (§3.6). */
    public boolean isInstanced() {
        return count != null || forEach != null;
    }

    /** The provider configuration this resource uses: the explicit one, or the one its type implies. */
    public LocalProviderConfig providerConfig() {
        return provider != null ? provider.config() : LocalProviderConfig.of(addr.impliedProviderName());
    }
}
