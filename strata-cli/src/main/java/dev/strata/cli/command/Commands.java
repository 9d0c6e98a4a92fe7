package dev.strata.cli.command;

import java.util.List;
import java.util.Optional;

/**
 * The registry of subcommands: the one place a new command is added. Order within each
 * {@link Command.Section} is the order of {@code strata -help}: workflow order for the main commands,
 * alphabetical for the rest.
 */
public final class Commands {
    private Commands() {}

    /** Every subcommand. Add new commands here; nothing else needs to change. */
    public static List<Command> all() {
        return List.of(
                new InitCommand(),
                new ValidateCommand(),
                new PlanCommand(),
                ApplyCommand.apply(),
                ApplyCommand.destroy(),
                new ConsoleCommand(),
                new FmtCommand(),
                new ForceUnlockCommand(),
                new GraphCommand(),
                new ImportCommand(),
                new OutputCommand(),
                new ProvidersCommand(),
                ApplyCommand.refresh(),
                new ShowCommand(),
                new StateCommand(),
                new VersionCommand(),
                new WorkspaceCommand());
    }

    /** The command with exactly this name, from the given list. */
    public static Optional<Command> find(List<Command> commands, String name) {
        return commands.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** Command names close to a mistyped one, best first. */
    public static List<String> suggest(List<Command> commands, String mistyped) {
        return Suggestions.closest(mistyped, commands.stream().map(Command::name).toList());
    }
}
