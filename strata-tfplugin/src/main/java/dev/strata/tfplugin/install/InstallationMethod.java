package dev.strata.tfplugin.install;

import dev.strata.addr.Provider;
import java.nio.file.Path;
import java.util.List;

/**
 * One way of installing providers from a CLI configuration's {@code provider_installation} block,
 * with the providers it applies to: those matching an {@code include} pattern (all when there is
 * none) and no {@code exclude} pattern.
 */
public sealed interface InstallationMethod {

    List<ProviderPattern> include();

    List<ProviderPattern> exclude();

    /** Whether this method is to be used for {@code address}. */
    default boolean appliesTo(Provider address) {
        boolean in = include().isEmpty() || include().stream().anyMatch(p -> p.matches(address));
        return in && exclude().stream().noneMatch(p -> p.matches(address));
    }

    /** A local directory in Terraform's mirror layout (unpacked or zip packages). */
    record FilesystemMirror(Path path, List<ProviderPattern> include, List<ProviderPattern> exclude)
            implements InstallationMethod {
        public FilesystemMirror {
            include = List.copyOf(include);
            exclude = List.copyOf(exclude);
        }
    }

    /** An HTTPS mirror; Strata runs offline and cannot use it. */
    record NetworkMirror(String url, List<ProviderPattern> include, List<ProviderPattern> exclude)
            implements InstallationMethod {
        public NetworkMirror {
            include = List.copyOf(include);
            exclude = List.copyOf(exclude);
        }
    }

    /** The provider's origin registry; Strata runs offline and cannot use it. */
    record Direct(List<ProviderPattern> include, List<ProviderPattern> exclude) implements InstallationMethod {
        public Direct {
            include = List.copyOf(include);
            exclude = List.copyOf(exclude);
        }
    }
}
