package dev.strata.cli.view;

import dev.strata.cli.command.CommandContext;
import java.util.List;

/** What the command frame itself says: problems with the command line before any command runs. */
public final class FrameView {
    private final View view;

    public FrameView(CommandContext context) {
        this.view = new View(context);
    }

    public void diagnostic(CliDiagnostic d) {
        view.diagnostic(d);
    }

    /** Kept to Terraform's wording, because scripts and wrappers match on it. */
    public void chdirFailed(String dir, String reason) {
        view.err().println("Error handling -chdir option: chdir " + dir + ": " + reason);
        view.err().flush();
    }

    public void unknownCommand(String name, List<String> suggestions) {
        String detail = "There is no command named \"" + name + "\".";
        if (!suggestions.isEmpty()) {
            detail += " Did you mean \"" + suggestions.get(0) + "\"?";
        }
        detail += " Run \"strata -help\" to list all commands.";
        view.diagnostic(CliDiagnostic.error("Unknown command \"" + name + "\"", detail));
    }

    /** A flag problem of one command, with the way to its help. */
    public void invalidArguments(String command, CliDiagnostic problem) {
        String detail = problem.detail().isEmpty() ? "" : problem.detail() + " ";
        view.diagnostic(new CliDiagnostic(problem.severity(), problem.summary(),
                detail + "Run \"strata " + command + " -help\" for its options."));
    }

    /** An unexpected exception from a command: a bug, reported as such so that users report it. */
    public void crashed(String command, Throwable t) {
        view.diagnostic(CliDiagnostic.error(
                "Internal error in \"" + command + "\"",
                "Strata hit an unexpected " + t.getClass().getName() + ". This is a bug in Strata; please report "
                        + "it with the steps that led here. Running with STRATA_LOG=debug logs the stack trace."));
    }
}
