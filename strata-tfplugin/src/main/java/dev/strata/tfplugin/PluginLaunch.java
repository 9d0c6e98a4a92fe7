package dev.strata.tfplugin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What is needed to start one provider plugin process.
 *
 * <p>Like Terraform, Strata runs a plugin in the working directory of the run and with the
 * environment Strata itself was given, so that relative paths in provider configuration (a shared
 * credentials file, {@code file("...")}-based settings) and variables such as
 * {@code AWS_ACCESS_KEY_ID} resolve as they do under Terraform. Both are explicit, not taken from
 * the JVM: an embedding program or a test passes the ones it means.
 *
 * @param providerName how diagnostics and logs name the provider, e.g. {@code registry.terraform.io/hashicorp/aws}
 * @param executable the plugin binary
 * @param protocolVersions the plugin protocol major versions Strata offers, most preferred last as go-plugin expects
 * @param startTimeout how long to wait for the handshake line
 * @param shutdownTimeout how long a graceful shutdown may take before the process is killed
 * @param extraEnvironment variables added to the plugin's environment on top of {@code environment}
 * @param workingDirectory the plugin's current directory; null for the JVM's
 * @param environment the plugin's environment before {@code extraEnvironment} and go-plugin's own
 *                    variables are added; null for the JVM's
 */
public record PluginLaunch(
        String providerName,
        Path executable,
        List<Integer> protocolVersions,
        Duration startTimeout,
        Duration shutdownTimeout,
        Map<String, String> extraEnvironment,
        Path workingDirectory,
        Map<String, String> environment) {

    public static final List<Integer> SUPPORTED_PROTOCOLS = List.of(5, 6);

    public PluginLaunch {
        Objects.requireNonNull(providerName, "providerName");
        Objects.requireNonNull(executable, "executable");
        protocolVersions = List.copyOf(protocolVersions);
        if (protocolVersions.isEmpty() || !SUPPORTED_PROTOCOLS.containsAll(protocolVersions)) {
            throw new IllegalArgumentException(
                    "protocol versions must be a non-empty subset of " + SUPPORTED_PROTOCOLS);
        }
        Objects.requireNonNull(startTimeout, "startTimeout");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        extraEnvironment = Map.copyOf(extraEnvironment);
        workingDirectory = workingDirectory == null
                ? null
                : workingDirectory.toAbsolutePath().normalize();
        environment = environment == null ? null : Map.copyOf(environment);
    }

    /** With the JVM's working directory and environment. */
    public PluginLaunch(
            String providerName,
            Path executable,
            List<Integer> protocolVersions,
            Duration startTimeout,
            Duration shutdownTimeout,
            Map<String, String> extraEnvironment) {
        this(providerName, executable, protocolVersions, startTimeout, shutdownTimeout, extraEnvironment, null, null);
    }

    /** Terraform's own limits: a minute to start, a few seconds to shut down. */
    public static PluginLaunch of(String providerName, Path executable) {
        return new PluginLaunch(
                providerName, executable, SUPPORTED_PROTOCOLS, Duration.ofSeconds(60), Duration.ofSeconds(5), Map.of());
    }

    public PluginLaunch withStartTimeout(Duration timeout) {
        return new PluginLaunch(
                providerName,
                executable,
                protocolVersions,
                timeout,
                shutdownTimeout,
                extraEnvironment,
                workingDirectory,
                environment);
    }

    /** With {@code env} added on top of the base environment (tests use it for fault injection). */
    public PluginLaunch withEnvironment(Map<String, String> env) {
        return new PluginLaunch(
                providerName,
                executable,
                protocolVersions,
                startTimeout,
                shutdownTimeout,
                env,
                workingDirectory,
                environment);
    }

    /** Run in {@code dir} with exactly {@code env} as the base environment (null for the JVM's). */
    public PluginLaunch in(Path dir, Map<String, String> env) {
        return new PluginLaunch(
                providerName, executable, protocolVersions, startTimeout, shutdownTimeout, extraEnvironment, dir, env);
    }
}
