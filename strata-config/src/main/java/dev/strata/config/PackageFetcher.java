package dev.strata.config;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Fetches a module package into an empty directory, as go-getter does for Terraform: Git
 * repositories with the {@code git} program, HTTP(S) archives (by the URL's extension or its
 * {@code archive} query argument), HTTP URLs that answer with an {@code X-Terraform-Get} header
 * naming the real source, and directories or archives on this machine.
 */
final class PackageFetcher {
    private static final Duration PROCESS_TIMEOUT = Duration.ofSeconds(300);
    /** How long the output may stay open after the program ended, before whatever holds it is stopped. */
    private static final Duration OUTPUT_GRACE = Duration.ofSeconds(2);
    /** How many X-Terraform-Get hops one source may take before it is taken to be a loop. */
    private static final int MAX_HOPS = 5;

    private static final List<String> ARCHIVES =
            List.of("tar.gz", "tgz", "tar.bz2", "tbz2", "tar.xz", "txz", "tar", "zip");

    private final HttpTransport http;

    PackageFetcher(HttpTransport http) {
        this.http = http;
    }

    /**
     * Fills {@code into}, an empty directory, with the package {@code source} names and returns the
     * module's directory inside it ("" for the package's root), which a redirect may have added to.
     */
    String fetch(ModuleSource source, Path into) throws FetchException, IOException, InterruptedException {
        return fetch(source, into, into.toString());
    }

    /**
     * As {@link #fetch(ModuleSource, Path)}, where the package goes into {@code into} only to be moved to
     * the directory {@code shownAs} names (relative to the working directory): what a message about the
     * fetch calls the destination, as Terraform, which fetches into the module's directory itself.
     */
    String fetch(ModuleSource source, Path into, String shownAs)
            throws FetchException, IOException, InterruptedException {
        return fetch(source, into, shownAs, 0);
    }

    private String fetch(ModuleSource source, Path into, String shownAs, int hops)
            throws FetchException, IOException, InterruptedException {
        return switch (source) {
            case ModuleSource.Git g -> {
                gitClone(g, into, shownAs);
                yield g.subdir();
            }
            case ModuleSource.LocalPackage p -> {
                unpack(p.path(), into);
                yield p.subdir();
            }
            case ModuleSource.Http h -> join(http(h, into, shownAs, hops), h.subdir());
            case ModuleSource.S3 s -> {
                S3Packages.fetch(s, into, http.access().env(), http.access().timeout());
                yield s.subdir();
            }
            case ModuleSource.Registry r ->
                throw new FetchException("a module registry address cannot be the location of another module's source");
            case ModuleSource.Local l -> throw new FetchException("a relative path cannot be fetched");
            case ModuleSource.Remote r -> throw new FetchException(unsupported(r));
            case ModuleSource.Undetected u ->
                throw new FetchException("\"" + u.pkg() + "\" is not a module registry address, a URL, or a path, "
                        + "so there is no way to install it");
        };
    }

    /**
     * Fills {@code into} with what a remote server named as a module's source (a registry's download
     * location): as {@link #fetch}, but never a path on this machine or another registry address.
     */
    String fetchLocation(String location, Path into, String shownAs)
            throws FetchException, IOException, InterruptedException {
        return followed(location, into, shownAs, 0);
    }

    static String unsupported(ModuleSource.Remote r) {
        return "Strata cannot install modules from " + r.kind() + " sources; it installs from module registries, "
                + "Git (git::https://, git::ssh://, github.com/...), HTTP(S) archives, S3 (s3::https://...) and paths "
                + "on this machine";
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : a + "/" + b;
    }

    /** A source a remote server named: anything but a path on this machine or another registry address. */
    private String followed(String location, Path into, String shownAs, int hops)
            throws FetchException, IOException, InterruptedException {
        if (hops >= MAX_HOPS) {
            throw new FetchException(
                    "more than " + MAX_HOPS + " X-Terraform-Get redirects, the last to \"" + location + "\"");
        }
        ModuleSource next = ModuleSource.parse(location);
        if (next instanceof ModuleSource.LocalPackage || next instanceof ModuleSource.Local) {
            throw new FetchException("the server pointed to \"" + location + "\", a path on this machine, which a "
                    + "remote source may not name");
        }
        return fetch(next, into, shownAs, hops + 1);
    }

