package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.StateView;
import dev.strata.config.ConfigLoader;
import dev.strata.config.EncryptionSettings;
import dev.strata.config.ModuleConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.Encryption;
import dev.strata.state.Workspaces;
import java.util.ArrayList;
import java.util.List;

/**
 * What the state and workspace commands share (and plan/apply will): the backend of the working
 * directory with its encryption, the selected workspace, and turning state diagnostics into CLI ones.
 */
final class StateCli {
    private StateCli() {}

    /** The root module's configuration, or null where there is none. Other problems are validate's to report. */
    static ModuleConfig rootModule(CommandContext context) {
        if (!ConfigLoader.hasConfigFiles(context.workingDir())) {
            return null;
        }
        return ConfigLoader.loadModule(context.workingDir(), ConfigLoader.Options.DEFAULT)
                .value();
    }

    /**
     * The backend of the working directory: the one {@code strata init} recorded (with its
     * {@code -backend-config} settings), or, in a directory never initialized, the one the root module's
     * {@code terraform { backend ... }} block names ({@code local} without one). A block changed since
     * init is an error that says how to migrate. States are encrypted as the {@code encryption} block
     * (or the environment) says. No value when there are errors.
     */
    static Result<Backend> backend(CommandContext context) {
        return backend(context, rootModule(context));
    }

