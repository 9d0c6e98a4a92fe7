package dev.strata.cli.view;

import java.util.List;

/** Output of {@code taint} and {@code untaint}, worded as Terraform's. */
public final class TaintView {
    private final View view;
    private final FileSources sources;

    public TaintView(Terminal context) {
        this.view = new View(context);
        this.sources = new FileSources(context.workingDir());
    }

    /** The one line of success on stdout. */
    public void done(String address, boolean tainted) {
        view.out()
                .println("Resource instance " + address
                        + (tainted ? " has been marked as tainted." : " has been successfully untainted."));
        view.out().flush();
    }

    public void diagnostics(List<CliDiagnostic> ds) {
        view.diagnostics(ds);
    }

    public void diagnostics(dev.strata.hcl.Diagnostics ds) {
        view.diagnostics(ds, sources);
    }

    /** A plain error line on stderr, for the messages Terraform prints without the diagnostic frame. */
    public void errorText(String text) {
        view.err().println(view.style(View.Style.RED, text));
        view.err().flush();
    }

    /** A wrong number of arguments: the problem, and where the usage is. */
    public void usageError(String problem, String command) {
        errorText(problem + "\n\nUsage: strata [global options] " + command + " [options] <address>\n\nRun \"strata "
                + command + " -help\" for the options.");
    }
}
