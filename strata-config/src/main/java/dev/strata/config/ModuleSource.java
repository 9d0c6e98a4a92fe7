package dev.strata.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A module call's {@code source}, classified by what installing it takes, following Terraform's
 * source address forms: local paths are read in place; Git repositories, directories and archives
 * on this machine are installed by {@code strata init}; everything that needs the network (the
 * registry, Git over HTTPS/SSH, HTTP, S3, GCS, Mercurial, the GitHub/Bitbucket shorthands) is
 * {@link Remote}, which this version cannot install.
 */
sealed interface ModuleSource {
    /** {@code ./x} or {@code ../x}: a directory relative to the calling module, never copied. */
    record Local(String path) implements ModuleSource {}

    /**
     * {@code git::file:///repo//sub?ref=v1} or {@code git::/repo}: a Git repository on this machine.
     *
     * @param url    what {@code git clone} is given
     * @param ref    the branch, tag or commit to check out, or null for the default branch
     * @param subdir the module's directory inside the repository, or "" for its root
     */
    record Git(String url, String ref, String subdir) implements ModuleSource {}

    /** An absolute path or {@code file://} URL: a directory to copy or a .zip/.tar.gz/.tgz to unpack. */
    record LocalPackage(Path path, String subdir) implements ModuleSource {}

    /** A source only the network can provide; {@code kind} names it for the diagnostic. */
    record Remote(String kind) implements ModuleSource {}

    Pattern REGISTRY = Pattern.compile("^([a-z0-9.-]+\\.[a-z]{2,}(:\\d+)?/)?[A-Za-z0-9][A-Za-z0-9_-]*"
            + "/[A-Za-z0-9][A-Za-z0-9_-]*/[A-Za-z0-9]+(//.*)?$");

    static ModuleSource parse(String raw) {
        if (raw.startsWith("./") || raw.startsWith("../") || raw.startsWith(".\\") || raw.startsWith("..\\")) {
            return new Local(raw);
        }
        String forced = null;
        String rest = raw;
        int sep = raw.indexOf("::");
        if (sep > 0 && raw.substring(0, sep).matches("[a-z0-9]+")) {
            forced = raw.substring(0, sep).toLowerCase(Locale.ROOT);
            rest = raw.substring(sep + 2);
        }
        if (forced != null) {
            return switch (forced) {
                case "git" -> git(rest);
                case "s3" -> new Remote("Amazon S3");
                case "gcs" -> new Remote("Google Cloud Storage");
                case "hg" -> new Remote("Mercurial");
                case "http", "https" -> new Remote("HTTP");
                case "file" -> localPackage(rest);
                default -> new Remote("\"" + forced + "::\"");
            };
        }
        if (raw.startsWith("file://") || raw.startsWith("/")) {
            return localPackage(raw);
        }
        if (raw.startsWith("http://") || raw.startsWith("https://")) {
            return new Remote("HTTP");
        }
        if (raw.startsWith("github.com/") || raw.startsWith("git@github.com:")) {
            return new Remote("GitHub");
        }
        if (raw.startsWith("bitbucket.org/")) {
            return new Remote("Bitbucket");
        }
        if (raw.startsWith("git@") || raw.startsWith("ssh://")) {
            return new Remote("Git over SSH");
        }
        if (raw.matches("^[a-z0-9-]+(\\.[a-z0-9-]+)*\\.s3[.-][^/]*amazonaws\\.com/.*")) {
            return new Remote("Amazon S3");
        }
        if (raw.startsWith("www.googleapis.com/storage/")) {
            return new Remote("Google Cloud Storage");
        }
        if (REGISTRY.matcher(raw).matches()) {
            return new Remote("module registry");
        }
        return new Remote("remote");
    }

    private static ModuleSource git(String rest) {
        String ref = null;
        int q = rest.indexOf('?');
        if (q >= 0) {
            for (String kv : rest.substring(q + 1).split("&")) {
                if (kv.startsWith("ref=")) {
                    ref = kv.substring(4);
                }
            }
            rest = rest.substring(0, q);
        }
        String[] split = splitSubdir(rest);
        String url = split[0];
        boolean local = url.startsWith("file://") || url.startsWith("/");
        return local
                ? new Git(url, ref, split[1])
                : new Remote(
                        url.startsWith("ssh://") || url.startsWith("git@") ? "Git over SSH" : "Git over the network");
    }

    private static ModuleSource localPackage(String rest) {
        String[] split = splitSubdir(rest);
        Path p = split[0].startsWith("file://") ? Path.of(URI.create(split[0])) : Path.of(split[0]);
        return new LocalPackage(p, split[1]);
    }

    /** {@code url//sub/dir}: the package and the module's directory inside it (after any scheme's //). */
    private static String[] splitSubdir(String s) {
        int from = s.indexOf("://");
        from = from < 0 ? 0 : from + 3;
        if (s.startsWith("file:///")) {
            from = "file://".length() + 1;
        }
        int i = s.indexOf("//", from);
        return i < 0 ? new String[] {s, ""} : new String[] {s.substring(0, i), s.substring(i + 2)};
    }

    /**
     * A source as Terraform records it in its manifest: registry addresses with their host
     * ({@code registry.terraform.io/ns/name/system}), the GitHub shorthand as the Git URL it stands for.
     */
    static String normalized(String raw) {
        if (!raw.contains("::")
                && !raw.startsWith(".")
                && !raw.startsWith("/")
                && REGISTRY.matcher(raw).matches()) {
            String pkg = raw.split("//", 2)[0];
            return pkg.split("/").length == 3 ? "registry.terraform.io/" + raw : raw;
        }
        if (raw.startsWith("github.com/")) {
            String[] split = raw.split("//", 2);
            String[] parts = split[0].split("\\?", 2);
            String url = "git::https://" + parts[0] + (parts[0].endsWith(".git") ? "" : ".git");
            return url + (split.length > 1 ? "//" + split[1] : "") + (parts.length > 1 ? "?" + parts[1] : "");
        }
        return raw;
    }

    /** Whether a recorded source and a written one are the same address. */
    static boolean same(String a, String b) {
        return a.equals(b) || normalized(a).equals(normalized(b));
    }

    /** Whether {@code strata init} can install it on this machine. */
    default boolean installable() {
        return !(this instanceof Remote);
    }
}
