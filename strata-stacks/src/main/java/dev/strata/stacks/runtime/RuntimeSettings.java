package dev.strata.stacks.runtime;

import dev.strata.provider.ProviderSource;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What every deployment run shares: where providers come from, the version states and providers are
 * told, the environment providers see, the working directory (the stack's; states live under it) and
 * how many component instances the engine works on at once within one deployment.
 */
public record RuntimeSettings(
        ProviderSource providers, String version, Map<String, String> environment, Path workingDir, int parallelism) {
    public RuntimeSettings {
        Objects.requireNonNull(providers, "providers");
        Objects.requireNonNull(version, "version");
        environment = Map.copyOf(environment);
        workingDir = workingDir.toAbsolutePath().normalize();
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
    }
}
