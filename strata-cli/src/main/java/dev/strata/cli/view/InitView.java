package dev.strata.cli.view;

import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;

/** Output of {@code strata init}: progress lines as {@code terraform init} prints them, then the outcome. */
public final class InitView {
    private final View view;
    private final boolean automation;

    public InitView(Terminal context) {
        this.view = new View(context);
        this.automation = context.inAutomation();
    }

    public void heading(String text) {
        view.out().println(view.style(View.Style.BOLD, text));
    }

    public void item(String text) {
        view.out().println("- " + text);
    }

    /** A line of plain text. */
    public void text(String text) {
        view.out().println(text);
        view.out().flush();
    }

    /** A question; the answer is read by the command. */
    /** Asks {@code question}; whether the answer is {@code yes}. */
    public boolean confirm(String question) {
        return view.confirm(question);
    }

    /** A success line, green when colour is on. */
    public void done(String text) {
        view.out().println(view.style(View.Style.GREEN, text));
        view.out().flush();
    }

    public void blank() {
        view.out().println();
    }

    /** Terraform's note after it first records provider selections. */
    public void lockCreated() {
        view.out().println("Strata has created a lock file .terraform.lock.hcl to record the provider");
        view.out().println("selections it made above. Include this file in your version control repository");
        view.out().println("so that Strata can guarantee to make the same selections by default when");
        view.out().println("you run \"strata init\" in the future.");
    }

    public void diagnostics(Diagnostics ds, DiagnosticRenderer.Sources sources) {
        view.diagnostics(ds, sources);
    }

    /**
     * Terraform's closing paragraph after a successful init, naming Strata and its commands (which
     * do detect changed modules and backend settings: "Module not installed", "Backend configuration
     * changed"); under TF_IN_AUTOMATION only the first line, as Terraform.
     */
    public void success() {
        view.out().println();
        String done = view.style(View.Style.BOLD_GREEN, "Strata has been successfully initialized!");
        if (automation) {
            view.out().println(done);
            view.out().flush();
            return;
        }
        view.out().println(done);
        view.out().println(view.style(View.Style.GREEN, """

                        You may now begin working with Strata. Try running "strata plan" to see
                        any changes that are required for your infrastructure. All Strata commands
                        should now work.

                        If you ever set or change modules or backend configuration for Strata,
                        rerun this command to reinitialize your working directory. If you forget, other
                        commands will detect it and remind you to do so if necessary."""));
        view.out().flush();
    }

    /** Terraform's whole output for a directory without configuration files: nothing is set up. */
    public void emptyDirectory() {
        view.out().println(view.style(View.Style.BOLD, "Strata initialized in an empty directory!"));
        view.out().println();
        view.out().println("The directory has no Strata configuration files. You may begin working");
        view.out().println("with Strata immediately by creating Strata configuration files.");
        view.out().flush();
    }
}
