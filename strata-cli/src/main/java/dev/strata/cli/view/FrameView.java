package dev.strata.cli.view;

import java.util.List;

/** What the command frame itself says: problems with the command line before any command runs. */
public final class FrameView {
    private final View view;

    /** How many problems of the CLI configuration are shown. */
    private static final int SHOWN = 3;

    public FrameView(Terminal context) {
        this.view = new View(context);
    }

    public void diagnostic(CliDiagnostic d) {
        view.diagnostic(d);
    }

    /**
     * Problems of the CLI configuration file (TF_CLI_CONFIG_FILE or ~/.terraformrc), as Terraform reports them
     * before any command: on stderr, framed by its two sentences; the command then runs.
     */
    public void cliConfigurationProblems(
            dev.strata.hcl.Diagnostics ds, dev.strata.hcl.DiagnosticRenderer.Sources sources) {
        view.err().println("There are some problems with the CLI configuration:");
        // A file that is not a CLI configuration at all would give a problem per line: the first few say so.
        List<dev.strata.hcl.Diagnostic> all = ds.sorted().asList();
        view.diagnosticsOnStderr(dev.strata.hcl.Diagnostics.of(all.subList(0, Math.min(all.size(), SHOWN))), sources);
        if (all.size() > SHOWN) {
            view.err().println();
            view.err().println("(and " + (all.size() - SHOWN) + " more problems in the same file)");
        }
        view.err().println();
        view.err().println("As a result of the above problems, Strata may not behave as intended.");
        view.err().println();
        view.err().flush();
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
        view.diagnostic(withHelp(command, problem));
    }

    /** As {@link #invalidArguments}, as the stream of JSON messages the arguments asked for: version, diagnostic. */
    public void invalidArgumentsAsJson(String command, CliDiagnostic problem) {
        view.out().println(UiJson.version());
        view.out().println(UiJson.diagnostic(withHelp(command, problem).toDiagnostic()));
        view.out().flush();
    }

    private static CliDiagnostic withHelp(String command, CliDiagnostic problem) {
        String detail = problem.detail().isEmpty() ? "" : problem.detail() + " ";
        return new CliDiagnostic(
                problem.severity(),
                problem.summary(),
                detail + "Run \"strata " + command + " -help\" for its options.");
    }

    /** The file name a throwable (or one it wraps) could not use, or null. */
    private static java.nio.file.InvalidPathException invalidPath(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof java.nio.file.InvalidPathException e) {
                return e;
            }
        }
        return null;
    }

    /**
     * A file name the Java runtime cannot represent: without a UTF-8 locale (no LANG, LC_ALL or LC_CTYPE, as in
     * many containers) it encodes file names as ASCII, so any other character fails. {@code ./strata} sets a
     * UTF-8 character type itself; {@code java -jar} does not.
     */
    private static CliDiagnostic unusableFileName(String where, java.nio.file.InvalidPathException e) {
        String encoding = System.getProperty("sun.jnu.encoding", "");
        boolean utf8 = encoding.equalsIgnoreCase("UTF-8") || encoding.equalsIgnoreCase("UTF8");
        String detail = where + " stopped: the file name \"" + e.getInput() + "\" cannot be used ("
                + e.getReason().toLowerCase(java.util.Locale.ROOT) + ").";
        if (!utf8) {
            detail += " No UTF-8 locale is set, so Java reads and writes file names as " + encoding
                    + ", which has no other characters than ASCII. Set one, for example LC_ALL=C.UTF-8, or run "
                    + "Strata with its ./strata launcher, which does.";
        }
        return CliDiagnostic.error("Invalid file name", detail);
    }

    /**
     * A command ended by a throwable nothing else handled. Out of memory and stack overflow are limits
     * of the process, with a way around them; anything else is a bug, reported as such so that users
     * report it. No class names or stack traces here: the log has the stack trace.
     */
    public void crashed(String command, Throwable t) {
        String where = command == null ? "Strata" : "\"" + command + "\"";
        switch (t) {
            case OutOfMemoryError e ->
                view.diagnostic(CliDiagnostic.error(
                        "Out of memory",
                        where + " ran out of memory and stopped. Give Strata more memory, for example with "
                                + "STRATA_JAVA_OPTS=-Xmx4g, or split the configuration into smaller parts."));
            case StackOverflowError e ->
                view.diagnostic(CliDiagnostic.error(
                        "Nesting too deep",
                        where + " stopped: something in the configuration or its values is nested too deeply to "
                                + "process. Reduce the nesting, for example by splitting deep expressions into local "
                                + "values."));
            case Throwable e when invalidPath(e) != null -> view.diagnostic(unusableFileName(where, invalidPath(e)));
            default ->
                view.diagnostic(CliDiagnostic.error(
                        command == null ? "Internal error" : "Internal error in \"" + command + "\"",
                        "Strata stopped on an unexpected internal error. This is a bug in Strata; please report it "
                                + "with the steps that led here. Running with STRATA_LOG=debug logs the details."));
        }
    }
}
