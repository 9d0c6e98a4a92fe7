package dev.strata.provider;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A provider source address, {@code hostname/namespace/type}, as written in
 * {@code required_providers} (Terraform's {@code tfaddr.Provider}). The hostname defaults to the
 * public registry and may be left out ({@code hashicorp/random}); a lone type is the legacy form
 * for {@code hashicorp/<type>}. Addresses compare case-insensitively, so they are kept in lower
 * case.
 */
public record ProviderAddress(String hostname, String namespace, String type) implements Comparable<ProviderAddress> {

    public static final String DEFAULT_HOSTNAME = "registry.terraform.io";
    public static final String BUILTIN_HOSTNAME = "terraform.io";
    public static final String BUILTIN_NAMESPACE = "builtin";

    /** The provider built into Terraform, which owns {@code terraform_data} and {@code terraform_remote_state}. */
    public static final ProviderAddress TERRAFORM =
            new ProviderAddress(BUILTIN_HOSTNAME, BUILTIN_NAMESPACE, "terraform");

    private static final Pattern PART = Pattern.compile("[a-z0-9](?:[a-z0-9-]*[a-z0-9])?");
    private static final Pattern HOST = Pattern.compile("[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::[0-9]+)?");

    public ProviderAddress {
        Objects.requireNonNull(hostname, "hostname");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(type, "type");
    }

    /** {@code registry.terraform.io/hashicorp/<type>}. */
    public static ProviderAddress hashicorp(String type) {
        return new ProviderAddress(DEFAULT_HOSTNAME, "hashicorp", type);
    }

    /**
     * The provider Terraform assumes for a resource type that no {@code required_providers} entry
     * claims: the type name up to its first underscore, in the {@code hashicorp} namespace
     * ({@code random_pet} → {@code hashicorp/random}), except the built-in {@code terraform}.
     */
    public static ProviderAddress impliedFor(String resourceType) {
        int u = resourceType.indexOf('_');
        String prefix = (u < 0 ? resourceType : resourceType.substring(0, u)).toLowerCase(Locale.ROOT);
        return prefix.equals("terraform") ? TERRAFORM : hashicorp(prefix);
    }

    /** Parses a source address; errors name the part that is wrong. */
    public static Result<ProviderAddress> parse(String source) {
        String s = source.trim().toLowerCase(Locale.ROOT);
        String[] parts = s.split("/", -1);
        String host;
        String ns;
        String type;
        switch (parts.length) {
            case 1 -> {
                host = DEFAULT_HOSTNAME;
                ns = "hashicorp";
                type = parts[0];
            }
            case 2 -> {
                host = DEFAULT_HOSTNAME;
                ns = parts[0];
                type = parts[1];
            }
            case 3 -> {
                host = parts[0];
                ns = parts[1];
                type = parts[2];
            }
            default -> {
                return invalid(
                        source,
                        "A source address has at most three parts: hostname, namespace and type,"
                                + " separated by slashes, like \"hashicorp/random\".");
            }
        }
        if (!HOST.matcher(host).matches()) {
            return invalid(source, "\"" + host + "\" is not a valid hostname.");
        }
        if (!PART.matcher(ns).matches()) {
            return invalid(
                    source,
                    "The namespace \"" + ns + "\" may contain only letters, digits and dashes,"
                            + " and may not start or end with a dash.");
        }
        if (!PART.matcher(type).matches()) {
            return invalid(
                    source,
                    "The provider type \"" + type + "\" may contain only letters, digits and dashes,"
                            + " and may not start or end with a dash.");
        }
        if (type.startsWith("terraform-provider-")) {
            return invalid(
                    source,
                    "The provider type must not include the \"terraform-provider-\" prefix; did you mean \"" + ns + "/"
                            + type.substring("terraform-provider-".length()) + "\"?");
        }
        return Result.of(new ProviderAddress(host, ns, type));
    }

    /**
     * Reads an address where Strata only looks a provider up (the lock file, the CLI configuration's
     * {@code dev_overrides}): {@code type}, {@code namespace/type} or {@code hostname/namespace/type}, each part
     * letters, digits, dots, dashes or underscores in any case, kept in lower case; empty if it is not one.
     * A configuration's {@code source} is read by the stricter {@link #parse}.
     */
    public static Optional<ProviderAddress> lookup(String source) {
        String[] p = source.toLowerCase(Locale.ROOT).split("/", -1);
        for (String part : p) {
            if (part.isEmpty() || !part.matches("[a-z0-9._-]+")) {
                return Optional.empty();
            }
        }
        return switch (p.length) {
            case 1 -> Optional.of(hashicorp(p[0]));
            case 2 -> Optional.of(new ProviderAddress(DEFAULT_HOSTNAME, p[0], p[1]));
            case 3 -> Optional.of(new ProviderAddress(p[0], p[1], p[2]));
            default -> Optional.empty();
        };
    }

    private static Result<ProviderAddress> invalid(String source, String detail) {
        return Result.of(
                null,
                Diagnostics.of(Diagnostic.error(
                        "Invalid provider source address",
                        "The source address \"" + source + "\" is not valid. " + detail,
                        null)));
    }

    public boolean isBuiltin() {
        return hostname.equals(BUILTIN_HOSTNAME) && namespace.equals(BUILTIN_NAMESPACE);
    }

    /** The short form users write: the hostname only when it is not the public registry's. */
    public String forDisplay() {
        return hostname.equals(DEFAULT_HOSTNAME) ? namespace + "/" + type : toString();
    }

    /** The fully qualified form, as state files record it. */
    @Override
    public String toString() {
        return hostname + "/" + namespace + "/" + type;
    }

    @Override
    public int compareTo(ProviderAddress o) {
        return toString().compareTo(o.toString());
    }
}
