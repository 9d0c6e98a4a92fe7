package dev.strata.cli;

import dev.strata.cli.view.CliDiagnostic;
import java.util.ArrayList;
import java.util.List;

/**
 * The options before the subcommand. Parsed by hand rather than with picocli because Terraform's rules
 * here are not a flag set's: {@code -chdir} needs {@code =}, {@code -version} turns into a subcommand,
 * and anything else before the subcommand is refused with a hint to move it after.
 */
record GlobalArgs(String chdir, boolean help, String subcommand, List<String> rest) {

    GlobalArgs {
        rest = List.copyOf(rest);
    }

    sealed interface Outcome {
        record Parsed(GlobalArgs args) implements Outcome {}

        /** {@code subcommand} is the one that followed the bad flags, if any, to show its usage. */
        record Invalid(CliDiagnostic diagnostic, String subcommand) implements Outcome {}
    }

    /** The arguments with {@code -no-color} removed; the frame handles that one wherever it appears. */
    static Outcome parse(List<String> args) {
        String chdir = null;
        boolean help = false;
        List<String> unknown = new ArrayList<>();
        int i = 0;
        for (; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("-") || a.equals("-")) {
                break;
            }
            if (a.equals("--")) {
                i++;
                break;
            }
            if (a.equals("-chdir") || a.equals("--chdir")) {
                return new Outcome.Invalid(
                        CliDiagnostic.error(
                                "Invalid -chdir option",
                                "The -chdir option takes its directory after an equals sign, like -chdir=infra."),
                        null);
            } else if (a.startsWith("-chdir=") || a.startsWith("--chdir=")) {
                chdir = a.substring(a.indexOf('=') + 1);
                if (chdir.isEmpty()) {
                    return new Outcome.Invalid(
                            CliDiagnostic.error(
                                    "Invalid -chdir option",
                                    "The -chdir option needs a directory after the equals sign, like -chdir=infra."),
                            null);
                }
            } else if (a.equals("-help") || a.equals("-h") || a.equals("--help")) {
                help = true;
            } else if (a.equals("-version") || a.equals("--version") || a.equals("-v")) {
                // As in Terraform, everything after -version goes to the version command (e.g. -version -json).
                return new Outcome.Parsed(new GlobalArgs(chdir, help, "version", args.subList(i + 1, args.size())));
            } else {
                unknown.add(a);
            }
        }
        String subcommand = i < args.size() ? args.get(i) : null;
        List<String> rest = i < args.size() ? args.subList(i + 1, args.size()) : List.of();
        if (!unknown.isEmpty()) {
            String where = subcommand == null
                    ? ""
                    : " If they are meant for \"" + subcommand + "\", put them after it: strata " + subcommand + " "
                            + String.join(" ", unknown) + ".";
            return new Outcome.Invalid(
                    CliDiagnostic.error(
                            "Unknown global option" + (unknown.size() == 1 ? " " : "s ") + String.join(", ", unknown),
                            "The options before the subcommand can only be -chdir=DIR, -help and -version." + where),
                    subcommand);
        }
        return new Outcome.Parsed(new GlobalArgs(chdir, help, subcommand, rest));
    }
}