    /** As {@link #backend(CommandContext)}, with the root module already loaded from the working directory. */
    static Result<Backend> backend(CommandContext context, ModuleConfig root) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Result<Encryption> enc = encryption(context, root);
        diags.addAll(enc.diagnostics());
        Result<BackendSpec> spec = currentSpec(context, root);
        diags.addAll(spec.diagnostics());
        if (enc.hasErrors() || spec.hasErrors()) {
            return Result.of(null, diags.build());
        }
        Result<Backend> b = spec.value().open(context, enc.value());
        diags.addAll(b.diagnostics());
        return Result.of(b.hasErrors() ? null : b.value(), diags.build());
    }

    /**
     * State encryption: the root module's {@code encryption} block, else the STRATA_STATE_* environment
     * variables (a block and variables together: the block wins, with a warning).
     */
    static Result<Encryption> encryption(CommandContext context, ModuleConfig root) {
        if (root != null && root.encryption() != null) {
            Result<EncryptionSettings.State> settings =
                    EncryptionSettings.read(root.encryption(), root, context.workingDir(), context.env());
            Result<Encryption> r = Result.of(
                    settings.value() == null
                            ? null
                            : Encryption.of(
                                    key(settings.value().primary()),
                                    key(settings.value().fallback())),
                    settings.diagnostics());
            boolean envToo = context.env().keySet().stream()
                    .anyMatch(k -> k.startsWith("STRATA_STATE_")
                            && !context.env().get(k).isEmpty());
            if (envToo) {
                return Result.of(
                        r.value(),
                        r.diagnostics()
                                .with(Diagnostic.warning(
                                        "State encryption configured twice",
                                        "The encryption block of the configuration is used; the STRATA_STATE_* environment variables "
                                                + "are ignored.",
                                        root.encryption().declRange())));
            }
            return r;
        }
        return Encryption.fromEnv(context.env());
    }

    /** The state module's key for what the encryption block declares; null for none. */
    private static Encryption.Key key(EncryptionSettings.KeySource source) {
        return switch (source) {
            case null -> null;
            case EncryptionSettings.KeySource.Unencrypted u -> Encryption.Key.PLAINTEXT;
            case EncryptionSettings.KeySource.Passphrase p ->
                p.iterations().isPresent()
                        ? new Encryption.Key.Passphrase(
                                p.id(), p.passphrase(), p.iterations().getAsInt())
                        : new Encryption.Key.Passphrase(p.id(), p.passphrase());
            case EncryptionSettings.KeySource.Raw r -> new Encryption.Key.Raw(r.key());
        };
    }

    /** The backend block of the files, as a spec; null value without a block. */
    static Result<BackendSpec> declaredSpec(ModuleConfig root) {
        if (root == null || root.backend() == null) {
            return Result.of(null);
        }
        return BackendSettings.spec(root.backend());
    }

    private static Result<BackendSpec> currentSpec(CommandContext context, ModuleConfig root) {
        Result<BackendSpec> declared = declaredSpec(root);
        if (declared.hasErrors()) {
            return declared;
        }
        Result<BackendRecord> recorded = BackendRecord.read(context);
        if (recorded.hasErrors()) {
            return Result.of(null, declared.diagnostics().with(recorded.diagnostics()));
        }
        BackendRecord rec = recorded.value();
        BackendSpec file = declared.value();
        if (rec == null) {
            return Result.of(file == null ? BackendSpec.DEFAULT_LOCAL : file, declared.diagnostics());
        }
        if (!rec.matches(file)) {
            return Result.of(null, declared.diagnostics().with(changed(rec, file, root)));
        }
        return Result.of(rec.spec(), declared.diagnostics());
    }

    /** The error of a backend block that no longer matches what init recorded. */
    static Diagnostic changed(BackendRecord rec, BackendSpec file, ModuleConfig root) {
        String what = file == null
                ? "The configuration no longer has a backend block, but \"strata init\" set up the " + rec.spec()
                        + " backend for this working directory."
                : "The backend block has changed since \"strata init\" set up the " + rec.spec()
                        + " backend for this working directory.";
        return Diagnostic.error(
                "Backend configuration changed",
                what + " Existing state may need to be migrated. "
                        + "To copy every workspace's state to the new backend, run \"strata init -migrate-state\"; to use the "
                        + "new backend without copying anything, run \"strata init -reconfigure\".",
                root != null && root.backend() != null ? root.backend().declRange() : null);
    }

    /** CLI diagnostics for state diagnostics; the place in a file, when known, ends the detail. */
    static List<CliDiagnostic> toCli(Diagnostics diags) {
        List<CliDiagnostic> out = new ArrayList<>();
        for (Diagnostic d : diags) {
            String detail = d.detail();
            if (d.subject() != null && !detail.contains(" at line ")) {
                detail += " (" + d.subject().filename() + " line "
                        + d.subject().start().line() + ", column "
                        + d.subject().start().column() + ")";
            }
            out.add(
                    d.isError()
                            ? CliDiagnostic.error(d.summary(), detail)
                            : CliDiagnostic.warning(d.summary(), detail));
        }
        return out;
    }

    /** The selected workspace; failed when the working directory's selection cannot be read or is invalid. */
    static Parsed<String> workspace(CommandContext context) {
        var r = Workspaces.current(context.workingDir(), context.env());
        return new Parsed<>(r.value(), toCli(r.diagnostics()));
    }

    /** The selected workspace's state as stored, and whether one is stored. */
    record Stored(dev.strata.state.StateSnapshot state, boolean exists) {}

    /**
     * Reads the selected workspace's state without locking it (for output, show and console), with the
     * problems (no snippets); no value when it cannot be read.
     */
    static Parsed<Stored> readUnlocked(CommandContext context) {
        return readUnlocked(context, LegacyStatePaths.Paths.NONE);
    }

    /** As {@link #readUnlocked(CommandContext)}, from the file the legacy {@code -state} flag names, if given. */
    static Parsed<Stored> readUnlocked(CommandContext context, LegacyStatePaths.Paths paths) {
        Result<Backend> backend = LegacyStatePaths.backend(context, paths);
        List<CliDiagnostic> problems = new ArrayList<>(toCli(backend.diagnostics()));
        if (backend.value() == null) {
            return new Parsed<>(null, problems);
        }
        Parsed<String> ws = workspace(context);
        problems.addAll(ws.diagnostics());
        if (ws.value() == null) {
            return new Parsed<>(null, problems);
        }
        var opened = backend.value().open(ws.value(), dev.strata.state.LockRequest.none());
        problems.addAll(toCli(opened.diagnostics()));
        if (opened.value() == null) {
            return new Parsed<>(null, problems);
        }
        try (dev.strata.state.StateManager m = opened.value()) {
            return new Parsed<>(new Stored(m.state(), m.exists()), problems);
        }
    }

    /**
     * One subcommand of {@code state} or {@code workspace}, given its name and arguments, the selected
     * workspace and the working directory's backend; returns the exit code.
     */
    @FunctionalInterface
    interface Subcommand {
        int run(String name, ParsedArgs args, String workspace, Backend backend);
    }

    /**
     * Runs a {@code state} or {@code workspace} subcommand: selects it, reads the selected workspace and
     * opens the backend (tracked, so that an interrupt releases its locks), reporting problems to the view.
     */
    static int run(
            CommandContext context, ParentCommand command, ParsedArgs parsed, StateView view, Subcommand subcommand) {
        return run(context, command, parsed, view, (name, args) -> Files.DEFAULT, subcommand);
    }

    /**
     * Where a subcommand keeps the state: the legacy {@code -state}/{@code -state-out}/{@code -backup} paths it
     * was given, and whether its backups are timestamped ({@code terraform.tfstate.<unix>.backup}, as Terraform's
     * state-editing subcommands keep them).
     */
    record Files(LegacyStatePaths.Paths paths, boolean timestamped) {
        static final Files DEFAULT = new Files(LegacyStatePaths.Paths.NONE, false);
    }

    /** The {@link Files} of one selected subcommand. */
    @FunctionalInterface
    interface FilesOf {
        Files of(String subcommand, ParsedArgs args);
    }

    /** As {@link #run(CommandContext, ParentCommand, ParsedArgs, StateView, Subcommand)}, with the state's files. */
    static int run(
            CommandContext context,
            ParentCommand command,
            ParsedArgs parsed,
            StateView view,
            FilesOf files,
            Subcommand subcommand) {
        try (Interrupts signals = Interrupts.install(context)) {
            Parsed<SubcommandHelp.Selected> selected = command.select(parsed.positionals());
            if (selected.hasErrors()) {
                view.diagnostics(selected.diagnostics());
                return 1;
            }
            Parsed<String> workspace = workspace(context);
            if (!workspace.diagnostics().isEmpty()) {
                view.diagnostics(workspace.diagnostics());
                return 1;
            }
            Files f = files.of(selected.value().name(), selected.value().args());
            Result<Backend> backend = LegacyStatePaths.backend(context, f.paths(), f.timestamped());
            view.diagnostics(backend.diagnostics());
            if (backend.value() == null) {
                return 1;
            }
            return subcommand.run(
                    selected.value().name(),
                    selected.value().args(),
                    workspace.value(),
                    signals.tracking(backend.value()));
        }
    }
}
