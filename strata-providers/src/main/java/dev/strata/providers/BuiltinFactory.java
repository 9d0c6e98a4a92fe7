package dev.strata.providers;

import dev.strata.addr.Provider;
import dev.strata.addr.Version;
import dev.strata.provider.ProviderFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** A built-in provider's registration: its address and the version recorded in {@code versions.properties}. */
public abstract class BuiltinFactory implements ProviderFactory {

    private static final Properties VERSIONS = load();

    private final Provider address;
    private final Version version;

    protected BuiltinFactory(Provider address, String versionKey) {
        this.address = address;
        String v = VERSIONS.getProperty(versionKey);
        if (v == null) {
            throw new IllegalStateException("no version recorded for built-in provider " + versionKey);
        }
        this.version = Version.of(v.replace("-SNAPSHOT", ""));
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = BuiltinFactory.class.getResourceAsStream("versions.properties")) {
            if (in == null) {
                throw new IllegalStateException("versions.properties is missing from the build");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    @Override
    public Provider address() {
        return address;
    }

    @Override
    public Version version() {
        return version;
    }
}
