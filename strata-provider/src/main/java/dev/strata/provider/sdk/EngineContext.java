package dev.strata.provider.sdk;

import dev.strata.provider.Provider;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the engine told an {@link SdkProvider} when it configured it (the working directory and
 * the environment variables of {@link Provider.ConfigureRequest}), for the provider's resources
 * and data sources, which are made before the provider and so cannot ask it. One instance is
 * shared by a provider and its resources; until {@code configure} it holds the JVM's working
 * directory and environment.
 */
public final class EngineContext {

    private volatile Provider.ConfigureRequest request;

    public EngineContext() {}

    void configured(Provider.ConfigureRequest r) {
        this.request = r;
    }

    private Provider.ConfigureRequest current() {
        Provider.ConfigureRequest r = request;
        return r != null ? r : new Provider.ConfigureRequest(dev.strata.lang.value.Value.EMPTY_OBJECT, "");
    }

    /** The version of the engine, as it writes it into states. */
    public String engineVersion() {
        return current().engineVersion();
    }

    /** The directory the configuration runs in (absolute). */
    Path workingDirectory() {
        return current().workingDirectory();
    }

    /** {@code path} resolved against the working directory; an absolute path stays as it is. */
    public Path resolve(String path) {
        return current().resolve(path);
    }

    /** The environment variables the provider may read. */
    public Map<String, String> environment() {
        return current().environment();
    }

    /** One environment variable, or null when it is unset or empty (as libpq and Terraform treat empty). */
    public String env(String name) {
        String v = current().environment().get(name);
        return v == null || v.isEmpty() ? null : v;
    }
}
