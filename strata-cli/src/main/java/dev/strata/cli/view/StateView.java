package dev.strata.cli.view;

import dev.strata.hcl.Diagnostics;
import dev.strata.state.ResourceInstanceObject;
import java.util.List;

/**
 * Output of the {@code state}, {@code workspace} and {@code force-unlock} commands, worded as
 * Terraform words it so that scripts written for Terraform keep working.
 */
public final class StateView {
    private final View view;
    private final FileSources sources;

    public StateView(Terminal context) {
        this.view = new View(context);
        this.sources = new FileSources(context.workingDir());
    }

    /** Plain lines on stdout. */
    public void lines(List<String> lines) {
        for (String l : lines) {
            view.out().println(l);
        }
        view.out().flush();
    }

    public void line(String text) {
        view.out().println(text);
        view.out().flush();
    }

    /** A success message, green when colour is on, as Terraform's workspace messages are. */
    public void success(String text) {
        view.out().println(view.style(View.Style.GREEN, text));
        view.out().flush();
    }

    public void warningText(String text) {
        view.out().println(view.style(View.Style.YELLOW, text));
        view.out().flush();
    }

    /** A plain error message on stderr, for the messages Terraform prints without the diagnostic frame. */
    public void errorText(String text) {
        view.err().println(view.style(View.Style.RED, text));
        view.err().flush();
    }

    /** Bytes exactly as given (state pull). */
    public void raw(byte[] bytes) {
        view.out().write(bytes, 0, bytes.length);
        view.out().println();
        view.out().flush();
    }

    public void diagnostics(List<CliDiagnostic> ds) {
        view.diagnostics(ds);
    }

    /**
     * State and configuration diagnostics; those with a place in a file (a state file that does not
     * parse, a backend setting) show the source lines, like every other diagnostic.
     */
    public void diagnostics(Diagnostics ds) {
        view.diagnostics(ds, sources);
    }

    /** Asks {@code question}; whether the answer is {@code yes}. */
    public boolean confirm(String question) {
        return view.confirm(question);
    }

    /**
     * {@code state show}: the current object as {@code show} renders it (a tainted one says so), typed
     * by the provider's schema where there is one, its sensitive parts hidden.
     */
    public void showInstance(
            dev.strata.state.ResourceState rs, ResourceInstanceObject obj, dev.strata.engine.Schemas schemas) {
        StringBuilder sb = new StringBuilder();
        StateText.object(sb, rs, obj, view, schemas);
        view.out().print(sb);
        view.out().flush();
    }
}
