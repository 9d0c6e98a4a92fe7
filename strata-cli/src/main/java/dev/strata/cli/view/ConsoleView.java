package dev.strata.cli.view;

import dev.strata.cli.command.CommandContext;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.ConsoleSession;
import java.nio.charset.StandardCharsets;

/** Output of {@code strata console}: values on stdout, diagnostics (with the input as source) on stderr. */
public final class ConsoleView {
    private final View view;

    public ConsoleView(CommandContext context) {
        this.view = new View(context);
    }

    public void result(Result<String> r, String input) {
        byte[] src = input.getBytes(StandardCharsets.UTF_8);
        DiagnosticRenderer.Sources sources = name -> ConsoleSession.INPUT_NAME.equals(name) ? src : null;
        view.diagnostics(r.diagnostics(), sources);
        if (!r.hasErrors()) {
            view.out().println(r.value());
            view.out().flush();
        }
    }

    public void error(String summary, String detail) {
        view.diagnostic(CliDiagnostic.error(summary, detail));
    }
}
