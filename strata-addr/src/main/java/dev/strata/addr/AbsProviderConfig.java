package dev.strata.addr;

/**
 * A provider configuration in the whole configuration, as state records it:
 * {@code module.net.provider["registry.terraform.io/hashicorp/aws"].west}.
 */
public record AbsProviderConfig(Module module, Provider provider, String alias)
        implements Comparable<AbsProviderConfig> {
    public AbsProviderConfig {
        java.util.Objects.requireNonNull(module);
        java.util.Objects.requireNonNull(provider);
        alias = alias == null || alias.isEmpty() ? null : alias;
    }

    @Override
    public int compareTo(AbsProviderConfig o) {
        int c = module.compareTo(o.module);
        if (c == 0) {
            c = provider.compareTo(o.provider);
        }
        return c != 0 ? c : String.valueOf(alias).compareTo(String.valueOf(o.alias));
    }

    @Override
    public String toString() {
        String s = "provider[\"" + provider + "\"]" + (alias == null ? "" : "." + alias);
        return module.isRoot() ? s : module + "." + s;
    }
}
