package dev.strata.cli.command;

import dev.strata.cli.view.InitView;
import dev.strata.config.ModuleConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.BackendMigration;
import dev.strata.state.Encryption;
import dev.strata.state.LockRequest;
import java.util.List;
import java.util.Map;

/**
 * The backend part of {@code strata init}: merges {@code -backend-config} into the backend block,
 * checks that the backend can be reached, records it in the data directory, and, when the backend
 * changes, copies every workspace's state to the new one ({@code -migrate-state}, confirmed unless
 * {@code -force-copy}) or just switches ({@code -reconfigure}). As in Terraform, configuring a backend
 * for the first time offers to copy the local state without {@code -migrate-state}.
 */
final class BackendInit {
    private BackendInit() {}

    /** The init flags that concern the backend. */
    record Options(
            List<String> backendConfig,
            boolean reconfigure,
            boolean migrateState,
            boolean forceCopy,
            boolean input,
            LockRequest lock) {}

    /**
     * Sets up the backend {@code root} declares, migrating the state when asked; returns whether init may go
     * on, with problems added to {@code diags}. The states it opens are
     * held for {@code signals}, so that a second signal releases their locks before exiting; a signal at
     * the migration's question cancels the migration at once.
     */
    static boolean run(
            CommandContext context,
            InitView view,
            ModuleConfig root,
            Options o,
            Diagnostics.Builder diags,
            Interrupts signals) {
        if (o.reconfigure() && (o.migrateState() || o.forceCopy())) {
            diags.add(Diagnostic.error(
                    "Invalid init options",
                    "The -migrate-state and -reconfigure options are "
                            + "mutually exclusive: -migrate-state copies the existing state to the new backend, -reconfigure "
                            + "leaves it behind.",
                    null));
            return false;
        }
        // As Terraform, also without a backend block, and before the block's own problems.
        view.section(InitView.Section.BACKEND);
        Result<BackendSpec> declared = StateCli.declaredSpec(root);
        diags.addAll(declared.diagnostics());
        if (declared.hasErrors()) {
            return false;
        }
        BackendSpec fileSpec = declared.value();
        if (fileSpec == null && !o.backendConfig().isEmpty()) {
            diags.add(Diagnostic.error(
                    "No backend block for -backend-config",
                    "-backend-config sets the settings of "
                            + "the backend named in terraform { backend \"TYPE\" { ... } }, but the configuration has no "
                            + "backend block. Add one (it may be empty: backend \"pg\" {}) or drop -backend-config.",
                    null));
            return false;
        }
        BackendSpec wanted = fileSpec;
        if (fileSpec != null) {
            Result<Map<String, String>> overrides =
                    BackendSettings.overrides(fileSpec.type(), o.backendConfig(), context);
            diags.addAll(overrides.diagnostics());
            if (overrides.hasErrors()) {
                return false;
            }
            wanted = fileSpec.with(overrides.value());
        }
        Result<BackendRecord> recorded = BackendRecord.read(context);
        if (recorded.hasErrors() && !o.reconfigure()) {
            diags.addAll(recorded.diagnostics());
            return false;
        }
        BackendRecord rec = recorded.value();
        if (rec != null && fileSpec != null && o.backendConfig().isEmpty() && rec.matches(fileSpec)) {
            // As in Terraform: an unchanged block keeps the -backend-config settings given at an earlier init.
            wanted = rec.spec();
        }
        if (fileSpec == null && rec == null) {
            return true; // the default local state; nothing to set up or record
        }
        Result<Encryption> enc = StateCli.encryption(context, root);
        diags.addAll(enc.diagnostics());
        if (enc.hasErrors()) {
            return false;
        }
        BackendSpec from = rec == null ? BackendSpec.DEFAULT_LOCAL : rec.spec();
        BackendSpec to = wanted == null ? BackendSpec.DEFAULT_LOCAL : wanted;
        Result<Backend> target = to.open(context, enc.value()).map(signals::tracking);
        diags.addAll(target.diagnostics());
        if (target.hasErrors()) {
            return false;
        }
        if (from.equals(to)) {
            if (rec == null || !rec.matches(fileSpec)) {
                return record(context, view, fileSpec, wanted, diags);
            }
            // As Terraform 1.11: an unchanged backend gets no line of its own.
            return true;
        }
        if (o.reconfigure()) {
            view.text("Reconfiguring the backend: the state in the previous " + from + " backend is left where it is.");
            return record(context, view, fileSpec, wanted, diags);
        }
        if (rec != null && !o.migrateState() && !o.forceCopy()) {
            diags.add(StateCli.changed(rec, fileSpec, root));
            return false;
        }
        Result<Backend> source = from.open(context, enc.value()).map(signals::tracking);
        diags.addAll(source.diagnostics());
        if (source.hasErrors()) {
            return false;
        }
        if (!migrate(view, from, source.value(), to, target.value(), o, diags, signals)) {
            return false;
        }
        return record(context, view, fileSpec, wanted, diags);
    }

