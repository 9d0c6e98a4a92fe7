package dev.strata.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A module call's {@code source}, classified by what installing it takes, following Terraform's
 * source address forms: local paths are read in place; module registry addresses, Git repositories
 * (on this machine, over HTTPS or SSH, the GitHub shorthand), HTTP(S) URLs and directories or archives
 * on this machine are installed by {@code strata init}; what Strata cannot fetch (S3, GCS, Mercurial,
 * the Bitbucket shorthand) is {@link Remote}, an error naming it.
 */
sealed interface ModuleSource {
    /** {@code ./x} or {@code ../x}: a directory relative to the calling module, never copied. */
    record Local(String path) implements ModuleSource {}

    /**
     * {@code git::file:///repo//sub?ref=v1}, {@code git::https://host/repo.git}, {@code git::ssh://...},
     * {@code git@host:org/repo.git} or {@code github.com/org/repo}: a Git repository.
     *
     * @param url    what {@code git clone} is given
     * @param ref    the branch, tag or commit to check out, or null for the default branch
     * @param subdir the module's directory inside the repository, or "" for its root
     * @param depth  {@code ?depth=N}: a shallow clone of that many commits, or 0 for a full one
     */
    record Git(String url, String ref, String subdir, int depth) implements ModuleSource {
        Git(String url, String ref, String subdir) {
            this(url, ref, subdir, 0);
        }
    }

    /**
     * {@code [HOST/]NAMESPACE/NAME/SYSTEM[//SUBDIR]}: a module registry package, whose version the
     * call's {@code version} constraint selects.
     *
     * @param host the registry's host name, {@code registry.terraform.io} when the address has none
     */
    record Registry(String host, String namespace, String name, String system, String subdir) implements ModuleSource {
        static final String DEFAULT_HOST = "registry.terraform.io";

        /** {@code NAMESPACE/NAME/SYSTEM}, the path of the package in the registry's API. */
        String path() {
            return namespace + "/" + name + "/" + system;
        }

        /** The package as Terraform shows it: without the host when it is the public registry. */
        String display() {
            return (host.equals(DEFAULT_HOST) ? "" : host + "/") + path();
        }
    }

    /**
     * {@code https://host/x.zip}, {@code https://host/x?archive=tar.gz} or a URL that answers with an
     * {@code X-Terraform-Get} header naming the real source.
     *
     * @param url    the URL with its query, without the {@code //subdir}
     * @param subdir the module's directory inside the package, or ""
     */
    record Http(String url, String subdir) implements ModuleSource {}

    /** An absolute path or {@code file://} URL: a directory to copy or a .zip/.tar.gz/.tgz to unpack. */
    record LocalPackage(Path path, String subdir) implements ModuleSource {}

    /**
     * {@code s3::https://s3-eu-west-1.amazonaws.com/bucket/key}, {@code bucket.s3.amazonaws.com/key} and
     * the other forms Terraform documents: an object in an S3 bucket (an archive, by its extension) or a
     * key prefix whose objects are the module's files.
     *
     * @param endpoint the URL of an S3-compatible service on another host (addressed path-style, its
     *                 region from {@code ?region=}), or null for AWS itself
     * @param version  {@code ?version=}: the object version to fetch, or null for the current one
     * @param subdir   the module's directory inside the package, or ""
     */
    record S3(String endpoint, String region, String bucket, String key, String version, String subdir)
            implements ModuleSource {}

    /** A source only the network can provide; {@code kind} names it for the diagnostic. */
    record Remote(String kind) implements ModuleSource {}

