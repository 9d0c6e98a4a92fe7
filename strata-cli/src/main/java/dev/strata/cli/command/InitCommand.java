package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.InitView;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.ModuleInstaller;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code strata init}: installs the modules the configuration calls into {@code .strata/modules/}
 * (local paths are read in place; registry modules, Git repositories, HTTP(S) archives, directories and
 * archives on this machine are fetched by {@link ModuleInstaller}; S3, GCS and Mercurial are an error), records the tree in
 * {@code .strata/modules/modules.json}, and installs the providers the configuration needs
 * ({@link ProviderSetup}). The backend is set up, recorded and migrated by {@link BackendInit}.
 */
final class InitCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> BACKEND = FLAGS.bool(
            "backend",
            true,
            "Disable backend initialization for this configuration and use what was previously initialized instead.");
    private static final Flag<List<String>> BACKEND_CONFIG = FLAGS.repeated(
            "backend-config",
            "KEY=VALUE|FILE",
            "Setting of the backend block, given as KEY=VALUE or as a file of KEY = VALUE lines; may be repeated, "
                    + "later ones win. Recorded in the data directory for later commands.");
    private static final Flag<Boolean> RECONFIGURE = FLAGS.bool(
            "reconfigure", false, "Use the backend configuration as it is now, without migrating any existing state.");
    private static final Flag<Boolean> MIGRATE_STATE = FLAGS.bool(
            "migrate-state",
            false,
            "Copy every workspace's state from the previously initialized backend to the configured one.");
    private static final Flag<Boolean> FORCE_COPY = FLAGS.bool(
            "force-copy",
            false,
            "Copy state to the new backend without asking for confirmation (implies -migrate-state).");
    private static final Flag<Boolean> INPUT = FLAGS.bool(
            "input",
            true,
            "Ask for confirmation when state would be copied; with -input=false, copying needs -force-copy.");
    private static final LockFlags LOCK = new LockFlags(FLAGS);
    private static final Flag<Boolean> JSON = FLAGS.bool(
            "json",
            false,
            "Write the output as Terraform's machine-readable stream: one JSON message per line. Not with "
                    + "-migrate-state, which asks for confirmation.");
    private static final Flag<Boolean> UPGRADE = FLAGS.bool(
            "upgrade",
            false,
            "Install every module again from its source, and select the newest provider versions the version "
                    + "constraints allow, ignoring the versions recorded in the dependency lock file.");

    @Override
    public boolean streamsJson() {
        return true;
    }

    @Override
    public String name() {
        return "init";
    }

    @Override
    public String synopsis() {
        return "Prepare your working directory for other commands";
    }

    @Override
    public Section section() {
        return Section.MAIN;
    }

    @Override
    public String description() {
        return "Initialize a working directory containing Strata configuration files: install the modules the "
                + "configuration calls into .strata/modules, record the module tree in .strata/modules/modules.json, "
                + "set up the backend, and list the providers the configuration requires.\n\n"
                + "The backend block's settings, merged with -backend-config, are recorded in the data directory "
                + "(.terraform/terraform.tfstate) and used by later commands. When the backend block changes, run "
                + "init again: with -migrate-state to copy every workspace's state to the new backend (after "
                + "confirmation, or at once with -force-copy), or with -reconfigure to switch without copying.\n\n"
                + "Local module paths (./ or ../) are read in place. Git repositories on this machine "
                + "(git::file:///repo, git::/repo), remote Git (git::https://, git::ssh://, git@host:org/repo, "
                + "github.com/org/repo; with //subdir and ?ref=), HTTP(S) archives (.zip, .tar.gz, ?archive=) and URLs "
                + "answering with an X-Terraform-Get header, directories and archives at absolute paths or file:// "
                + "URLs, and module registry addresses (NAMESPACE/NAME/SYSTEM or HOST/NAMESPACE/NAME/SYSTEM, with "
                + "//subdir) are installed. A registry module gets the newest version its version constraint allows; "
                + "the registry is found through https://HOST/.well-known/terraform.json or the CLI configuration's "
                + "host \"HOST\" { services = { \"modules.v1\" = \"URL\" } } block, and the credentials block or "
                + "TF_TOKEN_<host> variable gives its API token. A module installed earlier from the same source (at a "
                + "version its constraint still allows) is kept unless -upgrade is given. S3, GCS and Mercurial "
                + "sources are an error.\n\n"
                + "Providers built in to Strata (terraform, random, null, local, time, tls, http, ...) are used for "
                + "their own addresses. Every other provider is installed offline, as terraform init does: from the "
                + "filesystem_mirror directories of the CLI configuration's provider_installation block "
                + "(TF_CLI_CONFIG_FILE, else ~/.terraformrc), the implied local mirror directories "
                + "(terraform.d/plugins, ~/.terraform.d/plugins, $XDG_DATA_HOME/terraform/plugins, ...) or "
                + "TF_PLUGIN_CACHE_DIR, in unpacked or zip layout, into .terraform/providers. The selected versions "
                + "and package hashes are recorded in .terraform.lock.hcl, and a package whose hash does not match "
                + "that file is refused. The direct and network_mirror methods need network access, which Strata "
                + "does not use.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /**
     * The arguments: whether to upgrade modules and providers, and the backend's set-up (skipped with
     * {@code -backend=false}); a malformed {@code -lock-timeout} is reported with the backend's problems.
     */
    record Args(boolean upgrade, boolean backend, Parsed<BackendInit.Options> backendOptions) {

        static Parsed<Args> parse(ParsedArgs args) {
            Parsed<dev.strata.state.LockRequest> lock = LOCK.parse(args, "migration");
            Parsed<BackendInit.Options> backend = new Parsed<>(
                    lock.hasErrors()
                            ? null
                            : new BackendInit.Options(
                                    args.get(BACKEND_CONFIG),
                                    args.get(RECONFIGURE),
                                    args.get(MIGRATE_STATE),
                                    args.get(FORCE_COPY),
                                    args.get(INPUT),
                                    lock.value()),
                    lock.diagnostics());
            Args parsed = new Args(args.get(UPGRADE), args.get(BACKEND), backend);
            if (!args.positionals().isEmpty()) {
                return new Parsed<>(
                        parsed,
                        List.of(
                                CliDiagnostic.error(
                                        "Unexpected argument",
                                        "The init command "
                                                + "takes no arguments; use the global -chdir option to initialize another directory.")));
            }
            return Parsed.of(parsed);
        }
    }

    /** CLI diagnostics as configuration ones without a place, so that they render and sort with those. */
    private static Diagnostics placeless(List<CliDiagnostic> problems) {
        Diagnostics.Builder b = Diagnostics.builder();
        problems.forEach(p -> b.add(Diagnostic.error(p.summary(), p.detail(), null)));
        return b.build();
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        boolean json = parsed.get(JSON);
        InitView view = json ? InitView.json(context) : InitView.human(context);
        view.start();
        Parsed<Args> parsedArgs = Args.parse(parsed);
        if (parsedArgs.hasErrors()) {
            view.diagnostics(placeless(parsedArgs.diagnostics()), dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
            return 1;
        }
        if (json && parsed.get(MIGRATE_STATE)) {
            // As Terraform: a JSON stream has no one to answer the question migrating asks.
            view.diagnostics(
                    Diagnostics.of(Diagnostic.error(
                            "The -migrate-state and -json options are mutually-exclusive",
                            "Strata cannot ask for interactive approval when -json is set. To use the "
                                    + "-migrate-state option, disable the -json option.",
                            null)),
                    dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
            return 1;
        }
        Args args = parsedArgs.value();
        Path dir = context.workingDir();
        if (withoutConfiguration(dir)) {
            // As Terraform: nothing to install nor set up, and no data directory is made.
            view.emptyDirectory();
            return 0;
        }
        Result<dev.strata.config.RemoteAccess> access = RemoteModuleAccess.of(context);
        if (access.hasErrors()) {
            view.diagnostics(access.diagnostics(), dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
            return 1;
        }
        // Hashing a provider package met for the first time takes a second or more; it overlaps what follows.
        // A first signal lets the step in progress finish and stops before the next one (as Terraform, whose
        // init stops with an error saying what the interrupt canceled); a second exits at once, releasing the
        // locks of a state migration.
        try (Interrupts signals = Interrupts.install(context);
                ProviderSetup.Prehash prehash = ProviderSetup.prehashInBackground(context, args.upgrade())) {
            java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
            try (var stop = signals.onStop(() -> stopped.set(true))) {
                return install(context, view, args, access.value(), prehash, signals, stopped::get);
            }
        }
    }

    /** Terraform's error for what an interrupt canceled ("Provider installation", "Module installation"). */
    static Diagnostic canceled(String what) {
        return Diagnostic.error(what + " was canceled by an interrupt signal.", "", null);
    }

    private int install(
            CommandContext context,
            InitView view,
            Args args,
            dev.strata.config.RemoteAccess access,
            ProviderSetup.Prehash prehash,
            Interrupts signals,
            java.util.function.BooleanSupplier stopped) {
        Path dir = context.workingDir();
        java.util.concurrent.atomic.AtomicReference<Diagnostics> rootProblems =
                new java.util.concurrent.atomic.AtomicReference<>(Diagnostics.NONE);
        Result<ModuleInstaller.Installation> installed =
                ModuleInstaller.install(dir, ConfigLoader.Options.DEFAULT, args.upgrade(), access, root -> {
                    rootProblems.set(root.diagnostics());
                    prehash.rootRead(root.value());
                });
        // As Terraform: when the root module does not read, its modules are still installed and the backend set
        // up, and the problems come after Terraform's note that the configuration must be valid.
        if (stopped.getAsBoolean()) {
            view.diagnostics(
                    Diagnostics.of(canceled("Module installation")), dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
            return 1;
        }
        boolean rootInvalid = rootProblems.get().hasErrors();
        ConfigTree tree = installed.value().tree();
        Diagnostics.Builder extra = Diagnostics.builder().addAll(installed.diagnostics());
        // As Terraform 1.11: the backend's section comes first (the modules were installed quietly above),
        // and the backend is set up even when a module could not be installed: a second init after the
        // module is fixed finds it set up.
        if (args.backend() && tree.root() != null && tree.root().module() != null) {
            Diagnostics.Builder backendDiags =
                    Diagnostics.builder().addAll(placeless(args.backendOptions().diagnostics()));
            boolean ok = !args.backendOptions().hasErrors()
                    && BackendInit.run(
                            context,
                            view,
                            tree.root().module(),
                            args.backendOptions().value(),
                            backendDiags,
                            signals);
            if (!ok) {
                view.diagnostics(backendDiags.build(), sources(context, tree));
                return 1;
            }
            extra.addAll(backendDiags.build());
        }
        // As Terraform: the section only for a configuration that calls modules.
        if (!installed.value().listing().isEmpty() || installed.hasErrors() && !rootInvalid) {
            view.section(args.upgrade() ? InitView.Section.UPGRADING_MODULES : InitView.Section.MODULES);
        }
        // As Terraform: a module whose download failed is listed as downloading, and its error follows.
        for (ModuleInstaller.Step step : installed.value().listing()) {
            switch (step.action()) {
                case INSTALLED -> {
                    view.text("Downloading " + step.label() + " for " + step.key() + "...");
                    view.item(step.key() + " in " + step.dir());
                }
                case FAILED -> view.text("Downloading " + step.label() + " for " + step.key() + "...");
                case LOCAL -> view.item(step.key() + " in " + step.dir());
                // As Terraform: a module kept from an earlier init (a local one too) is not listed again.
                case REUSED -> {}
            }
        }
        if (installed.hasErrors()) {
            if (rootInvalid) {
                view.invalidConfiguration(installed.diagnostics(), tree.diagnosticSources());
            } else {
                view.diagnostics(installed.diagnostics(), tree.diagnosticSources());
            }
            return 1;
        }
        if (stopped.getAsBoolean()) {
            view.diagnostics(
                    Diagnostics.of(canceled("Provider installation")), dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
            return 1;
        }
        view.section(InitView.Section.PROVIDERS);
        ProviderSetup.Outcome providers = ProviderSetup.install(
                context, tree, args.upgrade(), step -> view.provider(step.line(), step.message()), stopped);
        extra.addAll(providers.diagnostics());
        if (providers.lockCreated()) {
            // As Terraform 1.11: right after the providers' lines.
            view.lockCreated();
        }
        if (!providers.hashedHere().isEmpty()) {
            extra.add(incompleteLock(providers.hashedHere()));
        }
        Diagnostics ds = extra.build();
        if (!ds.isEmpty()) {
            view.blank();
        }
        view.diagnostics(ds, sources(context, tree));
        if (ds.hasErrors()) {
            return 1;
        }
        // As Terraform 1.11: the closing message follows warnings without a blank line between.
        view.success(ds.isEmpty());
        return 0;
    }

    /**
     * Terraform's warning when the lock file's entries for {@code providers} were written from packages hashed
     * here: a mirror's packages come without the registry's checksums, so the entries hold this platform's
     * hash alone, and another platform's init would refuse its package until {@code providers lock} adds it.
     */
    static Diagnostic incompleteLock(List<dev.strata.addr.Provider> providers) {
        String platform = dev.strata.tfplugin.install.Platform.current().toString();
        StringBuilder names = new StringBuilder();
        providers.stream()
                .map(dev.strata.addr.Provider::forDisplay)
                .sorted()
                .forEach(n -> names.append("\n  - ").append(n));
        return Diagnostic.warning(
                "Incomplete lock file information for providers",
                "Due to your customized provider installation methods, Strata was forced to calculate lock file "
                        + "checksums locally for the following providers:" + names
                        + "\n\nThe current .terraform.lock.hcl file only includes checksums for " + platform
                        + ", so Strata running on another platform will fail to install these providers."
                        + "\n\nTo calculate additional checksums for another platform, run:\n"
                        + "  strata providers lock -platform=" + platform
                        + "\n(where " + platform + " is the platform to generate)",
                null);
    }

    /**
     * Whether {@code dir} has no configuration file and no test file (here or under {@code tests/}), as
     * Terraform's test for an empty directory; an unreadable directory is left to the loader to report.
     */
    private static boolean withoutConfiguration(Path dir) {
        for (Path d : List.of(dir, dir.resolve("tests"))) {
            if (!java.nio.file.Files.isDirectory(d)) {
                continue;
            }
            try (var files = java.nio.file.Files.list(d)) {
                boolean any = files.map(f -> f.getFileName().toString())
                        .anyMatch(n -> !n.startsWith(".")
                                && (d.equals(dir) && (n.endsWith(".tf") || n.endsWith(".tf.json"))
                                        || n.endsWith(".tftest.hcl")
                                        || n.endsWith(".tftest.json")));
                if (any) {
                    return false;
                }
            } catch (java.io.IOException e) {
                return false;
            }
        }
        return true;
    }

    /** The configuration's sources, then files on disk (a -backend-config file). */
    private static dev.strata.hcl.DiagnosticRenderer.Sources sources(CommandContext context, ConfigTree tree) {
        dev.strata.hcl.DiagnosticRenderer.Sources config = tree.diagnosticSources();
        dev.strata.hcl.DiagnosticRenderer.Sources files = new dev.strata.cli.view.FileSources(context.workingDir());
        return new dev.strata.hcl.DiagnosticRenderer.Sources() {
            @Override
            public byte[] bytes(String filename) {
                byte[] b = config.bytes(filename);
                return b != null ? b : files.bytes(filename);
            }

            @Override
            public dev.strata.hcl.Body body(String filename) {
                return config.body(filename);
            }
        };
    }
}
