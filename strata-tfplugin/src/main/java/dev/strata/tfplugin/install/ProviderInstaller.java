package dev.strata.tfplugin.install;

import dev.strata.addr.Provider;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * What {@code strata init} does for providers, as {@code terraform init} does it offline: for each
 * required provider, find the versions the installation methods offer (filesystem mirrors, the
 * plugin cache), select one (the locked version, else the newest one the constraints allow), check
 * its package hash against the dependency lock file, and install it under
 * {@code DATA_DIR/providers/HOSTNAME/NAMESPACE/TYPE/VERSION/OS_ARCH} (a link to an unpacked mirror
 * package, or the zip's contents). The result carries the new lock file.
 *
 * <p>Installation methods that need the network ({@code direct}, {@code network_mirror}) cannot be
 * used: a provider only they could supply is an error saying so.
 */
public final class ProviderInstaller {

    private ProviderInstaller() {}

    /**
     * @param workingDir the configuration directory (relative mirror paths and {@code terraform.d/plugins})
     * @param dataDir where packages are installed, normally {@code WORKING_DIR/.terraform}
     * @param env the environment ({@code TF_CLI_CONFIG_FILE}, {@code TF_PLUGIN_CACHE_DIR}, XDG variables)
     * @param home the user's home directory
     * @param upgrade ignore locked versions and select the newest allowed ones ({@code init -upgrade})
     */
    public record Options(
            Path workingDir, Path dataDir, Map<String, String> env, Path home, Platform platform, boolean upgrade) {
        public Options {
            env = Map.copyOf(env);
        }
    }

    /** A provider the configuration needs, with every constraint string modules put on it. */
    public record Requirement(Provider address, List<String> constraints) {
        public Requirement {
            constraints = List.copyOf(constraints);
        }
    }

    /** A provider ready to run: its package directory and the hash it was checked against. */
    public record Installed(Provider address, String version, Path packageDir, String hash) {}

    /** The installed providers and the lock file describing them. */
    public record Outcome(List<Installed> installed, LockFile lock, boolean lockChanged) {
        public Outcome {
            installed = List.copyOf(installed);
        }
    }

    /** A package some installation method offers. */
    private record Candidate(FilesystemMirror.Package pkg, String origin) {}

    /**
     * A step of {@link #install}, for a view to show: {@link #line()} is the line {@code terraform init} prints
     * for it (after "- "), {@link #message()} the message of its {@code init -json} stream, which words most
     * steps differently.
     */
    public sealed interface Progress {
        String line();

        String message();

        /** A locked provider: its locked version is selected again. */
        record Reusing(Provider provider) implements Progress {
            @Override
            public String line() {
                return "Reusing previous version of " + display(provider) + " from the dependency lock file";
            }

            @Override
            public String message() {
                return display(provider) + ": Reusing previous version from the dependency lock file";
            }
        }

        /** An unconstrained provider: the newest version is selected. */
        record FindingLatest(Provider provider) implements Progress {
            @Override
            public String line() {
                return "Finding latest version of " + display(provider) + "...";
            }

            @Override
            public String message() {
                return display(provider) + ": Finding latest version...";
            }
        }

        /** A constrained provider: the newest version its constraints allow is selected. */
        record FindingMatching(Provider provider, String constraints) implements Progress {
            @Override
            public String line() {
                return "Finding " + display(provider) + " versions matching \"" + constraints + "\"...";
            }

            @Override
            public String message() {
                return "Finding matching versions for provider: " + display(provider) + ", version_constraint: \""
                        + constraints + "\"";
            }
        }

        /** The selected package is already in the data directory. */
        record UsingInstalled(Provider provider, String version) implements Progress {
            @Override
            public String line() {
                return "Using previously-installed " + display(provider) + " v" + version;
            }

            @Override
            public String message() {
                return display(provider) + " v" + version + ": Using previously-installed provider version";
            }
        }

        /** The selected package is being placed in the data directory. */
        record Installing(Provider provider, String version) implements Progress {
            @Override
            public String line() {
                return "Installing " + display(provider) + " v" + version + "...";
            }

            @Override
            public String message() {
                return "Installing provider version: " + display(provider) + " v" + version + "...";
            }
        }

        /** The selected package is installed; a mirror's packages carry no signature to check. */
        record Completed(Provider provider, String version) implements Progress {
            @Override
            public String line() {
                return "Installed " + display(provider) + " v" + version + " (unauthenticated)";
            }

            @Override
            public String message() {
                return "Installed provider version: " + display(provider) + " v" + version + " (unauthenticated)";
            }
        }
    }

    /** Installs {@code requirements}; {@code progress} receives each step, as {@code terraform init} reports them. */
    public static Result<Outcome> install(
            Options o, List<Requirement> requirements, LockFile previous, Consumer<Progress> progress) {
        Diagnostics.Builder diags = Diagnostics.builder();
        // Its problems are reported before every command (Main), as Terraform does.
        Result<CliConfig> cli = CliConfig.load(o.env(), o.home());
        List<InstallationMethod> methods = methods(cli.value(), o);
        HashCache hashCache = hashCache(o);
        List<Installed> installed = new ArrayList<>();
        LockFile lock = LockFile.empty();
        for (Requirement req : requirements) {
            Provider addr = req.address();
            Optional<String> constraints = Constraints.normalize(req.constraints());
            if (constraints.isEmpty()) {
                diags.add(Diagnostic.error(
                        "Invalid version constraint",
                        "The version constraints on " + display(addr) + " (" + String.join("; ", req.constraints())
                                + ") are not valid.",
                        null));
                continue;
            }
            Optional<LockFile.Entry> locked = o.upgrade() ? Optional.empty() : previous.entry(addr);
            Result<Installed> r =
                    installOne(o, cli.value(), methods, hashCache, addr, constraints.get(), locked, progress);
            diags.addAll(r.diagnostics());
            if (r.value() != null) {
                Installed i = r.value();
                installed.add(i);
                List<String> hashes = new ArrayList<>(List.of(i.hash()));
                previous.entry(addr)
                        .filter(e -> e.version().equals(i.version()))
                        .ifPresent(e -> hashes.addAll(e.hashes()));
                lock = lock.with(new LockFile.Entry(addr, i.version(), constraints.get(), hashes));
            } else {
                // Keep what was locked, so a failed init does not lose the selection.
                Optional<LockFile.Entry> old = previous.entry(addr);
                if (old.isPresent()) {
                    lock = lock.with(old.get());
                }
            }
        }
        hashCache.save();
        return Result.of(new Outcome(installed, lock, !lock.equals(previous)), diags.build());
    }

    /**
     * Hashes, ahead of {@link #install}, the packages install would select for {@code requirements} and
     * remembers the hashes as install does, so that a caller can overlap the hashing (a second or more for
     * a large provider met for the first time) with other work; install then waits for a hash in progress
     * instead of computing it again (see {@link HashCache}). Quiet: whatever goes wrong is left for install
     * to find and report.
     */
    public static void prehash(Options o, List<Requirement> requirements, LockFile previous) {
        if (requirements.isEmpty()) {
            return;
        }
        CliConfig cli = CliConfig.load(o.env(), o.home()).value();
        if (cli == null) {
            return;
        }
        List<InstallationMethod> methods = methods(cli, o);
        HashCache hashCache = hashCache(o);
        for (Requirement req : requirements) {
            Provider addr = req.address();
            Optional<String> constraints = Constraints.normalize(req.constraints());
            if (constraints.isEmpty()) {
                continue;
            }
            List<InstallationMethod> applicable =
                    methods.stream().filter(m -> m.appliesTo(addr)).toList();
            Result<Map<String, Candidate>> offered = offers(o, cli, applicable, addr, o.platform());
            if (offered.value() == null) {
                continue;
            }
            Optional<LockFile.Entry> locked = o.upgrade() ? Optional.empty() : previous.entry(addr);
            String version = select(addr, constraints.get(), locked, offered.value(), o.platform())
                    .value();
            if (version == null) {
                continue;
            }
            try {
                hashCache.h1(offered.value().get(version).pkg());
            } catch (IOException | RuntimeException e) {
                // install reads the package again and reports the failure
            }
        }
        hashCache.save();
    }

    /**
     * {@code providers lock}: the lock file with every required provider's selected version and its
     * package hashes for each of {@code platforms}, without installing anything. Packages come from
     * {@code fsMirror} when given, else from the configured installation methods.
     */
    public static Result<LockFile> lock(
            Options o,
            List<Requirement> requirements,
            LockFile previous,
            List<Platform> platforms,
            Optional<Path> fsMirror,
            Consumer<String> progress) {
        Diagnostics.Builder diags = Diagnostics.builder();
        // Its problems are reported before every command (Main), as Terraform does.
        Result<CliConfig> cli = CliConfig.load(o.env(), o.home());
        CliConfig config = fsMirror.isPresent()
                ? new CliConfig(
                        List.of(new InstallationMethod.FilesystemMirror(
                                o.workingDir().resolve(fsMirror.get()), List.of(), List.of())),
                        true,
                        Optional.empty())
                : cli.value();
        List<InstallationMethod> methods = methods(config, o);
        HashCache hashCache = hashCache(o);
        LockFile lock = LockFile.empty();
        for (Requirement req : requirements) {
            Provider addr = req.address();
            Optional<String> constraints = Constraints.normalize(req.constraints());
            if (constraints.isEmpty()) {
                diags.add(Diagnostic.error(
                        "Invalid version constraint",
                        "The version constraints on " + display(addr) + " are not valid.",
                        null));
                continue;
            }
            List<InstallationMethod> applicable =
                    methods.stream().filter(m -> m.appliesTo(addr)).toList();
            Optional<LockFile.Entry> locked = o.upgrade() ? Optional.empty() : previous.entry(addr);
            String version = null;
            List<String> hashes = new ArrayList<>();
            for (Platform platform : platforms) {
                Result<Map<String, Candidate>> offered = offers(o, config, applicable, addr, platform);
                diags.addAll(offered.diagnostics());
                if (offered.value() == null) {
                    break;
                }
                if (version == null) {
                    Result<String> sel = select(addr, constraints.get(), locked, offered.value(), platform);
                    diags.addAll(sel.diagnostics());
                    if (sel.value() == null) {
                        break;
                    }
                    version = sel.value();
                }
                Candidate c = offered.value().get(version);
                if (c == null) {
                    diags.add(Diagnostic.error(
                            "Could not retrieve providers for locking",
                            "The mirrors have no package" + " of " + display(addr) + " " + version + " for " + platform
                                    + ".",
                            null));
                    break;
                }
                progress.accept("Fetching " + display(addr) + " " + version + " for " + platform + "...");
                try {
                    hashes.add(hashCache.h1(c.pkg()));
                } catch (IOException e) {
                    diags.add(Diagnostic.error(
                            "Could not retrieve providers for locking",
                            "Could not read the package" + " of " + display(addr) + " " + version + " for " + platform
                                    + ": " + e.getMessage(),
                            null));
                    break;
                }
                progress.accept(
                        "Retrieved " + display(addr) + " " + version + " for " + platform + " (unauthenticated)");
            }
            if (version != null && hashes.size() == platforms.size()) {
                String v = version;
                Optional<LockFile.Entry> same =
                        previous.entry(addr).filter(e -> e.version().equals(v));
                boolean known = same.isPresent() && same.get().hashes().containsAll(hashes);
                same.ifPresent(e -> hashes.addAll(e.hashes()));
                lock = lock.with(new LockFile.Entry(addr, version, constraints.get(), hashes));
                progress.accept("Obtained " + display(addr) + " checksums for "
                        + platforms.stream().map(Platform::toString).collect(Collectors.joining(", "))
                        + (known
                                ? "; All checksums for this platform were already tracked in the lock file"
                                : "; Additional checksums for this platform are now tracked in the lock file"));
            } else {
                Optional<LockFile.Entry> old = previous.entry(addr);
                if (old.isPresent()) {
                    lock = lock.with(old.get());
                }
            }
        }
        hashCache.save();
        return Result.of(lock, diags.build());
    }

    /**
     * {@code providers mirror DIR}: copies the selected version of every required provider for each
     * platform into {@code target} as packed packages
     * ({@code HOSTNAME/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip}), with the JSON
     * index files of Terraform's mirror protocol ({@code index.json}, {@code VERSION.json}), so the
     * directory serves as a {@code filesystem_mirror}.
     */
    public static Result<List<Path>> mirror(
            Options o,
            List<Requirement> requirements,
            LockFile previous,
            List<Platform> platforms,
            Path target,
            Consumer<String> progress) {
        Diagnostics.Builder diags = Diagnostics.builder();
        // Its problems are reported before every command (Main), as Terraform does.
        Result<CliConfig> cli = CliConfig.load(o.env(), o.home());
        List<InstallationMethod> methods = methods(cli.value(), o);
        List<Path> written = new ArrayList<>();
        for (Requirement req : requirements) {
            Provider addr = req.address();
            String constraints = Constraints.normalize(req.constraints()).orElse("");
            List<InstallationMethod> applicable =
                    methods.stream().filter(m -> m.appliesTo(addr)).toList();
            progress.accept("Mirroring " + display(addr) + "...");
            String version = null;
            Map<String, String> archives = new TreeMap<>();
            for (Platform platform : platforms) {
                Result<Map<String, Candidate>> offered = offers(o, cli.value(), applicable, addr, platform);
                diags.addAll(offered.diagnostics());
                if (offered.value() == null) {
                    break;
                }
                if (version == null) {
                    Result<String> sel = select(addr, constraints, previous.entry(addr), offered.value(), platform);
                    diags.addAll(sel.diagnostics());
                    if (sel.value() == null) {
                        break;
                    }
                    version = sel.value();
                    progress.accept("  - Selected v" + version + " to match dependency lock file");
                }
                Candidate c = offered.value().get(version);
                if (c == null) {
                    diags.add(Diagnostic.error(
                            "Cannot download provider",
                            "The mirrors have no package of " + display(addr) + " " + version + " for " + platform
                                    + ".",
                            null));
                    break;
                }
                progress.accept("  - Downloading package for " + platform + "...");
                String zipName = "terraform-provider-" + addr.type() + "_" + version + "_" + platform + ".zip";
                Path dir = target.resolve(addr.hostname())
                        .resolve(addr.namespace())
                        .resolve(addr.type());
                try {
                    Files.createDirectories(dir);
                    Path zip = dir.resolve(zipName);
                    if (c.pkg().packed()) {
                        Files.copy(c.pkg().location(), zip, StandardCopyOption.REPLACE_EXISTING);
                    } else {
                        zipDirectory(c.pkg().location(), zip);
                    }
                    archives.put(platform.toString(), PackageHashes.h1OfZip(zip));
                    written.add(zip);
                    progress.accept("  - Package authenticated: unauthenticated");
                } catch (IOException e) {
                    diags.add(Diagnostic.error(
                            "Cannot download provider",
                            "Could not write " + zipName + " in " + dir + ": " + e.getMessage(),
                            null));
                    break;
                }
            }
            if (version != null && !archives.isEmpty()) {
                try {
                    writeIndexes(target, addr, version, archives);
                } catch (IOException e) {
                    diags.add(Diagnostic.error(
                            "Cannot update provider mirror",
                            "Could not write the index files of " + display(addr) + ": " + e.getMessage(),
                            null));
                }
            }
        }
        return Result.of(written, diags.build());
    }

    private static void zipDirectory(Path dir, Path zip) throws IOException {
        Path root = dir.toRealPath();
        Path tmp = zip.resolveSibling(zip.getFileName() + ".tmp");
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(tmp))) {
            // Provider binaries are large; speed matters more here than a smaller archive.
            out.setLevel(java.util.zip.Deflater.BEST_SPEED);
            for (Path f : files) {
                out.putNextEntry(new ZipEntry(root.relativize(f).toString().replace(java.io.File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        Files.move(tmp, zip, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Terraform's mirror index files: the versions of a provider, and per version its archives and hashes. */
    private static void writeIndexes(Path target, Provider addr, String version, Map<String, String> archives)
            throws IOException {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        Path dir = target.resolve(addr.hostname()).resolve(addr.namespace()).resolve(addr.type());
        Path index = dir.resolve("index.json");
        com.fasterxml.jackson.databind.node.ObjectNode idx = Files.isRegularFile(index)
                ? (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(index.toFile())
                : json.createObjectNode();
        com.fasterxml.jackson.databind.node.ObjectNode versions = idx.has("versions")
                ? (com.fasterxml.jackson.databind.node.ObjectNode) idx.get("versions")
                : idx.putObject("versions");
        versions.putObject(version);
        json.writerWithDefaultPrettyPrinter().writeValue(index.toFile(), idx);
        com.fasterxml.jackson.databind.node.ObjectNode v = json.createObjectNode();
        com.fasterxml.jackson.databind.node.ObjectNode arch = v.putObject("archives");
        archives.forEach((platform, h1) -> {
            com.fasterxml.jackson.databind.node.ObjectNode a = arch.putObject(platform);
            a.put("url", "terraform-provider-" + addr.type() + "_" + version + "_" + platform + ".zip");
            a.putArray("hashes").add(h1);
        });
        json.writerWithDefaultPrettyPrinter()
                .writeValue(dir.resolve(version + ".json").toFile(), v);
    }

    /** The explicit methods, or Terraform's implied ones: the local plugin directories that exist, then direct. */
    static List<InstallationMethod> methods(CliConfig cli, Options o) {
        if (cli.explicit()) {
            return cli.methods().stream()
                    .map(m -> m instanceof InstallationMethod.FilesystemMirror f
                            ? new InstallationMethod.FilesystemMirror(
                                    o.workingDir().resolve(f.path()), f.include(), f.exclude())
                            : m)
                    .toList();
        }
        List<InstallationMethod> out = new ArrayList<>();
        for (Path d : impliedMirrorDirs(o)) {
            if (Files.isDirectory(d)) {
                out.add(new InstallationMethod.FilesystemMirror(d, List.of(), List.of()));
            }
        }
        out.add(new InstallationMethod.Direct(List.of(), List.of()));
        return out;
    }

    /** Terraform's implied local mirror directories on Unix, in its order of preference. */
    static List<Path> impliedMirrorDirs(Options o) {
        List<Path> dirs = new ArrayList<>();
        dirs.add(o.workingDir().resolve("terraform.d/plugins"));
        dirs.add(o.home().resolve(".terraform.d/plugins"));
        String dataHome = o.env().getOrDefault("XDG_DATA_HOME", "");
        dirs.add((dataHome.isEmpty() ? o.home().resolve(".local/share") : Path.of(dataHome))
                .resolve("terraform/plugins"));
        String dataDirs = o.env().getOrDefault("XDG_DATA_DIRS", "");
        for (String d : (dataDirs.isEmpty() ? "/usr/local/share/:/usr/share/" : dataDirs).split(":")) {
            if (!d.isEmpty()) {
                dirs.add(Path.of(d).resolve("terraform/plugins"));
            }
        }
        return dirs;
    }

    private static HashCache hashCache(Options o) {
        return new HashCache(UserCache.dir(o.env(), o.home())
                .orElse(o.dataDir().resolve("strata"))
                .resolve("package-hashes.json"));
    }

    private static Result<Installed> installOne(
            Options o,
            CliConfig cli,
            List<InstallationMethod> methods,
            HashCache hashes,
            Provider addr,
            String constraints,
            Optional<LockFile.Entry> locked,
            Consumer<Progress> progress) {
        if (locked.isPresent()) {
            progress.accept(new Progress.Reusing(addr));
        } else if (constraints.isEmpty()) {
            progress.accept(new Progress.FindingLatest(addr));
        } else {
            progress.accept(new Progress.FindingMatching(addr, constraints));
        }
        List<InstallationMethod> applicable =
                methods.stream().filter(m -> m.appliesTo(addr)).toList();
        Result<Map<String, Candidate>> offered = offers(o, cli, applicable, addr, o.platform());
        if (offered.value() == null) {
            return Result.of(null, offered.diagnostics());
        }
        Map<String, Candidate> versions = offered.value();
        Result<String> selected = select(addr, constraints, locked, versions, o.platform());
        if (selected.value() == null) {
            return Result.of(null, selected.diagnostics());
        }
        String version = selected.value();
        Candidate c = versions.get(version);
        Path target = o.dataDir()
                .resolve("providers")
                .resolve(addr.hostname())
                .resolve(addr.namespace())
                .resolve(addr.type())
                .resolve(version)
                .resolve(o.platform().toString());
        try {
            String hash = hashes.h1(c.pkg());
            if (locked.isPresent() && !locked.get().matches(hash)) {
                return failed(
                        "Failed to install provider",
                        "Error while installing " + display(addr) + " v" + version
                                + ": the local package for " + addr + " " + version
                                + " doesn't match any of the checksums"
                                + " previously recorded in the dependency lock file (this might be because the available"
                                + " checksums are for packages targeting different platforms); for more information:"
                                + " https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification");
            }
            if (alreadyInstalled(target, c.pkg(), hashes, hash)) {
                progress.accept(new Progress.UsingInstalled(addr, version));
            } else {
                progress.accept(new Progress.Installing(addr, version));
                place(
                        c.pkg(),
                        target,
                        cli.pluginCacheDir().map(d -> o.workingDir().resolve(d)),
                        addr,
                        version,
                        o.platform());
                progress.accept(new Progress.Completed(addr, version));
            }
            return Result.of(new Installed(addr, version, target, hash));
        } catch (IOException e) {
            return failed(
                    "Failed to install provider",
                    "Error while installing " + display(addr) + " v" + version + " from " + c.origin() + ": "
                            + e.getMessage());
        }
    }

    /** The versions of {@code addr} that the applicable methods offer for {@code platform}, first source first. */
    private static Result<Map<String, Candidate>> offers(
            Options o, CliConfig cli, List<InstallationMethod> applicable, Provider addr, Platform platform) {
        Map<String, Candidate> versions = new TreeMap<>();
        List<String> searched = new ArrayList<>();
        try {
            for (InstallationMethod m : applicable) {
                if (m instanceof InstallationMethod.FilesystemMirror f) {
                    searched.add(f.path().toString());
                    for (FilesystemMirror.Package p : new FilesystemMirror(f.path()).packages(addr, platform)) {
                        versions.putIfAbsent(
                                p.version(), new Candidate(p, f.path().toString()));
                    }
                }
            }
            if (cli.pluginCacheDir().isPresent()) {
                Path cache = o.workingDir().resolve(cli.pluginCacheDir().get());
                for (FilesystemMirror.Package p : new FilesystemMirror(cache).packages(addr, platform)) {
                    if (!p.packed()) {
                        versions.putIfAbsent(p.version(), new Candidate(p, cache.toString()));
                    }
                }
            }
        } catch (IOException e) {
            return failed(
                    "Failed to query available provider packages",
                    "Could not read the mirrors for " + display(addr) + ": " + e.getMessage());
        }
        if (versions.isEmpty()) {
            return Result.of(null, Diagnostics.of(unavailable(addr, applicable, searched, platform)));
        }
        return Result.of(versions);
    }

    /** The locked version when there is one (it must still be allowed), else the newest one allowed. */
    private static Result<String> select(
            Provider addr,
            String constraints,
            Optional<LockFile.Entry> locked,
            Map<String, Candidate> versions,
            Platform platform) {
        if (locked.isPresent()) {
            String version = locked.get().version();
            if (!Constraints.allows(constraints, version)) {
                return failed(
                        "Failed to query available provider packages",
                        "Could not retrieve the list of available"
                                + " versions for provider " + display(addr) + ": locked provider " + addr + " "
                                + version
                                + " does not match configured version constraint " + constraints
                                + "; must use strata init"
                                + " -upgrade to allow selection of new versions");
            }
            if (!versions.containsKey(version)) {
                return failed(
                        "Failed to install provider",
                        "The dependency lock file selects " + display(addr) + " "
                                + version + ", but the installation methods offer only "
                                + String.join(", ", versions.keySet())
                                + " for " + platform + ". Add that version to a mirror, or run strata init -upgrade to"
                                + " select another one.");
            }
            return Result.of(version);
        }
        Optional<String> best = versions.keySet().stream()
                .filter(v -> Constraints.allows(constraints, v))
                .max(FilesystemMirror::compareVersions);
        if (best.isEmpty()) {
            return failed(
                    "Failed to query available provider packages",
                    "Could not retrieve the list of available"
                            + " versions for provider " + display(addr)
                            + ": no available releases match the given constraints "
                            + constraints + ". The mirrors offer: "
                            + versions.keySet().stream()
                                    .sorted(FilesystemMirror::compareVersions)
                                    .collect(Collectors.joining(", "))
                            + ".");
        }
        return Result.of(best.get());
    }

    private static Diagnostic unavailable(
            Provider addr, List<InstallationMethod> applicable, List<String> searched, Platform platform) {
        boolean network = applicable.stream().anyMatch(m -> !(m instanceof InstallationMethod.FilesystemMirror));
        String where = searched.isEmpty()
                ? ""
                : " The filesystem mirrors searched (" + String.join(", ", searched) + ") have no package of it for "
                        + platform + ".";
        if (network) {
            return Diagnostic.error(
                    "Provider not available offline",
                    "Strata cannot install " + display(addr)
                            + ": it is not in any local mirror, and Strata has no network access to download it from "
                            + (applicable.stream().anyMatch(m -> m instanceof InstallationMethod.NetworkMirror)
                                    ? "a network mirror"
                                    : addr.hostname())
                            + "." + where + " Put the provider package in a filesystem mirror and name that"
                            + " directory in a provider_installation { filesystem_mirror { path = \"...\" } } block of the CLI"
                            + " configuration (TF_CLI_CONFIG_FILE or ~/.terraformrc), or in TF_PLUGIN_CACHE_DIR.",
                    null);
        }
        if (applicable.isEmpty()) {
            return Diagnostic.error(
                    "Provider not available",
                    "No provider_installation method of the CLI" + " configuration includes " + display(addr)
                            + ", so Strata has nowhere to install it from.",
                    null);
        }
        return Diagnostic.error("Provider not available", "Strata cannot install " + display(addr) + "." + where, null);
    }

    /**
     * Whether {@code target} holds the package already: a link to the unpacked package, or, for a zip, files
     * with the zip's hash {@code h1} (extracted here or into the plugin cache and linked), as Terraform
     * checks them; the hash cache remembers the extracted files' hash as a mirror directory's, so that init
     * does not extract a large provider again, nor read it again unless its files changed.
     */
    private static boolean alreadyInstalled(Path target, FilesystemMirror.Package pkg, HashCache hashes, String h1)
            throws IOException {
        if (!pkg.packed()) {
            return Files.isSymbolicLink(target)
                    && Files.readSymbolicLink(target).equals(pkg.location().toAbsolutePath());
        }
        if (!Files.isDirectory(target)) {
            return false;
        }
        return h1.equals(
                hashes.h1(new FilesystemMirror.Package(pkg.address(), pkg.version(), pkg.platform(), target, false)));
    }

    /** Puts the package at {@code target}: a link to an unpacked package, or the zip's files (via the plugin cache). */
    private static void place(
            FilesystemMirror.Package pkg,
            Path target,
            Optional<Path> pluginCache,
            Provider addr,
            String version,
            Platform platform)
            throws IOException {
        Files.createDirectories(target.getParent());
        removeTree(target);
        Path source = pkg.location().toAbsolutePath();
        if (pkg.packed()) {
            Path dir = target;
            if (pluginCache.isPresent()) {
                dir = pluginCache
                        .get()
                        .resolve(addr.hostname())
                        .resolve(addr.namespace())
                        .resolve(addr.type())
                        .resolve(version)
                        .resolve(platform.toString());
                if (!Files.isDirectory(dir)) {
                    unzip(source, dir);
                }
            } else {
                unzip(source, dir);
            }
            if (!dir.equals(target)) {
                Files.createSymbolicLink(target, dir.toAbsolutePath());
            }
        } else {
            Files.createSymbolicLink(target, source);
        }
    }

    private static void unzip(Path zip, Path dir) throws IOException {
        Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp");
        removeTree(tmp);
        Files.createDirectories(tmp);
        try (ZipFile z = new ZipFile(zip.toFile())) {
            for (Enumeration<? extends ZipEntry> en = z.entries(); en.hasMoreElements(); ) {
                ZipEntry e = en.nextElement();
                Path out = tmp.resolve(e.getName()).normalize();
                if (!out.startsWith(tmp)) {
                    throw new IOException("the archive entry " + e.getName() + " would be written outside the package");
                }
                if (e.isDirectory()) {
                    Files.createDirectories(out);
                    continue;
                }
                Files.createDirectories(out.getParent());
                try (InputStream in = z.getInputStream(e)) {
                    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                }
                // Zip entries' Unix modes are not visible through java.util.zip; plugins must run.
                if (out.getFileName().toString().startsWith("terraform-provider-")) {
                    out.toFile().setExecutable(true, false);
                }
            }
        }
        Files.createDirectories(dir.getParent());
        Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
    }

    static void removeTree(Path p) throws IOException {
        if (Files.isSymbolicLink(p) || Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(p);
            return;
        }
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }

    private static <T> Result<T> failed(String summary, String detail) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }

    /** {@code hashicorp/aws} for the public registry, the full address otherwise. */
    public static String display(Provider a) {
        return a.forDisplay();
    }
}
