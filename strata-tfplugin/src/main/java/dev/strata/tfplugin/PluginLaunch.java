package dev.strata.tfplugin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What is needed to start one provider plugin process.
 *
 * @param providerName how diagnostics and logs name the provider, e.g. {@code registry.terraform.io/hashicorp/aws}
 * @param executable the plugin binary
 * @param protocolVersions the plugin protocol major versions Strata offers, most preferred last as go-plugin expects
 * @param startTimeout how long to wait for the handshake line
 * @param shutdownTimeout how long a graceful shutdown may take before the process is killed
 * @param extraEnvironment variables added to Strata's own environment for the plugin
 */
public record PluginLaunch(String providerName, Path executable, List<Integer> protocolVersions,
                           Duration startTimeout, Duration shutdownTimeout, Map<String, String> extraEnvironment) {

    public static final List<Integer> SUPPORTED_PROTOCOLS = List.of(5, 6);

    public PluginLaunch {
        Objects.requireNonNull(providerName, "providerName");
        Objects.requireNonNull(executable, "executable");
        protocolVersions = List.copyOf(protocolVersions);
        if (protocolVersions.isEmpty() || !SUPPORTED_PROTOCOLS.containsAll(protocolVersions)) {
            throw new IllegalArgumentException("protocol versions must be a non-empty subset of " + SUPPORTED_PROTOCOLS);
        }
        Objects.requireNonNull(startTimeout, "startTimeout");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        extraEnvironment = Map.copyOf(extraEnvironment);
    }

    /** Terraform's own limits: a minute to start, a few seconds to shut down. */
    public static PluginLaunch of(String providerName, Path executable) {
        return new PluginLaunch(providerName, executable, SUPPORTED_PROTOCOLS,
            Duration.ofSeconds(60), Duration.ofSeconds(5), Map.of());
    }

    public PluginLaunch withStartTimeout(Duration timeout) {
        return new PluginLaunch(providerName, executable, protocolVersions, timeout, shutdownTimeout, extraEnvironment);
    }

    public PluginLaunch withEnvironment(Map<String, String> env) {
        return new PluginLaunch(providerName, executable, protocolVersions, startTimeout, shutdownTimeout, env);
    }
}
