package dev.strata.addr;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A provider's source address, {@code hostname/namespace/type} such as
 * {@code registry.terraform.io/hashicorp/aws}. Parsed from a {@code required_providers} {@code source}
 * (where the hostname and the namespace may be omitted) or implied from a local name.
 */
public record Provider(String hostname, String namespace, String type) implements Comparable<Provider> {
    public static final String DEFAULT_HOSTNAME = "registry.terraform.io";
    public static final String DEFAULT_NAMESPACE = "hashicorp";
    /** The built-in {@code terraform} provider (terraform_data, terraform_remote_state). */
    public static final Provider BUILTIN_TERRAFORM = new Provider("terraform.io", "builtin", "terraform");

    private static final Pattern PART = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?");
    private static final Pattern HOST = Pattern.compile("[a-z0-9.-]+(?::[0-9]+)?");
    private static final Comparator<Provider> ORDER = Comparator.comparing(Provider::hostname)
            .thenComparing(Provider::namespace)
            .thenComparing(Provider::type);

    /**
     * The provider a local name means when {@code required_providers} does not say: the
     * {@code hashicorp} namespace of the public registry, except {@code terraform} which is built in.
     */
    public static Provider implied(String localName) {
        if (localName.equals("terraform")) {
            return BUILTIN_TERRAFORM;
        }
        return hashicorp(localName);
    }

    /** {@code registry.terraform.io/hashicorp/<type>}. */
    public static Provider hashicorp(String type) {
        return new Provider(DEFAULT_HOSTNAME, DEFAULT_NAMESPACE, type);
    }

    /**
     * The provider Terraform assumes for a resource type that no {@code required_providers} entry
     * claims: the type name up to its first underscore, in the {@code hashicorp} namespace
     * ({@code random_pet} → {@code hashicorp/random}), except the built-in {@code terraform}.
     */
    public static Provider impliedFor(String resourceType) {
        int u = resourceType.indexOf('_');
        return implied((u < 0 ? resourceType : resourceType.substring(0, u)).toLowerCase(Locale.ROOT));
    }

    /**
     * Reads an address where Strata only looks a provider up (the lock file, the CLI configuration's
     * {@code dev_overrides}): {@code type}, {@code namespace/type} or {@code hostname/namespace/type}, each part
     * letters, digits, dots, dashes or underscores in any case, kept in lower case; empty if it is not one.
     * A configuration's {@code source} is read by the stricter {@link #parse}.
     */
    public static Optional<Provider> lookup(String source) {
        String[] p = source.toLowerCase(Locale.ROOT).split("/", -1);
        for (String part : p) {
            if (part.isEmpty() || !part.matches("[a-z0-9._-]+")) {
                return Optional.empty();
            }
        }
        return switch (p.length) {
            case 1 -> Optional.of(hashicorp(p[0]));
            case 2 -> Optional.of(new Provider(DEFAULT_HOSTNAME, p[0], p[1]));
            case 3 -> Optional.of(new Provider(p[0], p[1], p[2]));
            default -> Optional.empty();
        };
    }

    /** {@link #parse(String, SourceRange)} where there is no source to point at. */
    public static Result<Provider> parse(String source) {
        return parse(source, null);
    }

    /** Parses {@code type}, {@code namespace/type} or {@code hostname/namespace/type}. */
    public static Result<Provider> parse(String source, SourceRange range) {
        String[] parts = source.split("/", -1);
        if (parts.length < 1 || parts.length > 3) {
            return invalid(source, "it must be in the form [hostname/]namespace/type", range);
        }
        String type = parts[parts.length - 1].toLowerCase(Locale.ROOT);
        String ns = parts.length >= 2 ? parts[parts.length - 2].toLowerCase(Locale.ROOT) : DEFAULT_NAMESPACE;
        String host = parts.length == 3 ? parts[0].toLowerCase(Locale.ROOT) : DEFAULT_HOSTNAME;
        if (!PART.matcher(type).matches()) {
            return invalid(
                    source,
                    "the provider type \"" + parts[parts.length - 1]
                            + "\" must contain only letters, digits and dashes, and begin and end with a letter or digit",
                    range);
        }
        if (!PART.matcher(ns).matches() && !ns.equals("-")) {
            return invalid(
                    source,
                    "the namespace \"" + parts[parts.length - 2]
                            + "\" must contain only letters, digits and dashes, and begin and end with a letter or digit",
                    range);
        }
        if (!HOST.matcher(host).matches()) {
            return invalid(source, "\"" + parts[0] + "\" is not a valid hostname", range);
        }
        if (type.startsWith("terraform-provider-")) {
            return invalid(
                    source,
                    "the provider type must not start with \"terraform-provider-\"; use \""
                            + type.substring("terraform-provider-".length()) + "\"",
                    range);
        }
        // As Terraform, any built-in name parses; whether this version has that provider is asked when the
        // providers are resolved (init, validate), see isKnownBuiltIn.
        return Result.of(new Provider(host, ns, type));
    }

    private static Result<Provider> invalid(String source, String why, SourceRange range) {
        return Result.of(
                null,
                Diagnostics.of(Diagnostic.error(
                        "Invalid provider source address",
                        "The source address \"" + source + "\" is not valid: " + why + ".",
                        range)));
    }

    /** Whether this is a built-in provider that Strata has (only {@code terraform.io/builtin/terraform}). */
    public boolean isKnownBuiltIn() {
        return equals(BUILTIN_TERRAFORM);
    }

    public boolean isBuiltIn() {
        return hostname.equals("terraform.io") && namespace.equals("builtin");
    }

    /** The short form Terraform shows users: {@code hashicorp/aws} on the public registry. */
    public String forDisplay() {
        return hostname.equals(DEFAULT_HOSTNAME) ? namespace + "/" + type : toString();
    }

    @Override
    public int compareTo(Provider o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return hostname + "/" + namespace + "/" + type;
    }
}