    private static boolean migrate(
            InitView view,
            BackendSpec fromSpec,
            Backend from,
            BackendSpec toSpec,
            Backend to,
            Options o,
            Diagnostics.Builder diags,
            Interrupts signals) {
        Result<BackendMigration.Plan> plan = BackendMigration.plan(from, to);
        diags.addAll(plan.diagnostics());
        if (plan.hasErrors()) {
            return false;
        }
        BackendMigration.Plan p = plan.value();
        if (p.withState().isEmpty()) {
            // As Terraform: nothing to copy is not worth a line.
            return true;
        }
        if (!o.forceCopy()) {
            String question = "Do you want to copy existing state to the new backend?\n"
                    + "  Pre-existing state was found while migrating the previous " + fromSpec + " backend to the\n"
                    + "  newly configured " + toSpec + " backend. The states of these workspaces will be copied:\n"
                    + "  " + String.join(", ", p.withState()) + ".\n"
                    + (p.conflicts().isEmpty()
                            ? ""
                            : "  THIS WILL OVERWRITE the states of " + String.join(", ", p.conflicts()) + " in the "
                                    + toSpec + " backend.\n")
                    + "  The states in the " + fromSpec + " backend are kept. Only 'yes' will be accepted to copy.\n\n"
                    + "  Enter a value: ";
            if (!o.input()) {
                diags.add(Diagnostic.error(
                        "Confirmation required",
                        "Copying the existing state to the new backend "
                                + "must be confirmed, and -input=false forbids asking. Use -force-copy to copy without asking.",
                        null));
                return false;
            }
            Diagnostic cancelled = Diagnostic.error(
                    "Migration cancelled",
                    "Nothing was copied and the backend was not changed. "
                            + "To use the new backend without copying the state, run \"strata init -reconfigure\".",
                    null);
            boolean confirmed;
            // A signal at the question cancels at once: nothing has been copied, nothing to wait for.
            try (var stop = signals.onStop(() -> {
                view.diagnostics(Diagnostics.of(cancelled), dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
                signals.releaseAndExit();
            })) {
                confirmed = view.confirm(question);
            }
            if (!confirmed) {
                diags.add(cancelled);
                return false;
            }
        }
        Result<List<BackendMigration.Copied>> copied = BackendMigration.copy(from, to, o.lock());
        for (BackendMigration.Copied c : copied.value()) {
            view.item("copied workspace \"" + c.workspace() + "\" (serial " + c.serial() + ", " + c.instances()
                    + " resource instance" + (c.instances() == 1 ? "" : "s") + ")");
        }
        diags.addAll(copied.diagnostics());
        if (copied.hasErrors()) {
            diags.add(Diagnostic.error(
                    "State migration failed",
                    "The backend was not changed: commands keep using the "
                            + "previous " + fromSpec
                            + " backend, whose states are untouched. Fix the problem above and run "
                            + "\"strata init -migrate-state\" again.",
                    null));
            return false;
        }
        return true;
    }

    private static boolean record(
            CommandContext context,
            InitView view,
            BackendSpec fileSpec,
            BackendSpec wanted,
            Diagnostics.Builder diags) {
        Diagnostics d = wanted == null
                ? BackendRecord.remove(context)
                : BackendRecord.of(wanted, fileSpec).write(context);
        diags.addAll(d);
        if (d.hasErrors()) {
            return false;
        }
        view.blank();
        // Broken where Terraform breaks its line, after "automatically".
        view.done(
                wanted == null
                        ? "The backend block was removed: state is kept in terraform.tfstate again."
                        : "Successfully configured the backend " + wanted
                                + "! Strata will automatically\nuse this backend "
                                + "unless the backend configuration changes.");
        return true;
    }
}
