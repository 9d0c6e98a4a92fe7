package dev.strata.config;

import dev.strata.addr.Module;
import dev.strata.addr.Version;
import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code strata init}'s module installation: loads the tree as {@link ConfigLoader} does, installing
 * every module whose source is not a local path into {@code .strata/modules/KEY} (KEY being the
 * module's path, {@code net.sub}), then records the whole tree in {@link ModuleManifest}. Sources are
 * installed as Terraform installs them: module registry packages (the newest version the call's
 * {@code version} constraint allows, found through the registry protocol, {@link ModuleRegistry}),
 * Git repositories (with the {@code git} program), HTTP(S) archives and {@code X-Terraform-Get}
 * redirects, objects and key prefixes in S3 buckets ({@link S3Packages}), directories and archives on
 * this machine ({@link PackageFetcher}). GCS and Mercurial are an error naming the source. Each package is fetched into a temporary directory and moved into
 * place only when complete. A module already installed from the same source (and, for a registry
 * module, at a version its constraint still allows) is kept unless {@code upgrade} is set.
 */
public final class ModuleInstaller {
    private ModuleInstaller() {}

    /** What an installation produced: the loaded tree and, for each module, how it was obtained. */
    public record Installation(ConfigTree tree, List<Step> steps, List<Step> failed) {
        public Installation {
            steps = List.copyOf(steps);
            failed = List.copyOf(failed);
        }

        /**
         * What init lists, as Terraform does: every module of the tree and every module whose download
         * failed ({@link Action#FAILED}, reported in the diagnostics), in the tree's order.
         */
        public List<Step> listing() {
            List<Step> all = new ArrayList<>(steps);
            all.addAll(failed);
            all.sort(Comparator.comparing(s -> List.of(s.key().split("\\.")), ModuleInstaller::treeOrder));
            return all;
        }
    }

    /** Module paths in the order of a depth-first walk whose children are sorted by name. */
    private static int treeOrder(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /**
     * One module of the tree other than the root.
     *
     * @param key     {@code net.sub}
     * @param source  the source as written
     * @param dir     its directory relative to the root module
     * @param action  what init did for it
     * @param version the registry version installed, or null for other sources
     * @param label   what was downloaded, as Terraform names it in "Downloading LABEL for KEY...": the
     *                registry package and its version, else the source without its //subdir
     */
    public record Step(String key, String source, String dir, Action action, String version, String label) {
        /** A module without a registry version, labelled by its package address. */
        public Step(String key, String source, String dir, Action action) {
            this(key, source, dir, action, null, ModuleSource.packageAddress(source));
        }
    }

    public enum Action {
        /** A local path, read in place. */
        LOCAL,
        /** Installed now. */
        INSTALLED,
        /** Installed by an earlier run from the same source and kept. */
        REUSED,
        /** Its package could not be fetched (the installation's diagnostics say why); not in the tree. */
        FAILED
    }

    /** Installs with no CLI configuration: registries found by discovery, tokens from {@code TF_TOKEN_*}. */
    public static Result<Installation> install(Path root, ConfigLoader.Options options, boolean upgrade) {
        return install(root, options, upgrade, RemoteAccess.of(System.getenv()));
    }

    /**
     * Installs the modules of the configuration in {@code root} and writes the manifest (also when
     * some modules failed, so that the ones that worked need not be installed again).
     */
    public static Result<Installation> install(
            Path root, ConfigLoader.Options options, boolean upgrade, RemoteAccess access) {
        return install(root, options, upgrade, access, m -> {});
    }

    /**
     * As {@link #install(Path, ConfigLoader.Options, boolean, RemoteAccess)}, telling {@code rootRead} the
     * root module and the problems of reading it as soon as it is read, before any child module is
     * installed: {@code init} hands it to the provider hashing it started in the background, so the root
     * module is read once.
     */
    public static Result<Installation> install(
            Path root,
            ConfigLoader.Options options,
            boolean upgrade,
            RemoteAccess access,
            java.util.function.Consumer<Result<ModuleConfig>> rootRead) {
        Path abs = root.toAbsolutePath().normalize();
        Installer installer = new Installer(abs, upgrade, access);
        Result<ConfigTree> tree = new ConfigLoader(abs, options, installer, rootRead).loadTree();
        List<ModuleManifest.Entry> entries = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        for (ConfigNode n : tree.value().nodes()) {
            String key = String.join(".", n.path().names());
            String dir = display(abs, n.module().dir());
            String source = n.call() == null ? "" : n.call().source();
            String version = installer.versions.get(key);
            // As Terraform records it: a registry address with its host, a Git or file source as its URL.
            entries.add(new ModuleManifest.Entry(key, ModuleSource.normalized(source), version, dir));
            if (!n.isRoot()) {
                Action a = installer.reused.contains(key)
                        ? Action.REUSED
                        : installer.installed.contains(key)
                                ? Action.INSTALLED
                                : installer.knownLocal(key, source, dir) ? Action.REUSED : Action.LOCAL;
                steps.add(new Step(key, source, dir, a, version, label(source, version)));
            }
        }
        // As Terraform, a registry package whose subdirectory is missing stays installed and recorded.
        installer.unreadable.forEach((key, u) ->
                entries.add(new ModuleManifest.Entry(key, ModuleSource.normalized(u.source()), u.version(), u.dir())));
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
        List<Step> failed = new ArrayList<>();
        installer.failed.forEach((key, source) -> {
            String version = installer.attemptedVersions.get(key);
            failed.add(new Step(key, source, "", Action.FAILED, version, label(source, version)));
        });
        installer.unreadable.forEach((key, u) -> failed.add(
                new Step(key, u.source(), u.dir(), Action.INSTALLED, u.version(), label(u.source(), u.version()))));
        return Result.of(
                new Installation(tree.value(), steps, failed), diags.build().inPlaceOrder());
    }

    /** The registry versions recorded for the modules of the configuration in {@code root}, by key. */
    public static Map<String, String> installedVersions(Path root, String dataDir) {
        Map<String, String> out = new TreeMap<>();
        for (ModuleManifest.Entry e :
                ModuleManifest.read(root.toAbsolutePath().normalize(), dataDir).entries()) {
            if (e.version() != null) {
                out.put(e.key(), e.version());
            }
        }
        return out;
    }

    /**
     * Writes to {@code file} the manifest of the module {@code key} of the configuration installed in
     * {@code root}, as a tree of its own: {@code key} becomes the root ("") and its descendants keep
     * their keys below it ({@code key.net} becomes {@code net}), their directories relative to
     * {@code subRoot}, that module's directory. {@link ConfigLoader#loadTree(Path, ConfigLoader.Options,
     * Path)} then loads {@code subRoot} with the modules installed for it, where they are.
     */
    public static void writeSubtreeManifest(Path root, String key, Path subRoot, Path file) throws IOException {
        Path abs = root.toAbsolutePath().normalize();
        Path sub = subRoot.toAbsolutePath().normalize();
        List<ModuleManifest.Entry> out = new ArrayList<>();
        for (ModuleManifest.Entry e :
                ModuleManifest.readFile(abs.resolve(ModuleManifest.FILE)).entries()) {
            String k;
            if (e.key().equals(key)) {
                k = "";
            } else if (e.key().startsWith(key + ".")) {
                k = e.key().substring(key.length() + 1);
            } else {
                continue;
            }
            Path dir = abs.resolve(e.dir()).normalize();
            out.add(new ModuleManifest.Entry(k, k.isEmpty() ? "" : e.source(), e.version(), display(sub, dir)));
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        new ModuleManifest(out).writeFile(file);
    }

    /**
     * A module call's source as Terraform shows it in {@code modules} and records it in its manifest, when it
     * is not a registry address: the GitHub shorthand, the scp-like Git form ({@code git@host:org/repo.git})
     * and paths on this machine as the URLs they stand for ({@code git::ssh://git@host/org/repo.git},
     * {@code file:///path}); anything else as written.
     */
    public static String shownSource(String source) {
        return ModuleSource.normalizedPackage(source);
    }

    /**
     * How a step names its package: a registry module by its address and version, any other by its package
     * address, as Terraform's "Downloading ..." line does.
     */
    private static String label(String source, String version) {
        return version != null && ModuleSource.parse(source) instanceof ModuleSource.Registry r
                ? r.display() + " " + version
                : ModuleSource.packageAddress(source);
    }

    /**
     * "Invalid module source address" at a module call's source, for an address no installation method
     * recognises; the likeliest intent, a directory next to the module written without its {@code ./}, is
     * suggested.
     */
    static Diagnostic invalidAddress(ModuleSource.Undetected u, SourceRange source) {
        return Diagnostic.error(
                "Invalid module source address",
                "Strata cannot tell how to install the module package \"" + u.pkg() + "\": it is not a module "
                        + "registry address, a URL, or a path on this machine.\n\nFor a directory relative to "
                        + "the current module, write \"./" + u.pkg() + "\": relative paths start with \"./\" or "
                        + "\"../\".",
                source);
    }

    /** The explanation for a source Strata cannot install, naming it. */
    static String unsupportedDetail(ModuleCallConfig call, ModuleSource.Remote r) {
        return "The module \"" + call.name() + "\" comes from \"" + call.source() + "\": "
                + PackageFetcher.unsupported(r) + ". Copy the module to one of those places and refer to it there.";
    }

    private static String display(Path root, Path dir) {
        String s = root.relativize(dir).toString().replace('\\', '/');
        return s.isEmpty() ? "." : s;
    }

    /** {@code main.tf:1}, as Terraform's module installation names a call in its messages. */
    private static String at(ModuleCallConfig call) {
        SourceRange r = call.declRange();
        return r == null ? "" : " (" + r.filename() + ":" + r.start().line() + ")";
    }

    private static final class Installer implements ConfigLoader.RemoteModules {
        private final Path root;
        private final boolean upgrade;
        private final ModuleManifest previous;
        private final ModuleRegistry registry;
        private final PackageFetcher fetcher;
        final List<String> installed = new ArrayList<>();
        final List<String> reused = new ArrayList<>();
        final Map<String, String> versions = new HashMap<>();
        /** Modules whose package could not be fetched, by key: their source. */
        final Map<String, String> failed = new java.util.TreeMap<>();
        /** The registry version a failed registry module was to be installed at, by key. */
        final Map<String, String> attemptedVersions = new HashMap<>();
        /** Registry modules installed whose package lacks the subdirectory their address names, by key. */
        final Map<String, Unreadable> unreadable = new java.util.TreeMap<>();

        /** A registry module installed in {@code dir} (relative to the root), which is not there. */
        record Unreadable(String source, String version, String dir) {}

        Installer(Path root, boolean upgrade, RemoteAccess access) {
            this.root = root;
            this.upgrade = upgrade;
            HttpTransport http = new HttpTransport(access);
            this.registry = new ModuleRegistry(http);
            this.fetcher = new PackageFetcher(http);
            Path own = root.resolve(ModuleManifest.FILE);
            ModuleManifest m = ModuleManifest.EMPTY;
            if (Files.isRegularFile(own)) {
                m = ModuleManifest.read(root, null);
            }
            this.previous = m;
        }

        /**
         * As Terraform: a local module the previous manifest already records from the same source in the same
         * directory counts as installed (init lists it only the first time, or with {@code -upgrade}).
         */
        boolean knownLocal(String key, String source, String dir) {
            return !upgrade
                    && previous.entries().stream()
                            .anyMatch(e -> e.key().equals(key)
                                    && e.source().equals(source)
                                    && e.version() == null
                                    && e.dir().equals(dir));
        }

        @Override
        public Path locate(ModuleCallConfig call, Module childPath, ModuleSource source, Diagnostics.Builder diags) {
            String key = String.join(".", childPath.names());
            Path target = root.resolve(ModuleManifest.DIR).resolve(key);
            return switch (source) {
                case ModuleSource.Remote r -> {
                    diags.add(Diagnostic.error(
                            "Unsupported module source", unsupportedDetail(call, r), call.sourceRange()));
                    yield null;
                }
                case ModuleSource.Local l -> throw new IllegalStateException("local sources are read in place");
                case ModuleSource.Undetected u ->
                    throw new IllegalStateException("reported when the configuration is read");
                case ModuleSource.Registry r -> fromRegistry(key, call, r, target, diags);
                case ModuleSource.Git g -> fetchedOnce(key, call, target, g, diags);
                case ModuleSource.Http h -> fetchedOnce(key, call, target, h, diags);
                case ModuleSource.S3 s3 -> fetchedOnce(key, call, target, s3, diags);
                case ModuleSource.LocalPackage p -> fetchedOnce(key, call, target, p, diags);
            };
        }

        /**
         * A package that is not in a registry: kept from an earlier run, else fetched; the messages name it by
         * its package address, as Terraform's "Downloading ... for ..." line does.
         */
        private Path fetchedOnce(
                String key, ModuleCallConfig call, Path target, ModuleSource source, Diagnostics.Builder diags) {
            return reuse(key, call.source(), null)
                    .orElseGet(() -> fetched(
                            key,
                            call,
                            target,
                            into -> fetcher.fetch(source, into, display(root, target)),
                            null,
                            ModuleSource.packageAddress(call.source()),
                            diags));
        }

        private Path fromRegistry(
                String key, ModuleCallConfig call, ModuleSource.Registry r, Path target, Diagnostics.Builder diags) {
            VersionConstraint wanted = call.version() == null ? VersionConstraint.ANY : call.version();
            Optional<Path> kept = reuse(key, call.source(), wanted);
            if (kept.isPresent()) {
                return kept.get();
            }
            List<Version> available;
            try {
                available = registry.versions(r);
            } catch (FetchException e) {
                diags.add(
                        e.notFound()
                                ? Diagnostic.error(
                                        "Module not found",
                                        "Module \"" + call.name() + "\""
                                                + (at(call).isEmpty() ? "" : " (from " + at(call).substring(2))
                                                + " cannot be found in the module registry at " + r.host() + ".",
                                        call.declRange())
                                : Diagnostic.error(
                                        "Error accessing remote module registry",
                                        "Failed to retrieve available versions for module \"" + call.name() + "\""
                                                + at(call) + " from " + r.host() + ": " + e.getMessage() + ".",
                                        call.declRange()));
                return null;
            }
            if (available.isEmpty()) {
                diags.add(Diagnostic.error(
                        "Module has no versions",
                        "Module \"" + call.name() + "\"" + at(call) + " has no versions available on " + r.host() + ".",
                        call.declRange()));
                return null;
            }
            Optional<Version> chosen =
                    available.stream().filter(wanted::selects).max(Comparator.naturalOrder());
            if (chosen.isEmpty()) {
                Version newest = available.stream()
                        .filter(v -> !v.isPrerelease())
                        .max(Comparator.naturalOrder())
                        .orElse(available.stream()
                                .max(Comparator.naturalOrder())
                                .orElseThrow());
                diags.add(Diagnostic.error(
                        "Unresolvable module version constraint",
                        "There is no available version of module \"" + r.display() + "\"" + at(call)
                                + " which matches the given version constraint. The newest available version is "
                                + newest + ".",
                        call.declRange()));
                return null;
            }
            String version = chosen.get().toString();
            attemptedVersions.put(key, version);
            String location;
            try {
                location = registry.location(r, version);
            } catch (FetchException e) {
                diags.add(Diagnostic.error(
                        "Invalid response from remote module registry",
                        "Failed to retrieve a download URL for " + r.display() + " " + version + " from " + r.host()
                                + ": " + e.getMessage() + ".",
                        call.declRange()));
                return null;
            }
            Path dir = fetched(
                    key,
                    call,
                    target,
                    into -> fetcher.fetchLocation(location, into, display(root, target)),
                    r.subdir(),
                    location,
                    diags);
            if (dir != null) {
                versions.put(key, version);
            }
            return dir;
        }

        /**
         * The module as an earlier run installed it, when it may be kept: same source, its directory
         * still there, and for a registry module a recorded version the constraint (non-null) allows.
         */
        private Optional<Path> reuse(String key, String source, VersionConstraint constraint) {
            if (upgrade) {
                return Optional.empty();
            }
            Optional<ModuleManifest.Entry> e = previous.entry(key).filter(x -> ModuleSource.same(x.source(), source));
            if (e.isEmpty() || !Files.isDirectory(root.resolve(e.get().dir()))) {
                return Optional.empty();
            }
            if (constraint != null) {
                Optional<Version> v = e.get().version() == null
                        ? Optional.empty()
                        : Version.parse(e.get().version());
                if (v.isEmpty() || !constraint.selects(v.get())) {
                    return Optional.empty();
                }
                versions.put(key, e.get().version());
            }
            reused.add(key);
            return Optional.of(root.resolve(e.get().dir()).normalize());
        }

        /** Fills an empty directory with a package and returns the module's directory inside it. */
        interface Fetch {
            String into(Path dir) throws FetchException, IOException, InterruptedException;
        }

        /**
         * Fetches a package into a temporary directory beside {@code target}, then replaces
         * {@code target} with it, so that a failure leaves the earlier installation (or nothing).
         *
         * @param subdir the module's directory inside the package that a registry address names, or null for a
         *               source that is not a registry address (whose own {@code //subdir}, a pattern, is
         *               what {@code fetch} returns)
         * @param from   what the diagnostic says was fetched
         */
        private Path fetched(
                String key,
                ModuleCallConfig call,
                Path target,
                Fetch fetch,
                String subdir,
                String from,
                Diagnostics.Builder diags) {
            Path tmp = null;
            String problem;
            String inPackage = "";
            try {
                Files.createDirectories(target.getParent());
                tmp = Files.createTempDirectory(target.getParent(), "." + key + ".");
                String located = fetch.into(tmp);
                if (subdir == null) {
                    // As Terraform: the subdirectory of a package that is not from a registry is a pattern
                    // that must match one path of it, else "Failed to expand subdir globs", with no source
                    // location (the package was fetched; its contents are what is wrong).
                    try {
                        inPackage = SubdirGlob.expand(tmp, located);
                    } catch (SubdirGlob.Failure f) {
                        diags.add(Diagnostic.error(SubdirGlob.SUMMARY, f.getMessage(), null));
                        failed.put(key, call.source());
                        return null;
                    }
                } else {
                    inPackage = located.isEmpty() ? subdir : subdir.isEmpty() ? located : located + "/" + subdir;
                }
                Path dir = inPackage.isEmpty() ? tmp : tmp.resolve(inPackage).normalize();
                if (subdir != null && dir.startsWith(tmp) && !Files.isDirectory(dir)) {
                    // As Terraform: a registry package is installed (and listed, and recorded) whole, then
                    // found to lack the subdirectory, named as a path under the package's directory.
                    deleteTree(target);
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                    tmp = null;
                    String shown = display(root, target.resolve(inPackage).normalize());
                    unreadable.put(key, new Unreadable(call.source(), attemptedVersions.get(key), shown));
                    diags.add(Diagnostic.error(
                            "Unreadable module subdirectory",
                            "The directory " + shown + " does not exist: the package of module \"" + call.name()
                                    + "\" has no subdirectory \"" + inPackage + "\".",
                            null));
                    return null;
                }
                if (!dir.startsWith(tmp) || !Files.isDirectory(dir)) {
                    diags.add(Diagnostic.error(
                            "Failed to download module",
                            "The module \"" + call.name() + "\" comes from \"" + call.source()
                                    + "\", whose package has no directory \"" + inPackage + "\".",
                            call.sourceRange()));
                    failed.put(key, call.source());
                    return null;
                }
                deleteTree(target);
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                tmp = null;
                problem = null;
            } catch (FetchException e) {
                problem = e.verbatim() ? e.getMessage() : sentence(e.getMessage());
            } catch (IOException e) {
                problem = sentence(IoProblems.describe(e));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                problem = "interrupted.";
            } finally {
                if (tmp != null) {
                    try {
                        deleteTree(tmp);
                    } catch (IOException ignored) {
                        // A leftover temporary directory is harmless: the next run makes a new one.
                    }
                }
            }
            if (problem != null) {
                // As Terraform, whatever the source (a Git repository or a path on this machine too): at the
                // module block's header, the package named as in "Downloading ... for ...".
                diags.add(Diagnostic.error(
                        "Failed to download module",
                        "Could not download module \"" + call.name() + "\"" + at(call) + " source code from \"" + from
                                + "\": " + problem,
                        call.declRange()));
                failed.put(key, call.source());
                return null;
            }
            installed.add(key);
            return inPackage.isEmpty() ? target : target.resolve(inPackage).normalize();
        }

        private static String sentence(String s) {
            return s.endsWith(".") ? s : s + ".";
        }

        private static void deleteTree(Path dir) throws IOException {
            Trees.delete(dir);
        }
    }
}
