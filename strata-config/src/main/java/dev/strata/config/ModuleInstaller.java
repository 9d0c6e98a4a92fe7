package dev.strata.config;

import dev.strata.addr.Module;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * {@code strata init}'s module installation: loads the tree as {@link ConfigLoader} does, installing
 * every module whose source is not a local path into {@code .strata/modules/KEY} (KEY being the
 * module's path, {@code net.sub}), then records the whole tree in {@link ModuleManifest}. What works
 * offline is installed as Terraform does it: Git repositories on this machine
 * ({@code git::file:///repo//sub?ref=v1}, {@code git::/repo}, cloned with the {@code git} program),
 * directories and .zip/.tar.gz/.tgz archives at absolute paths or {@code file://} URLs. Sources that
 * need the network (the registry, Git over HTTPS/SSH, HTTP, S3, GCS, ...) are an error naming the
 * source. A module already installed from the same source is kept unless {@code upgrade} is set.
 */
public final class ModuleInstaller {
    private static final long GIT_TIMEOUT_SECONDS = 300;

    private ModuleInstaller() {}

    /** What an installation produced: the loaded tree and, for each module, how it was obtained. */
    public record Installation(ConfigTree tree, List<Step> steps) {
        public Installation {
            steps = List.copyOf(steps);
        }
    }

    /**
     * One module of the tree other than the root.
     *
     * @param key    {@code net.sub}
     * @param dir    its directory relative to the root module
     * @param action what init did for it
     */
    public record Step(String key, String source, String dir, Action action) {}

    public enum Action {
        /** A local path, read in place. */
        LOCAL,
        /** Installed now. */
        INSTALLED,
        /** Installed by an earlier run from the same source and kept. */
        REUSED
    }

    /**
     * Installs the modules of the configuration in {@code root} and writes the manifest (also when
     * some modules failed, so that the ones that worked need not be installed again).
     */
    public static Result<Installation> install(Path root, ConfigLoader.Options options, boolean upgrade) {
        Path abs = root.toAbsolutePath().normalize();
        Installer installer = new Installer(abs, upgrade);
        Result<ConfigTree> tree = new ConfigLoader(abs, options, installer).loadTree();
        List<ModuleManifest.Entry> entries = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        for (ConfigNode n : tree.value().nodes()) {
            String key = String.join(".", n.path().names());
            String dir = display(abs, n.module().dir());
            String source = n.call() == null ? "" : n.call().source();
            entries.add(new ModuleManifest.Entry(key, source, null, dir));
            if (!n.isRoot()) {
                Action a = installer.reused.contains(key)
                        ? Action.REUSED
                        : installer.installed.contains(key) ? Action.INSTALLED : Action.LOCAL;
                steps.add(new Step(key, source, dir, a));
            }
        }
        Diagnostics.Builder diags = Diagnostics.builder().addAll(tree.diagnostics());
        try {
            new ModuleManifest(entries).write(abs);
        } catch (IOException e) {
            diags.add(Diagnostic.error(
                    "Failed to write the module manifest",
                    "Could not write " + IoProblems.describe(ModuleManifest.FILE, e)
                            + ". Check that the directory is writable.",
                    null));
        }
        return Result.of(new Installation(tree.value(), steps), diags.build().sorted());
    }

    /** The explanation for a source only the network can provide, naming it. */
    static String networkDetail(ModuleCallConfig call, ModuleSource.Remote r) {
        return "The module \"" + call.name() + "\" comes from \"" + call.source() + "\", a " + r.kind() + " source, "
                + "which cannot be installed without network access. Strata installs modules from local paths "
                + "(./ or ../), from Git repositories on this machine (git::file:///path/to/repo or git::/path/to/"
                + "repo, with //subdir and ?ref=), and from directories or .zip/.tar.gz archives at absolute paths "
                + "or file:// URLs. Copy the module to one of those places and refer to it there.";
    }

    private static String display(Path root, Path dir) {
        String s = root.relativize(dir).toString().replace('\\', '/');
        return s.isEmpty() ? "." : s;
    }

    private static final class Installer implements ConfigLoader.RemoteModules {
        private final Path root;
        private final boolean upgrade;
        private final ModuleManifest previous;
        final List<String> installed = new ArrayList<>();
        final List<String> reused = new ArrayList<>();

        Installer(Path root, boolean upgrade) {
            this.root = root;
            this.upgrade = upgrade;
            Path own = root.resolve(ModuleManifest.FILE);
            ModuleManifest m = ModuleManifest.EMPTY;
            if (Files.isRegularFile(own)) {
                m = ModuleManifest.read(root, null);
            }
            this.previous = m;
        }

        @Override
        public Path locate(ModuleCallConfig call, Module childPath, ModuleSource source, Diagnostics.Builder diags) {
            String key = String.join(".", childPath.names());
            Path target = root.resolve(ModuleManifest.DIR).resolve(key);
            return switch (source) {
                case ModuleSource.Remote r -> {
                    diags.add(Diagnostic.error(
                            "Module cannot be installed without network", networkDetail(call, r), call.sourceRange()));
                    yield null;
                }
                case ModuleSource.Local l -> throw new IllegalStateException("local sources are read in place");
                case ModuleSource.Git g -> {
                    Optional<Path> kept = reuse(key, call.source());
                    if (kept.isPresent()) {
                        yield kept.get();
                    }
                    yield fetched(key, call, target, g.subdir(), diags, () -> gitClone(g, target));
                }
                case ModuleSource.LocalPackage p -> {
                    Optional<Path> kept = reuse(key, call.source());
                    if (kept.isPresent()) {
                        yield kept.get();
                    }
                    yield fetched(key, call, target, p.subdir(), diags, () -> unpack(p.path(), target));
                }
            };
        }

        private Optional<Path> reuse(String key, String source) {
            if (upgrade) {
                return Optional.empty();
            }
            Optional<ModuleManifest.Entry> e =
                    previous.entry(key).filter(x -> x.source().equals(source));
            if (e.isPresent() && Files.isDirectory(root.resolve(e.get().dir()))) {
                reused.add(key);
                return Optional.of(root.resolve(e.get().dir()).normalize());
            }
            return Optional.empty();
        }

        /** Fetching fills the target directory or returns why it could not (a user-facing sentence). */
        interface Fetch {
            String into() throws IOException, InterruptedException;
        }

        private Path fetched(
                String key, ModuleCallConfig call, Path target, String subdir, Diagnostics.Builder diags, Fetch fetch) {
            String problem;
            try {
                deleteTree(target);
                Files.createDirectories(target.getParent());
                problem = fetch.into();
            } catch (IOException e) {
                problem = IoProblems.describe(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                problem = "interrupted";
            }
            if (problem != null) {
                diags.add(Diagnostic.error(
                        "Failed to install module",
                        "Could not install the module \"" + call.name() + "\" from \"" + call.source() + "\": "
                                + problem,
                        call.sourceRange()));
                return null;
            }
            Path dir = subdir.isEmpty() ? target : target.resolve(subdir).normalize();
            if (!dir.startsWith(target) || !Files.isDirectory(dir)) {
                diags.add(Diagnostic.error(
                        "Failed to install module",
                        "The module \"" + call.name() + "\" comes from " + "\"" + call.source()
                                + "\", whose package has no directory \"" + subdir + "\".",
                        call.sourceRange()));
                return null;
            }
            installed.add(key);
            return dir;
        }

        private static String gitClone(ModuleSource.Git g, Path target) throws IOException, InterruptedException {
            String problem =
                    git(List.of("git", "clone", "--quiet", "--no-hardlinks", g.url(), target.toString()), null);
            if (problem == null && g.ref() != null) {
                problem =
                        git(List.of("git", "-c", "advice.detachedHead=false", "checkout", "--quiet", g.ref()), target);
            }
            return problem;
        }

        /** Runs git without a terminal prompt; null on success, else git's own message. */
        private static String git(List<String> cmd, Path dir) throws IOException, InterruptedException {
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            pb.environment().put("GIT_TERMINAL_PROMPT", "0");
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                return "the git program is needed to install Git sources and could not be started (" + e.getMessage()
                        + ").";
            }
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(GIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "git did not finish within " + GIT_TIMEOUT_SECONDS + " seconds.";
            }
            if (p.exitValue() != 0) {
                return "\"" + String.join(" ", cmd.subList(0, Math.min(cmd.size(), 4))) + " ...\" failed: "
                        + new String(out, StandardCharsets.UTF_8).strip();
            }
            return null;
        }

        private static String unpack(Path source, Path target) throws IOException, InterruptedException {
            String name =
                    source.getFileName() == null ? "" : source.getFileName().toString();
            if (Files.isDirectory(source)) {
                copyTree(source, target);
                return null;
            }
            if (!Files.isRegularFile(source)) {
                return "there is no file or directory " + source + ".";
            }
            if (name.endsWith(".zip")) {
                unzip(source, target);
                return null;
            }
            if (name.endsWith(".tar.gz") || name.endsWith(".tgz")) {
                Files.createDirectories(target);
                return tar(source, target);
            }
            return source + " is neither a directory nor a .zip, .tar.gz or .tgz archive.";
        }

        private static String tar(Path archive, Path target) throws IOException, InterruptedException {
            Process p = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", target.toString())
                    .redirectErrorStream(true)
                    .start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(GIT_TIMEOUT_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return "tar could not unpack " + archive + ": " + new String(out, StandardCharsets.UTF_8).strip();
            }
            return null;
        }

        private static void unzip(Path archive, Path target) throws IOException {
            Files.createDirectories(target);
            try (InputStream in = Files.newInputStream(archive);
                    ZipInputStream zip = new ZipInputStream(in)) {
                for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                    Path out = target.resolve(e.getName()).normalize();
                    if (!out.startsWith(target)) {
                        throw new IOException("the archive entry " + e.getName() + " points outside the module");
                    }
                    if (e.isDirectory()) {
                        Files.createDirectories(out);
                    } else {
                        Files.createDirectories(out.getParent());
                        Files.copy(zip, out, StandardCopyOption.REPLACE_EXISTING);
                    }
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

        private static void deleteTree(Path dir) throws IOException {
            if (!Files.exists(dir)) {
                return;
            }
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
