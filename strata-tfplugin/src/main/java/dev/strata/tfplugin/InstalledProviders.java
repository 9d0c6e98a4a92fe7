package dev.strata.tfplugin;

import dev.strata.addr.Provider;
import dev.strata.addr.Version;
import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderSource;
import dev.strata.tfplugin.install.FilesystemMirror;
import dev.strata.tfplugin.install.LockFile;
import dev.strata.tfplugin.install.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The external Terraform providers {@code strata init} installed for a working directory, as a
 * {@link ProviderSource}: the versions the dependency lock file {@code .terraform.lock.hcl}
 * selects, whose packages are under {@code .terraform/providers/} (or {@code $TF_DATA_DIR/providers/}).
 * Built with one call:
 *
 * <pre>{@code
 * ProviderSource source = ProviderSource.chain(ProviderRegistry.load(),
 *     InstalledProviders.forWorkingDirectory(dir));   // built-ins first, for their own addresses
 * Result<ProviderFactory> aws = source.resolve(Provider.hashicorp("aws"), constraints);
 * try (Provider p = aws.value().create()) { ... }    // one plugin process per create(), started lazily
 * }</pre>
 *
 * <p>Nothing starts when this source is built or a provider resolved: a plugin process starts on
 * the first call that needs it, once per {@link ProviderFactory#create()} (each provider
 * configuration gets its own process, since SDK-based providers accept one configuration per
 * process). Schemas are cached in the user's cache ({@link dev.strata.tfplugin.install.UserCache},
 * {@code schemas/}) keyed by the package hash the lock file records, so later runs, in any working
 * directory, answer {@code schema()} without starting the plugin. Package
 * hashes are checked by {@code strata init}, not again here.
 */
public final class InstalledProviders implements ProviderSource {
    /** How long one provider call may take; generous because an apply may wait on slow cloud APIs. */
    public static final Duration CALL_TIMEOUT = Duration.ofHours(2);

    private final Path dataDir;
    private final Path lockFile;
    private final Platform platform;
    private final Path workingDir;
    private final Map<String, String> environment;
    private final Map<String, String> pluginEnv;
    private final SchemaCache cache;
    private final Map<Provider, Installed> resolved = new ConcurrentHashMap<>();
    private final java.util.SortedMap<Provider, Path> devOverrides;

    private InstalledProviders(
            Path workingDir,
            Map<String, String> environment,
            Path dataDir,
            Path lockFile,
            Platform platform,
            Map<String, String> pluginEnv,
            java.util.SortedMap<Provider, Path> devOverrides) {
        this.workingDir = workingDir;
        this.environment = Map.copyOf(environment);
        this.dataDir = dataDir;
        this.lockFile = lockFile;
        this.platform = platform;
        this.pluginEnv = Map.copyOf(pluginEnv);
        this.devOverrides = devOverrides;
        String home = environment.get("HOME");
        this.cache = new SchemaCache(dev.strata.tfplugin.install.UserCache.dir(
                        environment, Path.of(home != null ? home : System.getProperty("user.home")))
                .orElse(dataDir.resolve("strata"))
                .resolve("schemas"));
    }

    /** The providers installed for {@code workingDir}, with this process's environment ({@code TF_DATA_DIR}). */
    public static InstalledProviders forWorkingDirectory(Path workingDir) {
        return forWorkingDirectory(workingDir, System.getenv());
    }

    /**
     * As {@link #forWorkingDirectory(Path)} with the given environment, which is also the whole
     * environment the plugin processes get (as Terraform passes its own to providers); they run in
     * {@code workingDir}. The CLI passes the same directory and environment as the engine's
     * {@code ConfigureRequest}: a plugin starts before it is configured (to validate the
     * configuration), so they are fixed when it starts.
     */
    public static InstalledProviders forWorkingDirectory(Path workingDir, Map<String, String> env) {
        String home = env.get("HOME");
        // A broken CLI configuration is init's to report; here it only means no development overrides.
        dev.strata.tfplugin.install.CliConfig cli = dev.strata.tfplugin.install.CliConfig.load(
                        env, Path.of(home != null ? home : System.getProperty("user.home")))
                .value();
        return new InstalledProviders(
                workingDir,
                env,
                dataDir(workingDir, env),
                workingDir.resolve(LockFile.FILENAME),
                Platform.current(),
                Map.of(),
                cli == null ? new java.util.TreeMap<>() : cli.devOverrides());
    }

