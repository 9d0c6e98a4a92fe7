package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import java.util.List;
import java.util.Optional;

/**
 * The help of one subcommand of a command with subcommands ({@code state list}, {@code workspace
 * new}): what follows its name in the usage line, what it does, and its flags. The parent's help
 * lists all of them; {@code strata state list -help} shows one.
 */
public record SubcommandHelp(String name, String usage, String text, FlagSet flags) {

    /** The parent's description: an introduction, then one paragraph per subcommand. */
    static String describe(String intro, List<SubcommandHelp> subs, String outro) {
        StringBuilder sb = new StringBuilder(intro);
        for (SubcommandHelp s : subs) {
            sb.append("\n\n")
                    .append(s.name())
                    .append(s.usage().isEmpty() ? "" : " " + s.usage())
                    .append(": ")
                    .append(s.text());
        }
        if (!outro.isEmpty()) {
            sb.append("\n\n").append(outro);
        }
        return sb.toString();
    }

    /** The subcommand named by the first positional argument, with the rest parsed by its flags. */
    record Selected(String name, ParsedArgs args) {}

    /**
     * Picks the subcommand of {@code command} named by {@code positionals}' first element and parses
     * the rest with that subcommand's flags; failed when none is named, the name is unknown (the
     * closest one suggested) or a flag is malformed.
     */
    static Parsed<Selected> select(String command, List<SubcommandHelp> subs, List<String> positionals) {
        List<String> names = subs.stream().map(SubcommandHelp::name).sorted().toList();
        if (positionals.isEmpty()) {
            return Parsed.failed(CliDiagnostic.error(
                    "Missing subcommand",
                    "Use one of: " + String.join(", ", names) + ". Run \"strata " + command + " -help\" for details."));
        }
        String name = positionals.get(0);
        Optional<SubcommandHelp> sub = find(subs, name);
        if (sub.isEmpty()) {
            List<String> close = Suggestions.closest(name, names);
            return Parsed.failed(CliDiagnostic.error(
                    "Unknown subcommand \"" + command + " " + name + "\"",
                    "There is no subcommand \"" + name + "\"."
                            + (close.isEmpty() ? "" : " Did you mean \"" + close.get(0) + "\"?") + " Run \"strata "
                            + command + " -help\" to list them."));
        }
        return switch (sub.get().flags().parse(positionals.subList(1, positionals.size()))) {
            case FlagSet.Outcome.Invalid invalid ->
                Parsed.failed(CliDiagnostic.error(
                        invalid.diagnostic().summary(),
                        invalid.diagnostic().detail() + " Run \"strata " + command + " -help\" for the options."));
            case FlagSet.Outcome.Parsed p -> Parsed.of(new Selected(name, p.args()));
        };
    }

    public static Optional<SubcommandHelp> find(List<SubcommandHelp> subs, String name) {
        return subs.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
