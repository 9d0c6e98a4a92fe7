package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.state.Backend;
import dev.strata.state.Encryption;
import dev.strata.state.LocalBackend;
import dev.strata.state.Workspaces;
import java.util.ArrayList;
import java.util.List;

/**
 * What the state and workspace commands share: the backend of the working directory, the selected
 * workspace, and turning state diagnostics into CLI ones.
 */
final class StateCli {
    private StateCli() {}

    /**
     * The local backend until backend configuration (terraform { backend ... }) is read at init, with
     * state encryption from the environment (STRATA_STATE_PASSPHRASE, STRATA_STATE_KEY, fallbacks).
     * Null after adding a problem.
     */
    static Backend backend(CommandContext context, List<CliDiagnostic> problems) {
        var enc = Encryption.fromEnv(context.env());
        problems.addAll(toCli(enc.diagnostics()));
        if (enc.hasErrors()) {
            return null;
        }
        return LocalBackend.in(context.workingDir(), Version.current()).withEncryption(enc.value());
    }

    /** CLI diagnostics for state diagnostics; the place in a file, when known, ends the detail. */
    static List<CliDiagnostic> toCli(Diagnostics diags) {
        List<CliDiagnostic> out = new ArrayList<>();
        for (Diagnostic d : diags) {
            String detail = d.detail();
            if (d.subject() != null && !detail.contains(" at line ")) {
                detail += " (" + d.subject().filename() + " line " + d.subject().start().line() + ", column "
                        + d.subject().start().column() + ")";
            }
            out.add(d.isError() ? CliDiagnostic.error(d.summary(), detail) : CliDiagnostic.warning(d.summary(), detail));
        }
        return out;
    }

    static String workspace(CommandContext context, List<CliDiagnostic> problems) {
        var r = Workspaces.current(context.workingDir(), context.env());
        problems.addAll(toCli(r.diagnostics()));
        return r.value();
    }
}
