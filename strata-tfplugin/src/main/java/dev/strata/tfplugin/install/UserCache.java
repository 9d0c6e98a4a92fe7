package dev.strata.tfplugin.install;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Strata's per-user cache directory, shared by every working directory as Terraform's plugin cache is:
 * what is expensive to learn about a provider package (its {@code h1:} hash, its schema) is learned once
 * per user, not once per checkout. {@code STRATA_CACHE_DIR} names it; otherwise {@code
 * $XDG_CACHE_HOME/strata}, else {@code ~/.cache/strata}. Entries are keyed by what identifies their
 * content (package hash; a package's real path with its files' sizes and times), so sharing never
 * serves one directory another's answer.
 */
public final class UserCache {
    private UserCache() {}

    /** The directory, or empty when there is no home to put it in (then callers keep per-directory caches). */
    public static Optional<Path> dir(Map<String, String> env, Path home) {
        String explicit = env.get("STRATA_CACHE_DIR");
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(Path.of(explicit).toAbsolutePath());
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Optional.of(Path.of(xdg).resolve("strata"));
        }
        return home == null
                ? Optional.empty()
                : Optional.of(home.toAbsolutePath().resolve(".cache").resolve("strata"));
    }
}
