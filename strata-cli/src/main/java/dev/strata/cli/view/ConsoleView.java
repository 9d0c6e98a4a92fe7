package dev.strata.cli.view;

import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.ConsoleSession;
import java.nio.charset.StandardCharsets;

/** Output of {@code strata console}: values on stdout, diagnostics (with the input as source) on stderr. */
public final class ConsoleView {
    private final View view;
    private final DiagnosticRenderer.Sources config;

    public ConsoleView(Terminal context) {
        this(context, DiagnosticRenderer.NO_SOURCES);
    }

    /** A view whose diagnostics may point into the configuration's files as well as the input. */
    public ConsoleView(Terminal context, DiagnosticRenderer.Sources config) {
        this.view = new View(context);
        this.config = config;
    }

    public void result(Result<String> r, String input) {
        byte[] src = input.getBytes(StandardCharsets.UTF_8);
        DiagnosticRenderer.Sources sources = new DiagnosticRenderer.Sources() {
            @Override
            public byte[] bytes(String name) {
                return ConsoleSession.INPUT_NAME.equals(name) ? src : config.bytes(name);
            }

            @Override
            public dev.strata.hcl.Body body(String name) {
                return ConsoleSession.INPUT_NAME.equals(name) ? null : config.body(name);
            }
        };
        diagnostics(r.diagnostics(), sources);
        if (!r.hasErrors()) {
            view.out().println(r.value());
            view.out().flush();
        }
    }

    /**
     * Problems loading the configuration or its variables, before the session starts, and an input's. As
     * terraform console prints them (through its CLI's line-oriented output): each with a detail or a place
     * followed by one more empty line than an operation's diagnostics (a summary alone has two already).
     */
    public void diagnostics(dev.strata.hcl.Diagnostics ds, DiagnosticRenderer.Sources sources) {
        for (dev.strata.hcl.Diagnostic d : View.consolidated(ds.sorted().asList())) {
            view.diagnostics(dev.strata.hcl.Diagnostics.of(d), sources);
            if (!d.detail().isEmpty() || d.subject() != null) {
                (d.isError() ? view.err() : view.out()).println();
            }
        }
    }

    public void error(String summary, String detail) {
        view.diagnostic(CliDiagnostic.error(summary, detail));
    }
}
