package dev.strata.cli.view;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import java.util.List;

/** Output of {@code strata providers} and its subcommands. */
public final class ProvidersView {
    private final View view;

    public ProvidersView(Terminal context) {
        this.view = new View(context);
    }

    /** The requirements tree, framed as {@code terraform providers} prints it. */
    public void tree(List<String> lines) {
        view.out().println();
        view.out().println("Providers required by configuration:");
        lines.forEach(view.out()::println);
        view.out().println();
        view.out().flush();
    }

    /** The providers the state's resources name, as {@code terraform providers} lists them after the tree. */
    public void stateProviders(java.util.Collection<String> addresses) {
        if (addresses.isEmpty()) {
            return;
        }
        view.out().println("Providers required by state:");
        view.out().println();
        for (String a : addresses) {
            view.out().println("    provider[" + a + "]");
            view.out().println();
        }
        view.out().flush();
    }

    /** A progress line of lock or mirror, with Terraform's leading dash. */
    public void item(String text) {
        view.out().println(text.startsWith("  ") ? text : "- " + text);
        view.out().flush();
    }

    public void success(String text) {
        view.out().println();
        view.out().println(view.style(View.Style.BOLD_GREEN, text));
        view.out().flush();
    }

    /** One JSON document on a line of its own, as Terraform prints machine-readable output. */
    public void json(JsonNode doc) {
        try {
            view.out().println(new ObjectMapper().writeValueAsString(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
        view.out().flush();
    }

    public void errorText(String text) {
        view.err().println(view.style(View.Style.RED, text));
        view.err().flush();
    }

    public void diagnostics(Diagnostics ds, DiagnosticRenderer.Sources sources) {
        view.diagnostics(ds, sources);
    }

    public void cliDiagnostics(List<CliDiagnostic> ds) {
        view.diagnostics(ds);
    }
}
