package dev.strata.cli.version;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Strata's own version, filtered into a resource at build time. */
public final class Version {
    private Version() {}

    public static String current() {
        try (InputStream in = Version.class.getResourceAsStream("/dev/strata/cli/version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "0.0.0-dev").replace("-SNAPSHOT", "-dev");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