    /**
     * An address no installation method recognises: not a relative path, a registry address, a URL, a path on
     * this machine or a shorthand Terraform expands ({@code modules/vpc}, {@code example.com/repo.git}, or one
     * of those after {@code git::}). Terraform rejects it as an invalid address wherever the configuration is
     * read; {@code pkg} is the address without its forced getter.
     */
    record Undetected(String pkg) implements ModuleSource {}

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
                case "git" -> forcedGit(rest);
                case "s3" -> s3(rest);
                case "gcs" -> new Remote("Google Cloud Storage");
                case "hg" -> new Remote("Mercurial");
                case "http", "https" -> http(rest);
                case "file" -> localPackage(rest);
                default -> new Remote("\"" + forced + "::\"");
            };
        }
        if (raw.startsWith("file://") || raw.startsWith("/")) {
            return localPackage(raw);
        }
        if (raw.startsWith("http://") || raw.startsWith("https://")) {
            return http(raw);
        }
        if (raw.startsWith("github.com/")) {
            return gitHub(raw);
        }
        if (raw.startsWith("bitbucket.org/")) {
            return new Remote("Bitbucket");
        }
        if (raw.startsWith("git@") || raw.startsWith("ssh://")) {
            return git(raw);
        }
        if (raw.matches("^[a-z0-9-]+(\\.[a-z0-9-]+)*\\.s3[.-][^/]*amazonaws\\.com/.*")) {
            return s3("https://" + raw);
        }
        if (raw.startsWith("www.googleapis.com/storage/")) {
            return new Remote("Google Cloud Storage");
        }
        if (REGISTRY.matcher(raw).matches()) {
            return registry(raw);
        }
        return new Undetected(raw);
    }

    /**
     * After {@code git::}: a URL, the scp-like form, a path on this machine or the GitHub shorthand, as
     * Terraform's detectors read them; anything else names no repository ({@link Undetected}).
     */
    private static ModuleSource forcedGit(String rest) {
        if (rest.startsWith("github.com/")) {
            return gitHub(rest);
        }
        if (rest.contains("://") || rest.startsWith("/") || scpToSsh(rest) != null) {
            return git(rest);
        }
        return new Undetected(rest);
    }

    private static Registry registry(String raw) {
        String[] split = raw.split("//", 2);
        String[] parts = split[0].split("/");
        int h = parts.length == 4 ? 1 : 0;
        String host = h == 1 ? parts[0].toLowerCase(Locale.ROOT) : Registry.DEFAULT_HOST;
        return new Registry(host, parts[h], parts[h + 1], parts[h + 2], split.length > 1 ? split[1] : "");
    }

    /** {@code github.com/org/repo[//sub][?ref=x]}: Git over HTTPS, as go-getter's detector has it. */
    private static ModuleSource gitHub(String raw) {
        String[] q = raw.split("\\?", 2);
        String[] split = splitSubdir(q[0]);
        String[] parts = split[0].split("/");
        if (parts.length < 3) {
            return new Remote("GitHub");
        }
        String repo = "https://github.com/" + parts[1] + "/" + parts[2] + (parts[2].endsWith(".git") ? "" : ".git");
        String sub = parts.length > 3 ? String.join("/", java.util.Arrays.copyOfRange(parts, 3, parts.length)) : "";
        sub = split[1].isEmpty() ? sub : sub.isEmpty() ? split[1] : sub + "/" + split[1];
        return git(repo + (sub.isEmpty() ? "" : "//" + sub) + (q.length > 1 ? "?" + q[1] : ""));
    }

    /** {@code s3.amazonaws.com}, {@code s3-REGION...}, {@code s3.REGION...}, each optionally after {@code BUCKET.}. */
    Pattern S3_HOST = Pattern.compile("^(?:(?<bucket>.+)\\.)?s3(?:[.-](?<region>[a-z0-9-]+))?\\.amazonaws\\.com$");

    private static ModuleSource s3(String rest) {
        if (!rest.startsWith("http://") && !rest.startsWith("https://")) {
            return new Remote("Amazon S3 (\"s3::\" takes an https:// URL)");
        }
        String[] q = rest.split("\\?", 2);
        String[] split = splitSubdir(q[0]);
        URI u;
        try {
            u = new URI(split[0]);
        } catch (java.net.URISyntaxException e) {
            return new Remote("Amazon S3 (\"" + rest + "\" is not a valid URL)");
        }
        String version = null;
        String region = null;
        if (q.length > 1) {
            for (String kv : q[1].split("&")) {
                if (kv.startsWith("version=")) {
                    version = kv.substring("version=".length());
                } else if (kv.startsWith("region=")) {
                    region = kv.substring("region=".length());
                }
            }
        }
        String host = u.getHost() == null ? "" : u.getHost().toLowerCase(Locale.ROOT);
        String path = u.getPath() == null ? "" : u.getPath().replaceFirst("^/", "");
        java.util.regex.Matcher m = S3_HOST.matcher(host);
        String endpoint = null;
        String bucket;
        String key;
        if (m.matches()) {
            region = m.group("region") == null ? "us-east-1" : m.group("region");
            if (m.group("bucket") != null) {
                bucket = m.group("bucket");
                key = path;
            } else {
                int slash = path.indexOf('/');
                bucket = slash < 0 ? path : path.substring(0, slash);
                key = slash < 0 ? "" : path.substring(slash + 1);
            }
        } else {
            // Any other host is an S3-compatible service, addressed path-style as go-getter does.
            endpoint = u.getScheme() + "://" + u.getRawAuthority();
            region = region == null ? "us-east-1" : region;
            int slash = path.indexOf('/');
            bucket = slash < 0 ? path : path.substring(0, slash);
            key = slash < 0 ? "" : path.substring(slash + 1);
        }
        if (bucket.isEmpty() || key.isEmpty()) {
            return new Remote("Amazon S3 (\"" + rest + "\" names no bucket and key)");
        }
        return new S3(endpoint, region, bucket, key, version, split[1]);
    }

    private static ModuleSource http(String rest) {
        if (!rest.startsWith("http://") && !rest.startsWith("https://")) {
            return new Remote("HTTP");
        }
        String[] q = rest.split("\\?", 2);
        String[] split = splitSubdir(q[0]);
        return new Http(split[0] + (q.length > 1 ? "?" + q[1] : ""), split[1]);
    }

    private static ModuleSource git(String rest) {
        String ssh = scpToSsh(rest);
        rest = ssh == null ? rest : ssh;
        String ref = null;
        int depth = 0;
        int q = rest.indexOf('?');
        if (q >= 0) {
            for (String[] kv : queryPairs(rest.substring(q + 1))) {
                if (kv[0].equals("ref")) {
                    ref = kv[1];
                } else if (kv[0].equals("depth") && kv[1].matches("\\d{1,6}")) {
                    depth = Integer.parseInt(kv[1]);
                }
            }
            rest = rest.substring(0, q);
        }
        if (rest.startsWith("github.com/")) {
            rest = "https://" + rest;
        }
        String[] split = splitSubdir(rest);
        return new Git(split[0], ref, split[1], depth);
    }

    private static ModuleSource localPackage(String rest) {
        // As Terraform: a "?" ends the path, here too (what follows is a query, which a path ignores).
        String[] split = splitSubdir(rest.split("\\?", 2)[0]);
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

    /** {@code git@HOST:PATH}, the scp-like form of an SSH address that Terraform takes for a Git repository. */
    Pattern SCP_LIKE = Pattern.compile("^git@([^:/?]+):([^?]+)(\\?.*)?$");

    /**
     * The scp-like Git address {@code git@HOST:PATH[//SUB][?QUERY]} (written with or without {@code git::}) as
     * the {@code ssh://} URL Terraform turns it into, which is what it clones and how it names it in init's
     * output, its manifest and its errors: {@code ssh://git@HOST/PATH[//SUB][?QUERY]}, the query's arguments
     * in order of name and escaped as a URL's query is. Null for any other source.
     */
    static String scpToSsh(String raw) {
        String s = raw.startsWith("git::") ? raw.substring("git::".length()) : raw;
        java.util.regex.Matcher m = SCP_LIKE.matcher(s);
        if (!m.matches()) {
            return null;
        }
        String path = m.group(2).startsWith("/") ? m.group(2).substring(1) : m.group(2);
        String query =
                m.group(3) == null ? "" : encodedQuery(queryPairs(m.group(3).substring(1)));
        return "ssh://git@" + m.group(1) + "/" + path + (query.isEmpty() ? "" : "?" + query);
    }

    /**
     * A URL's query as its name/value pairs, in the order written, each unescaped ({@code %2F}, {@code +}
     * for a space); a pair without {@code =} has the value "". An escape that does not decode is kept as
     * written rather than failing here: the fetch that uses it reports what is wrong.
     */
    static java.util.List<String[]> queryPairs(String query) {
        java.util.List<String[]> out = new java.util.ArrayList<>();
        for (String kv : query.split("&")) {
            if (kv.isEmpty()) {
                continue;
            }
            int eq = kv.indexOf('=');
            String k = eq < 0 ? kv : kv.substring(0, eq);
            String v = eq < 0 ? "" : kv.substring(eq + 1);
            out.add(new String[] {unescape(k), unescape(v)});
        }
        return out;
    }

    private static String unescape(String s) {
        try {
            return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    /**
     * Pairs as a URL query the way Terraform writes one it has rebuilt (go-getter's URLs): sorted by name
     * (pairs of one name in their order), names and values escaped as form values are, but {@code ~} kept
     * and {@code *} escaped. The JDK's form encoder does the rest.
     */
    static String encodedQuery(java.util.List<String[]> pairs) {
        java.util.List<String[]> sorted = new java.util.ArrayList<>(pairs);
        sorted.sort(java.util.Comparator.comparing((String[] kv) -> kv[0]));
        java.util.StringJoiner j = new java.util.StringJoiner("&");
        for (String[] kv : sorted) {
            j.add(escape(kv[0]) + "=" + escape(kv[1]));
        }
        return j.toString();
    }

    private static String escape(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8)
                .replace("*", "%2A")
                .replace("%7E", "~");
    }

    /**
     * A source as Terraform records it in its manifest: registry addresses with their host
     * ({@code registry.terraform.io/ns/name/system}), the GitHub shorthand as the Git URL it stands for,
     * the scp-like Git form as its {@code ssh://} URL and a path on this machine as a {@code file://} URL.
     */
    static String normalized(String raw) {
        if (!raw.contains("::")
                && !raw.startsWith(".")
                && !raw.startsWith("github.com/")
                && !raw.startsWith("/")
                && REGISTRY.matcher(raw).matches()) {
            String pkg = raw.split("//", 2)[0];
            return pkg.split("/").length == 3 ? "registry.terraform.io/" + raw : raw;
        }
        return normalizedPackage(raw);
    }

    /**
     * A source that is not a registry address as Terraform records and shows it (its manifest, {@code modules}):
     * the GitHub shorthand as the Git URL it stands for, the scp-like Git form as its {@code ssh://} URL, a path
     * on this machine as a {@code file://} URL (after {@code git::} too); any other source as written.
     */
    static String normalizedPackage(String raw) {
        String s = urlOf(raw);
        // As Terraform records it: the subdirectory made clean ("a/../b" is "b", "./a/" is "a").
        String prefix = "";
        int sep = s.indexOf("::");
        if (sep > 0 && s.substring(0, sep).matches("[a-z0-9]+")) {
            prefix = s.substring(0, sep + 2);
        }
        String[] q = s.substring(prefix.length()).split("\\?", 2);
        String[] split = splitSubdir(q[0]);
        java.util.List<String> clean = split[1].isEmpty() ? null : SubdirGlob.clean(split[1]);
        if (clean == null) {
            return s;
        }
        return prefix
                + split[0]
                + (clean.isEmpty() ? "" : "//" + String.join("/", clean))
                + (q.length > 1 ? "?" + q[1] : "");
    }

    /** A source that is not a registry address as the URL it stands for (see {@link #normalizedPackage}). */
    private static String urlOf(String raw) {
        String ssh = scpToSsh(raw);
        if (ssh != null) {
            return "git::" + ssh;
        }
        if (raw.startsWith("/")) {
            return "file://" + raw;
        }
        if (raw.startsWith("git::/")) {
            return "git::file://" + raw.substring("git::".length());
        }
        if (raw.startsWith("github.com/")) {
            String[] split = raw.split("//", 2);
            String[] parts = split[0].split("\\?", 2);
            String url = "git::https://" + parts[0] + (parts[0].endsWith(".git") ? "" : ".git");
            return url + (split.length > 1 ? "//" + split[1] : "") + (parts.length > 1 ? "?" + parts[1] : "");
        }
        return raw;
    }

    /**
     * The package a source names, without its {@code //subdir}: what Terraform shows in
     * "Downloading PACKAGE for KEY..." ({@code git::file:///repo?ref=v1} for
     * {@code git::file:///repo//net?ref=v1}); a path on this machine as the {@code file://} URL, the
     * GitHub shorthand and the scp-like Git form as the Git URLs that Terraform makes of them.
     */
    static String packageAddress(String raw) {
        raw = normalizedPackage(raw);
        String prefix = "";
        String rest = raw;
        int sep = raw.indexOf("::");
        if (sep > 0 && raw.substring(0, sep).matches("[a-z0-9]+")) {
            prefix = raw.substring(0, sep + 2);
            rest = raw.substring(sep + 2);
        }
        String[] q = rest.split("\\?", 2);
        return prefix + splitSubdir(q[0])[0] + (q.length > 1 ? "?" + q[1] : "");
    }

    /** Whether a recorded source and a written one are the same address. */
    static boolean same(String a, String b) {
        return a.equals(b) || normalized(a).equals(normalized(b));
    }

    /** Whether {@code strata init} can install it on this machine. */
    default boolean installable() {
        return !(this instanceof Remote) && !(this instanceof Undetected);
    }
}
