package dev.strata.cli.command;

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
            sb.append("\n\n").append(s.name()).append(s.usage().isEmpty() ? "" : " " + s.usage()).append(": ")
                    .append(s.text());
        }
        if (!outro.isEmpty()) {
            sb.append("\n\n").append(outro);
        }
        return sb.toString();
    }

    public static Optional<SubcommandHelp> find(List<SubcommandHelp> subs, String name) {
        return subs.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
