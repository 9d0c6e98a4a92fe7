package dev.strata.tfplugin.install;

import java.util.Locale;
import java.util.Optional;

/** A provider source address, {@code hostname/namespace/type}; the hostname defaults to the public registry. */
public record ProviderAddress(String hostname, String namespace, String type) implements Comparable<ProviderAddress> {
    public static final String DEFAULT_HOSTNAME = "registry.terraform.io";

    public ProviderAddress {
        // Terraform compares addresses case-insensitively and writes them in lower case.
        hostname = hostname.toLowerCase(Locale.ROOT);
        namespace = namespace.toLowerCase(Locale.ROOT);
        type = type.toLowerCase(Locale.ROOT);
    }

    /** Parses {@code type}, {@code namespace/type} or {@code hostname/namespace/type}. */
    public static Optional<ProviderAddress> parse(String source) {
        String[] p = source.split("/", -1);
        for (String part : p) {
            if (part.isEmpty() || !part.matches("[A-Za-z0-9._-]+")) {
                return Optional.empty();
            }
        }
        return switch (p.length) {
            case 1 -> Optional.of(new ProviderAddress(DEFAULT_HOSTNAME, "hashicorp", p[0]));
            case 2 -> Optional.of(new ProviderAddress(DEFAULT_HOSTNAME, p[0], p[1]));
            case 3 -> Optional.of(new ProviderAddress(p[0], p[1], p[2]));
            default -> Optional.empty();
        };
    }

    @Override
    public int compareTo(ProviderAddress o) {
        return toString().compareTo(o.toString());
    }

    @Override
    public String toString() {
        return hostname + "/" + namespace + "/" + type;
    }
}