    /**
     * The CLI configuration's {@code dev_overrides}, which every command warns about as Terraform
     * does: those providers run from the named directories, whatever the lock file selects.
     */
    public java.util.SortedMap<Provider, Path> devOverrides() {
        return devOverrides;
    }

    /** The data directory Terraform uses: {@code TF_DATA_DIR}, else {@code .terraform}. */
    public static Path dataDir(Path workingDir, Map<String, String> env) {
        String d = env.get("TF_DATA_DIR");
        return d == null || d.isEmpty() ? workingDir.resolve(".terraform") : workingDir.resolve(d);
    }

    /** The same providers, started with {@code env} added to the plugin's environment (tests use it for fault injection). */
    public InstalledProviders withPluginEnvironment(Map<String, String> env) {
        return new InstalledProviders(workingDir, environment, dataDir, lockFile, platform, env, devOverrides);
    }

    public SchemaCache schemaCache() {
        return cache;
    }

    @Override
    public Result<ProviderFactory> resolve(Provider address, VersionConstraint constraints) {
        Provider a = address;
        Path override = devOverrides.get(a);
        if (override != null) {
            return overridden(a, override);
        }
        Result<Installed> r = installed(a);
        if (r.value() == null) {
            return Result.of(null, r.diagnostics());
        }
        Installed p = r.value();
        if (!constraints.selects(p.version())) {
            return error(
                    "Provider version does not match the constraints",
                    "The dependency lock file selects "
                            + address.forDisplay() + " " + p.version()
                            + ", which does not satisfy the version constraint \""
                            + constraints + "\". Run \"strata init -upgrade\" to select a matching version.");
        }
        return Result.of(p);
    }

    /** The installed package for {@code a}, looked up once. */
    public Result<Installed> installed(Provider a) {
        Installed known = resolved.get(a);
        if (known != null) {
            return Result.of(known);
        }
        Result<LockFile> lock = readLock();
        if (lock.value() == null) {
            return Result.of(null, lock.diagnostics());
        }
        Optional<LockFile.Entry> e = lock.value().entry(a);
        String display = a.forDisplay();
        if (e.isEmpty()) {
            return error(
                    "Provider not installed",
                    "The provider " + a + " is required by this configuration, but the"
                            + " dependency lock file selects no version of it. Run \"strata init\" to install it.");
        }
        String version = e.get().version();
        Path dir = dataDir.resolve("providers")
                .resolve(a.hostname())
                .resolve(a.namespace())
                .resolve(a.type())
                .resolve(version)
                .resolve(platform.toString());
        Optional<Path> exe;
        try {
            exe = Files.isDirectory(dir)
                    ? new FilesystemMirror.Package(a, version, platform, dir, false).executable()
                    : Optional.empty();
        } catch (IOException ex) {
            exe = Optional.empty();
        }
        if (exe.isEmpty()) {
            return error(
                    "Required plugins are not installed",
                    "The dependency lock file selects " + display + " "
                            + version + ", but there is no package of it for " + platform + " in "
                            + dir.getParent().getParent()
                            + ". Run \"strata init\" to install it.");
        }
        String hash = e.get().hashes().stream()
                .filter(h -> h.startsWith("h1:"))
                .findFirst()
                .orElse(e.get().hashes().isEmpty() ? null : e.get().hashes().get(0));
        Version v = Version.parse(version).orElse(null);
        if (v == null) {
            return error(
                    "Invalid provider version",
                    "The dependency lock file selects version \"" + version + "\" of " + display
                            + ", which is not a version number.");
        }
        Installed p = new Installed(a, v, dir, exe.get(), hash);
        resolved.put(a, p);
        return Result.of(p);
    }

