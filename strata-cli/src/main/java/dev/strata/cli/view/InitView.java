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

    public void success(boolean providersMissing) {
        view.out().println();
        view.out().println(view.style(View.Style.BOLD_GREEN, "Strata has been successfully initialized!"));
        if (automation) {
            // As Terraform under TF_IN_AUTOMATION: no suggestion of the next command to type.
            view.out().flush();
            return;
        }
        view.out().println();
        if (providersMissing) {
            view.out()
                    .println(
                            "You may now run \"strata validate\" to check the configuration. Planning and "
                                    + "applying need the providers listed above, which this version of Strata cannot install yet.");
        } else {
            view.out()
                    .println("You may now begin working with Strata. Try running \"strata validate\" to check "
                            + "the configuration.");
        }
        view.out().flush();
    }

    public void failed() {
        view.err().println();
        view.err().println("Strata could not be initialized: fix the errors above and run \"strata init\" again.");
        view.err().flush();
    }
}
