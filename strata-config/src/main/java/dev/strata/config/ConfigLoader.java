package dev.strata.config;

import dev.strata.addr.Module;
import dev.strata.addr.Version;
import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.hcl.json.JsonSyntax;
import dev.strata.hcl.syntax.NativeSyntax;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Loads configurations from directories: one module ({@link #loadModule}) or the whole tree of
 * module calls ({@link #loadTree}), local modules read in place and installed ones found through
 * the module manifest. File names in diagnostics are relative to the root module's
 * directory, as Terraform shows them ({@code main.tf}, {@code modules/net/main.tf}).
 */
public final class ConfigLoader {
    private static final int MAX_DEPTH = 64;

    /**
     * @param languageVersion the Terraform language version this engine implements, which
     *                        {@code required_version} constraints are checked against
     * @param dataDir         Terraform's data directory ({@code TF_DATA_DIR}) relative to the root module
     *                        or absolute, where the manifest of the modules {@code terraform init}
     *                        installed is read; null or empty for {@code .terraform}
     */
    public record Options(Version languageVersion, String dataDir) {
        /**
         * The Terraform release whose language Strata implements and whose behaviour the differential
         * tests compare with; configurations constrain {@code required_version} against it.
         */
        public static final Options DEFAULT =
                new Options(Version.parse("1.11.4").orElseThrow(), null);

        public Options(Version languageVersion) {
            this(languageVersion, null);
        }

        /** These options with the data directory {@code env} names in {@code TF_DATA_DIR}, if any. */
        public Options withEnvironment(Map<String, String> env) {
            return new Options(languageVersion, env.get("TF_DATA_DIR"));
        }
    }

    private final Options options;
    private final Path rootDir;
    private final Map<String, byte[]> sources = new HashMap<>();
    private final Map<String, dev.strata.hcl.Body> bodies = new HashMap<>();
    /** Modules by directory: a module called from several places is read, and diagnosed, once. */
    private final Map<Path, ModuleConfig> modules = new HashMap<>();

    private final Diagnostics.Builder diags = Diagnostics.builder();

    private final RemoteModules remote;

    /**
     * Told the root module, with the problems of reading it, as soon as it is read and before its children
     * are located; may be null.
     */
    private final java.util.function.Consumer<Result<ModuleConfig>> rootRead;

    /**
     * Where the module of a call with a non-local source is: in the manifest of installed modules
     * (loading), or freshly installed ({@link ModuleInstaller}). Returns null after reporting why not.
     */
    interface RemoteModules {
        Path locate(ModuleCallConfig call, Module childPath, ModuleSource source, Diagnostics.Builder diags);
    }

    private ConfigLoader(Path rootDir, Options options) {
        this.rootDir = rootDir.toAbsolutePath().normalize();
        this.options = options;
        this.remote = new InstalledModules(this.rootDir, options.dataDir(), null);
        this.rootRead = null;
    }

    ConfigLoader(Path rootDir, Options options, RemoteModules remote) {
        this(rootDir, options, remote, null);
    }

    ConfigLoader(
            Path rootDir,
            Options options,
            RemoteModules remote,
            java.util.function.Consumer<Result<ModuleConfig>> rootRead) {
        this.rootDir = rootDir.toAbsolutePath().normalize();
        this.options = options;
        this.remote = remote;
        this.rootRead = rootRead;
    }

    /** Loads the tree from the root directory with this loader's way of locating remote modules. */
    Result<ConfigTree> loadTree() {
        ConfigNode root = node(rootDir, Module.ROOT, null, new ArrayList<>());
        // As Terraform, once the tree is built: what the calls pass and the modules configure of providers.
        diags.addAll(ModuleProviderChecks.check(root));
        return Result.of(new ConfigTree(root, sources, bodies), diags.build().inPlaceOrder());
    }

    /** Modules {@code strata init} (or {@code terraform init}) installed, found through the manifest. */
    private static final class InstalledModules implements RemoteModules {
        private final Path root;
        private final String dataDir;
        /** A manifest named by the caller, read instead of the root module's own; null for that. */
        private final Path manifestFile;

        private ModuleManifest manifest;

        InstalledModules(Path root, String dataDir, Path manifestFile) {
            this.root = root;
            this.dataDir = dataDir;
            this.manifestFile = manifestFile;
        }

        @Override
        public Path locate(ModuleCallConfig call, Module childPath, ModuleSource source, Diagnostics.Builder diags) {
            if (manifest == null) {
                manifest = manifestFile == null
                        ? ModuleManifest.read(root, dataDir)
                        : ModuleManifest.readFile(manifestFile);
            }
            String key = String.join(".", childPath.names());
            Optional<ModuleManifest.Entry> e =
                    manifest.entry(key).filter(x -> ModuleSource.same(x.source(), call.source()));
            if (e.isPresent() && Files.isDirectory(root.resolve(e.get().dir()))) {
                if (source instanceof ModuleSource.Registry
                        && !versionStillAllowed(call, e.get().version())) {
                    diags.add(Diagnostic.error(
                            "Module version requirements have changed",
                            "The version requirements have changed since this module was installed and the "
                                    + "installed version (" + e.get().version() + ") is no longer acceptable. Run "
                                    + "\"strata init\" to install all modules required by this configuration.",
                            call.declRange()));
                    return null;
                }
                return root.resolve(e.get().dir()).normalize();
            }
            diags.add(Diagnostic.error(
                    "Module not installed",
                    source instanceof ModuleSource.Remote r
                            ? ModuleInstaller.unsupportedDetail(call, r)
                            : "The module \"" + call.name() + "\" (source \""
                                    + call.source()
                                    + "\") is not yet installed. Run \"strata init\" to install all modules "
                                    + "required by this configuration.",
                    call.declRange()));
            return null;
        }
    }

    /** Whether the registry version an earlier init recorded still meets the call's constraint. */
    private static boolean versionStillAllowed(ModuleCallConfig call, String recorded) {
        if (call.version() == null) {
            return true;
        }
        return recorded != null
                && dev.strata.addr.Version.parse(recorded)
                        .map(call.version()::selects)
                        .orElse(false);
    }

    /**
     * Loads the root module in {@code dir} and every module it calls: local ones in place, others from
     * where {@code strata init} installed them ({@link ModuleManifest}).
     */
    public static Result<ConfigTree> loadTree(Path dir, Options options) {
        return new ConfigLoader(dir, options).loadTree();
    }

    /**
     * Loads the root module in {@code dir} and its tree, finding the installed modules through the
     * manifest {@code manifestFile} (as {@link ModuleInstaller#writeSubtreeManifest} writes it, its
     * directories relative to {@code dir}) instead of the root module's own: how a Stack's component
     * loads the modules {@code strata stacks init} installed for it outside its directory.
     */
    public static Result<ConfigTree> loadTree(Path dir, Options options, Path manifestFile) {
        Path abs = dir.toAbsolutePath().normalize();
        return new ConfigLoader(abs, options, new InstalledModules(abs, options.dataDir(), manifestFile)).loadTree();
    }

    /** Loads one module directory, without its children. */
    public static Result<ModuleConfig> loadModule(Path dir, Options options) {
        ConfigLoader l = new ConfigLoader(dir, options);
        ModuleConfig m = l.module(l.rootDir);
        return Result.of(m, l.diags.build().inPlaceOrder());
    }

    /** Whether a directory holds any configuration file, as {@code init}/{@code validate} first ask. */
    public static boolean hasConfigFiles(Path dir) {
        return !configFiles(dir).isEmpty();
    }

    private ConfigNode node(Path dir, Module path, ModuleCallConfig call, List<Path> stack) {
        int before = diags.size();
        ModuleConfig m = module(dir);
        if (call == null && rootRead != null) {
            List<Diagnostic> all = diags.build().asList();
            rootRead.accept(Result.of(m, Diagnostics.of(all.subList(before, all.size()))));
        }
        stack.add(dir);
        TreeMap<String, ConfigNode> children = new TreeMap<>();
        for (ModuleCallConfig mc : m.moduleCalls().values()) {
            if (mc.source().isEmpty()) {
                continue;
            }
            ModuleSource source = ModuleSource.parse(mc.source());
            Path childDir;
            if (source instanceof ModuleSource.Local) {
                if (mc.version() != null) {
                    diags.add(Diagnostic.error(
                            "Invalid version constraint",
                            "Cannot apply a version constraint to " + "module \"" + mc.name()
                                    + "\" because it has a relative local path.",
                            mc.version().range()));
                }
                childDir = dir.resolve(mc.source().replace('\\', '/')).normalize();
                if (!Files.isDirectory(childDir)) {
                    diags.add(Diagnostic.error(
                            "Unreadable module directory",
                            "The directory " + display(childDir) + " does not exist or cannot be read.",
                            mc.sourceRange()));
                    continue;
                }
            } else if (source instanceof ModuleSource.Undetected u) {
                // As Terraform, for every command that reads the configuration, not only init.
                diags.add(ModuleInstaller.invalidAddress(u, mc.sourceRange()));
                continue;
            } else {
                if (mc.version() != null && !(source instanceof ModuleSource.Registry)) {
                    diags.add(Diagnostic.error(
                            "Invalid version constraint",
                            "Cannot apply a version constraint to " + "module \"" + mc.name()
                                    + "\" because it has a non Registry URL.",
                            mc.version().range()));
                }
                childDir = remote.locate(mc, path.child(mc.name()), source, diags);
                if (childDir == null) {
                    continue;
                }
            }
            if (stack.contains(childDir)) {
                diags.add(Diagnostic.error(
                        "Module call cycle",
                        "The module \"" + mc.name() + "\" calls "
                                + display(childDir)
                                + ", which is already being loaded by a module that calls this one: "
                                + cycle(stack, childDir) + ". A module cannot call itself, directly or indirectly.",
                        mc.sourceRange()));
                continue;
            }
            if (stack.size() >= MAX_DEPTH) {
                diags.add(Diagnostic.error(
                        "Module tree too deep",
                        "Modules are nested more than " + MAX_DEPTH
                                + " levels deep here, which suggests a mistake in the module sources.",
                        mc.sourceRange()));
                continue;
            }
            children.put(mc.name(), node(childDir, path.child(mc.name()), mc, stack));
        }
        stack.removeLast();
        return new ConfigNode(path, m, call, children);
    }

    private String cycle(List<Path> stack, Path again) {
        StringBuilder sb = new StringBuilder();
        for (Path p : stack.subList(stack.indexOf(again), stack.size())) {
            sb.append(display(p)).append(" → ");
        }
        return sb.append(display(again)).toString();
    }

    private String display(Path p) {
        String s = rootDir.relativize(p).toString().replace('\\', '/');
        return s.isEmpty() ? "." : s;
    }

    private ModuleConfig module(Path dir) {
        ModuleConfig cached = modules.get(dir);
        if (cached != null) {
            return cached;
        }
        ModuleConfig m = read(dir);
        modules.put(dir, m);
        return m;
    }

    /**
     * A generated {@code X.tf.json} may have a source map {@code X.tf.json.sites} beside it (the Java SDK
     * writes one): kept with the sources so diagnostics can name the program line behind the JSON.
     */
    private void keepSourceMap(Path file, String name) {
        if (!name.endsWith(".tf.json")) {
            return;
        }
        Path map = file.resolveSibling(file.getFileName() + DiagnosticRenderer.SOURCE_MAP_SUFFIX);
        try {
            if (Files.isRegularFile(map)) {
                sources.put(name + DiagnosticRenderer.SOURCE_MAP_SUFFIX, Files.readAllBytes(map));
            }
        } catch (IOException e) {
            // Without its map a diagnostic still names the JSON file and line.
        }
    }

    private ModuleConfig read(Path dir) {
        List<ModuleDecoder.SourceFile> primary = new ArrayList<>();
        List<ModuleDecoder.SourceFile> overrides = new ArrayList<>();
        for (Path f : configFiles(dir)) {
            String name = display(f);
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(f);
            } catch (IOException e) {
                diags.add(Diagnostic.error(
                        "Failed to read file",
                        "The file could not be read: " + IoProblems.describe(name, e) + ".",
                        null));
                continue;
            }
            sources.put(name, bytes);
            keepSourceMap(f, name);
            Result<HclFile> parsed = f.getFileName().toString().endsWith(".json")
                    ? JsonSyntax.parse(bytes, name)
                    : NativeSyntax.parseConfig(bytes, name);
            diags.addAll(parsed.diagnostics());
            if (parsed.value() == null) {
                continue;
            }
            bodies.put(name, parsed.value().body());
            boolean ov = ModuleDecoder.isOverrideFile(f.getFileName().toString());
            (ov ? overrides : primary).add(new ModuleDecoder.SourceFile(parsed.value(), ov));
        }
        List<ModuleDecoder.SourceFile> all = new ArrayList<>(primary);
        all.addAll(overrides);
        Result<ModuleConfig> m = new ModuleDecoder().decode(dir, all);
        diags.addAll(m.diagnostics());
        checkVersions(m.value());
        return m.value();
    }

    private void checkVersions(ModuleConfig m) {
        if (options.languageVersion() == null) {
            return;
        }
        for (VersionConstraint c : m.requiredVersions()) {
            if (!c.allows(options.languageVersion())) {
                diags.add(Diagnostic.error(
                        "Unsupported Terraform Core version",
                        "This configuration does not "
                                + "support Terraform version " + options.languageVersion()
                                + ", the version of the Terraform "
                                + "language Strata implements. To proceed, either choose another supported Terraform version "
                                + "or update this version constraint. Version constraints are normally set for good reason, "
                                + "so updating the constraint may lead to other errors or unexpected behavior.",
                        c.range()));
            }
        }
    }

    /** The {@code .tf} and {@code .tf.json} files of a directory, as {@link ConfigFiles#list} picks them. */
    static List<Path> configFiles(Path dir) {
        return ConfigFiles.list(dir, n -> n.endsWith(".tf") || n.endsWith(".tf.json"));
    }
}