    /**
     * A development build: the {@code terraform-provider-TYPE*} executable in the override
     * directory. As in Terraform, it has no version (0.0.0) and version constraints are not checked;
     * it has no package hash either, so its schema is never cached.
     */
    private Result<ProviderFactory> overridden(Provider a, Path dir) {
        String prefix = "terraform-provider-" + a.type();
        Optional<Path> exe;
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            exe = files.filter(f -> f.getFileName().toString().startsWith(prefix)
                            && Files.isExecutable(f)
                            && Files.isRegularFile(f))
                    .sorted()
                    .findFirst();
        } catch (IOException e) {
            exe = Optional.empty();
        }
        if (exe.isEmpty()) {
            return error(
                    "Provider development override has no executable",
                    "The CLI configuration's dev_overrides"
                            + " runs " + a + " from " + dir + ", but that directory has no executable named " + prefix
                            + "*. Build the provider into it, or remove the override.");
        }
        return Result.of(new Installed(a, Version.of("0.0.0"), dir, exe.get(), null));
    }

    /** Every provider the lock file selects, with the problems of those that are not installed. */
    public Result<List<Installed>> all() {
        Result<LockFile> lock = readLock();
        if (lock.value() == null) {
            return Result.of(List.of(), lock.diagnostics());
        }
        List<Installed> out = new ArrayList<>();
        Diagnostics.Builder diags = Diagnostics.builder();
        for (Provider a : lock.value().providers().keySet()) {
            Result<Installed> r = installed(a);
            diags.addAll(r.diagnostics());
            if (r.value() != null) {
                out.add(r.value());
            }
        }
        return Result.of(out, diags.build());
    }

    private Result<LockFile> readLock() {
        if (!Files.isRegularFile(lockFile)) {
            return error(
                    "No dependency lock file",
                    "There is no " + LockFile.FILENAME + " in this directory, so no"
                            + " external providers are installed. Run \"strata init\" to install the providers the"
                            + " configuration requires.");
        }
        try {
            // Named as configuration files are, relative to the working directory, so that its problems
            // are shown with their source lines.
            String name = lockFile.startsWith(workingDir)
                    ? workingDir.relativize(lockFile).toString()
                    : lockFile.toString();
            Result<LockFile> r = LockFile.parse(Files.readAllBytes(lockFile), name);
            return r.hasErrors() ? Result.of(null, r.diagnostics()) : r;
        } catch (IOException ex) {
            return error(
                    "Failed to read the dependency lock file", "Could not read " + lockFile + ": " + ex.getMessage());
        }
    }

    private static <T> Result<T> error(String summary, String detail) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }

    /**
     * One installed provider package. {@link #create()} returns a new {@link TerraformProvider}
     * with its own (not yet started) plugin process.
     */
    public final class Installed implements ProviderFactory {
        private final Provider address;
        private final Version version;
        private final Path packageDir;
        private final Path executable;
        private final String packageHash;

        Installed(Provider address, Version version, Path packageDir, Path executable, String packageHash) {
            this.address = address;
            this.version = version;
            this.packageDir = packageDir;
            this.executable = executable;
            this.packageHash = packageHash;
        }

        @Override
        public Provider address() {
            return address;
        }

        @Override
        public Version version() {
            return version;
        }

        public Path packageDir() {
            return packageDir;
        }

        public Path executable() {
            return executable;
        }

        /** The hash the lock file records for the package (the schema cache key); null when it records none. */
        public String packageHash() {
            return packageHash;
        }

        public PluginLaunch launch() {
            return PluginLaunch.of(address.toString(), executable)
                    .withEnvironment(pluginEnv)
                    .in(workingDir, environment);
        }

        @Override
        public TerraformProvider create() {
            return TerraformProvider.of(launch(), CALL_TIMEOUT, packageHash == null ? null : cache, packageHash);
        }
    }
}
