package dev.strata.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A home directory of the test process's own, for every test that runs the CLI (in-process or as a
 * process): the CLI keeps per-user caches under {@code ~/.cache/strata} (package hashes, provider
 * schemas) and reads {@code ~/.terraformrc}, and the developer's real ones must neither change what a
 * test sees nor be changed by it, nor be shared with test runs in other worktrees at the same time.
 * One directory per test JVM, so that runs within one suite still share their caches (a cold AWS
 * schema costs seconds); removed when the JVM exits.
 */
public final class TestHome {
    /**
     * What a process inherits that would point the CLI back at the user's own caches, configuration
     * or plugin directories.
     */
    private static final List<String> USER_LOCATIONS = List.of(
            "XDG_CACHE_HOME",
            "XDG_DATA_HOME",
            "XDG_CONFIG_HOME",
            "TF_CLI_CONFIG_FILE",
            "TF_PLUGIN_CACHE_DIR",
            "TF_DATA_DIR",
            "STRATA_CACHE_DIR");

    private TestHome() {}

    private static final class Holder {
        static final Path DIR = create();

        private static Path create() {
            try {
                Path dir = Files.createTempDirectory("strata-test-home").toRealPath();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir), "strata-test-home-cleanup"));
                return dir;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a temporary home directory for the tests", e);
            }
        }
    }

    /** The directory (created on first use). */
    public static Path dir() {
        return Holder.DIR;
    }

    /** The per-user cache the CLI uses with this home ({@code $HOME/.cache/strata}). */
    public static Path cacheDir() {
        return dir().resolve(".cache").resolve("strata");
    }

    /**
     * {@code env} with {@code HOME} set to this directory unless the test chose its own home or cache
     * (then it is left as the test made it).
     */
    public static Map<String, String> withDefaults(Map<String, String> env) {
        if (env.containsKey("HOME") || env.containsKey("STRATA_CACHE_DIR") || env.containsKey("XDG_CACHE_HOME")) {
            return env;
        }
        java.util.HashMap<String, String> out = new java.util.HashMap<>(env);
        out.put("HOME", dir().toString());
        return out;
    }

    /** Points a process at this home: {@code HOME} is this directory, and no inherited variable leads elsewhere. */
    public static ProcessBuilder apply(ProcessBuilder pb) {
        Map<String, String> env = pb.environment();
        USER_LOCATIONS.forEach(env::remove);
        env.put("HOME", dir().toString());
        return pb;
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort at exit: a leftover temporary directory harms nothing
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // as above
        }
    }
}
