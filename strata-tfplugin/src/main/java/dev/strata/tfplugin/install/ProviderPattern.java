package dev.strata.tfplugin.install;

import dev.strata.addr.Provider;
import java.util.Locale;
import java.util.Optional;

/**
 * A provider address pattern of {@code include}/{@code exclude}: {@code [hostname/]namespace/type}
 * where the namespace and type may be {@code *} (a wildcard namespace needs a wildcard type, as in
 * Terraform); the hostname defaults to the public registry.
 */
public record ProviderPattern(String hostname, String namespace, String type) {

    public static Optional<ProviderPattern> parse(String text) {
        String[] p = text.trim().toLowerCase(Locale.ROOT).split("/", -1);
        String host;
        String ns;
        String type;
        switch (p.length) {
            case 2 -> {
                host = Provider.DEFAULT_HOSTNAME;
                ns = p[0];
                type = p[1];
            }
            case 3 -> {
                host = p[0];
                ns = p[1];
                type = p[2];
            }
            default -> {
                return Optional.empty();
            }
        }
        if (host.isEmpty()
                || host.equals("*")
                || ns.isEmpty()
                || type.isEmpty()
                || (ns.equals("*") && !type.equals("*"))) {
            return Optional.empty();
        }
        return Optional.of(new ProviderPattern(host, ns, type));
    }

    public boolean matches(Provider a) {
        return hostname.equals(a.hostname())
                && (namespace.equals("*") || namespace.equals(a.namespace()))
                && (type.equals("*") || type.equals(a.type()));
    }

    @Override
    public String toString() {
        return hostname + "/" + namespace + "/" + type;
    }
}