    private String http(ModuleSource.Http h, Path into, String shownAs, int hops)
            throws FetchException, IOException, InterruptedException {
        URI url;
        try {
            url = new URI(h.url());
        } catch (URISyntaxException e) {
            throw new FetchException("\"" + h.url() + "\" is not a valid URL");
        }
        String archive = null;
        List<String> query = new ArrayList<>();
        if (url.getRawQuery() != null) {
            for (String kv : url.getRawQuery().split("&")) {
                if (kv.startsWith("archive=")) {
                    archive = kv.substring("archive=".length()).toLowerCase(Locale.ROOT);
                } else if (!kv.isEmpty()) {
                    query.add(kv);
                }
            }
        }
        String path = url.getPath() == null ? "" : url.getPath().toLowerCase(Locale.ROOT);
        if (archive == null) {
            archive = ARCHIVES.stream()
                    .filter(ext -> path.endsWith("." + ext))
                    .findFirst()
                    .orElse(null);
        }
        String base =
                url.getScheme() + "://" + url.getRawAuthority() + (url.getRawPath() == null ? "" : url.getRawPath());
        if (archive != null) {
            if (!ARCHIVES.contains(archive)) {
                throw new FetchException("unsupported archive format \"" + archive + "\"");
            }
            URI get = URI.create(base + (query.isEmpty() ? "" : "?" + String.join("&", query)));
            Path file = Files.createTempFile(into.getParent(), "download", "." + archive);
            try {
                HttpResponse<Path> r = http.download(get, file);
                if (r.statusCode() / 100 != 2) {
                    throw new FetchException("bad response code: " + r.statusCode());
                }
                unpackArchive(file, archive, into);
            } finally {
                Files.deleteIfExists(file);
            }
            return "";
        }
        query.add("terraform-get=1");
        URI get = URI.create(base + "?" + String.join("&", query));
        HttpResponse<String> r = http.getText(get, java.util.Optional.empty());
        if (r.statusCode() / 100 != 2) {
            throw new FetchException("bad response code: " + r.statusCode());
        }
        String loc = r.headers().firstValue("X-Terraform-Get").orElse(null);
        if (loc == null || loc.isBlank()) {
            throw new FetchException("no source URL was returned");
        }
        String sub = followed(ModuleRegistry.resolve(get, loc.strip()), into, shownAs, hops);
        if (!sub.isEmpty()) {
            keepOnly(into, sub);
        }
        return "";
    }

