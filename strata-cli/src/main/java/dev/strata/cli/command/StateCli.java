package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ModuleConfig;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.state.Backend;
import dev.strata.state.PgBackend;
import dev.strata.state.Encryption;
import dev.strata.state.LocalBackend;
import dev.strata.state.Workspaces;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the state and workspace commands share: the backend of the working directory, the selected
 * workspace, and turning state diagnostics into CLI ones.
 */
final class StateCli {
    private StateCli() {}

    /**
     * The backend the root module's {@code terraform { backend ... }} block names: {@code local} (the
     * default, also when there is no block or no configuration) or {@code pg}, with state encryption
     * from the environment (STRATA_STATE_PASSPHRASE, STRATA_STATE_KEY, fallbacks). Null after adding a
     * problem.
     */
    static Backend backend(CommandContext context, List<CliDiagnostic> problems) {
        var enc = Encryption.fromEnv(context.env());
        problems.addAll(toCli(enc.diagnostics()));
        if (enc.hasErrors()) {
            return null;
        }
        Path dir = context.workingDir();
        dev.strata.config.Backend declared = null;
        if (ConfigLoader.hasConfigFiles(dir)) {
            // Only the backend block matters here; other configuration problems are validate's to report.
            Result<ModuleConfig> module = ConfigLoader.loadModule(dir, ConfigLoader.Options.DEFAULT);
            declared = module.value() == null ? null : module.value().backend();
        }
        if (declared == null) {
            return LocalBackend.in(dir, Version.current()).withEncryption(enc.value());
        }
        Result<Map<String, Value>> settings = BackendSettings.read(declared, context.env());
        problems.addAll(toCli(settings.diagnostics()));
        if (settings.hasErrors()) {
            return null;
        }
        Map<String, Value> cfg = settings.value();
        return switch (declared.type()) {
            case "local" -> LocalBackend.in(dir, Version.current()).withEncryption(enc.value());
            case "pg" -> {
                Value conn = cfg.get("conn_str");
                Value schema = cfg.get("schema_name");
                Result<PgBackend> pg = PgBackend.connect(conn == null ? null : conn.asString(),
                        schema == null ? PgBackend.DEFAULT_SCHEMA : schema.asString(), context.env(), Version.current());
                problems.addAll(toCli(pg.diagnostics()));
                yield pg.hasErrors() ? null : pg.value().withEncryption(enc.value());
            }
            default -> throw new IllegalStateException("BackendSettings accepted backend " + declared.type());
        };
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