    /**
     * As go-getter for a location with a {@code //subdir} of its own: only that directory (a pattern that must
     * match one path) is kept, as the package's root; a module source's own {@code //subdir} then applies
     * within it.
     */
    private static void keepOnly(Path into, String sub) throws FetchException, IOException {
        Path whole = into.resolveSibling(into.getFileName() + ".whole");
        Files.move(into, whole, StandardCopyOption.ATOMIC_MOVE);
        try {
            String dir;
            try {
                dir = SubdirGlob.expand(whole, sub);
            } catch (SubdirGlob.Failure f) {
                throw new FetchException(f.getMessage());
            }
            Path kept = whole.resolve(dir).normalize();
            if (!kept.startsWith(whole) || !Files.isDirectory(kept)) {
                throw new FetchException("subdir \"" + sub + "\" not found");
            }
            Files.move(kept, into, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Trees.delete(whole);
        }
    }

    /**
     * Clones as go-getter does for Terraform and fails with its words: "error downloading 'URL': GIT exited
     * with N: OUTPUT", the URL with its arguments in order of name and escaped, GIT the program's path, OUTPUT what git
     * printed, unchanged but for the temporary directory, named as the module's directory {@code shownAs}.
     */
    private static void gitClone(ModuleSource.Git g, Path target, String shownAs)
            throws FetchException, IOException, InterruptedException {
        // A path is cloned as a file:// URL, as go-getter's detector turns it into one.
        String url = g.url().startsWith("/") ? "file://" + g.url() : g.url();
        List<String[]> query = new ArrayList<>();
        if (g.depth() > 0) {
            query.add(new String[] {"depth", Integer.toString(g.depth())});
        }
        if (g.ref() != null) {
            query.add(new String[] {"ref", g.ref()});
        }
        // Escaped as a URL's query is: a ref "a/b" is shown as "ref=a%2Fb".
        String shownUrl = url + (query.isEmpty() ? "" : "?" + ModuleSource.encodedQuery(query));
        String git = onPath("git");
        // Not --quiet: git's "Cloning into ..." line is part of what Terraform reports when a clone fails.
        List<String> clone = new ArrayList<>(List.of(git, "clone", "--no-hardlinks"));
        if (g.depth() > 0) {
            clone.addAll(List.of("--depth", Integer.toString(g.depth())));
            if (g.ref() != null) {
                clone.addAll(List.of("--branch", g.ref()));
            }
        }
        clone.addAll(List.of("--", url, target.toString()));
        List<List<String>> steps = new ArrayList<>(List.of(clone));
        if (g.ref() != null && g.depth() == 0) {
            steps.add(List.of(git, "-c", "advice.detachedHead=false", "checkout", "--quiet", g.ref()));
        }
        for (int i = 0; i < steps.size(); i++) {
            Ran r = run(steps.get(i), i == 0 ? null : target, "git");
            if (r.exitCode() != 0) {
                String out = r.output().replace("'" + target + "'", "'" + shownAs + "'");
                throw FetchException.verbatim(
                        "error downloading '" + shownUrl + "': " + git + " exited with " + r.exitCode() + ": " + out);
            }
        }
    }

    /** The program's path in a directory of {@code PATH}, as Terraform names it; the bare name if none has it. */
    private static String onPath(String program) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path p = Path.of(dir, program);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p.toString();
                }
            }
        }
        return program;
    }

    /** A program's exit code and what it printed (standard output and error, in the order printed). */
    record Ran(int exitCode, String output) {}

    /** Runs a program without a terminal prompt; fails when it cannot be started or does not end. */
    private static Ran run(List<String> cmd, Path dir, String program)
            throws FetchException, IOException, InterruptedException {
        return run(cmd, dir, program, PROCESS_TIMEOUT);
    }

    /**
     * As {@link #run(List, Path, String)}, with the time the program may take. Its output is read on a
     * thread of its own, so a program that never ends (or never closes its output) is stopped at the
     * deadline instead of holding {@code init} forever; an interrupt stops it too.
     */
    static Ran run(List<String> cmd, Path dir, String program, Duration timeout)
            throws FetchException, IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        dev.strata.hcl.ChildEnvironment.restore(pb.environment());
        pb.environment().put("GIT_TERMINAL_PROMPT", "0");
        // ssh must not ask either: a host key or passphrase prompt would hang init.
        pb.environment().putIfAbsent("GIT_SSH_COMMAND", "ssh -o BatchMode=yes");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new FetchException("the " + program + " program is needed to install this source and could not be "
                    + "started (" + e.getMessage() + ")");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = Thread.ofVirtual().name("strata-" + program + "-output").start(() -> {
            try (InputStream in = p.getInputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // The pipe broke when the program was stopped: what it printed until then is kept.
            }
        });
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                stop(p);
                throw new FetchException(program + " did not finish within " + seconds(timeout));
            }
            // A program it started (ssh, a credential helper) may still hold the output open after it ended.
            if (!reader.join(OUTPUT_GRACE)) {
                stop(p);
                reader.join(OUTPUT_GRACE);
            }
        } catch (InterruptedException e) {
            stop(p);
            throw e;
        }
        return new Ran(p.exitValue(), out.toString(StandardCharsets.UTF_8));
    }

    /** Ends a program and whatever it started. */
    private static void stop(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    private static String seconds(Duration d) {
        long s = Math.max(1, d.toSeconds());
        return s + (s == 1 ? " second" : " seconds");
    }

    private static void unpack(Path source, Path target) throws FetchException, IOException, InterruptedException {
        String name = source.getFileName() == null
                ? ""
                : source.getFileName().toString().toLowerCase(Locale.ROOT);
        if (Files.isDirectory(source)) {
            copyTree(source, target);
            return;
        }
        if (!Files.exists(source)) {
            // go-getter's words: a directory source goes through its download step, an archive straight
            // to the archive's reading, so only the first says "error downloading".
            String stat = "source path error: stat " + source + ": no such file or directory";
            throw FetchException.verbatim(
                    archiveOf(name) != null ? stat : "error downloading 'file://" + source + "': " + stat);
        }
        if (!Files.isRegularFile(source)) {
            throw new FetchException("there is no file or directory " + source);
        }
        String type = ARCHIVES.stream()
                .filter(ext -> name.endsWith("." + ext))
                .findFirst()
                .orElseThrow(() ->
                        new FetchException(source + " is neither a directory nor a .zip, .tar.gz or .tgz archive"));
        unpackArchive(source, type, target);
    }

    /** The archive type a file name's extension says, or null. */
    static String archiveOf(String name) {
        return ARCHIVES.stream()
                .filter(ext -> name.endsWith("." + ext))
                .findFirst()
                .orElse(null);
    }

    static void unpackArchive(Path archive, String type, Path target)
            throws FetchException, IOException, InterruptedException {
        Files.createDirectories(target);
        if (type.equals("zip")) {
            unzip(archive, target);
        } else {
            try {
                List<String> tar = List.of("tar", "-xf", archive.toString(), "-C", target.toString());
                Ran r = run(tar, null, "tar");
                if (r.exitCode() != 0) {
                    throw new FetchException("\"tar -xf " + archive + " -C ...\" failed: "
                            + r.output().strip());
                }
            } catch (FetchException e) {
                throw new FetchException("could not unpack the " + type + " archive: " + e.getMessage());
            }
        }
    }

    private static void unzip(Path archive, Path target) throws FetchException, IOException {
        try (InputStream in = Files.newInputStream(archive);
                ZipInputStream zip = new ZipInputStream(in)) {
            boolean any = false;
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                any = true;
                Path out = target.resolve(e.getName()).normalize();
                if (!out.startsWith(target)) {
                    throw new FetchException("the archive entry " + e.getName() + " points outside the module");
                }
                if (e.isDirectory()) {
                    Files.createDirectories(out);
                } else {
                    Files.createDirectories(out.getParent());
                    Files.copy(zip, out, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            if (!any) {
                throw new FetchException("the zip archive is empty or not a zip archive");
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(d).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                Files.copy(f, to.resolve(from.relativize(f).toString()), StandardCopyOption.REPLACE_EXISTING);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
