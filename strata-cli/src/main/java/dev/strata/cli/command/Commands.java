package dev.strata.cli.command;

import dev.strata.cli.view.HelpView;
import java.util.Arrays;
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
                new DriftCommand(),
                new FmtCommand(),
                new ForceUnlockCommand(),
                new GetCommand(),
                new GraphCommand(),
                new ImportCommand(),
                new MetadataCommand(),
                new ModulesCommand(),
                new OutputCommand(),
                new ProvidersCommand(),
                new SdkCommand(),
                ApplyCommand.refresh(),
                new ShowCommand(),
                new StateCommand(),
                new dev.strata.cli.command.stacks.StacksCommand(),
                TaintCommand.taint(),
                TaintCommand.untaint(),
                new TestCommand(),
                new VersionCommand(),
                new WorkspaceCommand());
    }

    /** The command with exactly this name, from the given list. */
    public static Optional<Command> find(List<Command> commands, String name) {
        return commands.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** Command names close to a mistyped one, best first. */
    public static List<String> suggest(List<Command> commands, String mistyped) {
        return Suggestions.closest(
                mistyped, commands.stream().map(Command::name).toList());
    }

    /** The listing of {@code strata -help}: the commands by section, in registry order. */
    public static List<HelpView.Section> listing(List<Command> commands) {
        return Arrays.stream(Command.Section.values())
                .map(section -> new HelpView.Section(
                        section.title(),
                        commands.stream()
                                .filter(c -> c.section() == section)
                                .map(c -> new HelpView.Entry(c.name(), c.synopsis()))
                                .toList()))
                .toList();
    }

    /** {@code strata <command> -help}. */
    public static HelpView.Page help(Command command) {
        return new HelpView.Page(command.name(), command.usage(), command.description(), options(command.flags()));
    }

    /** {@code strata <command> <subcommand> -help}. */
    public static HelpView.Page help(Command parent, SubcommandHelp sub) {
        String text = Character.toUpperCase(sub.text().charAt(0)) + sub.text().substring(1);
        return new HelpView.Page(parent.name() + " " + sub.name(), sub.usage(), text, options(sub.flags()));
    }

    private static List<HelpView.Option> options(FlagSet flags) {
        return flags.all().stream()
                .map(f -> new HelpView.Option(
                        switch (f.kind()) {
                            case BOOL ->
                                Boolean.TRUE.equals(f.defaultValue()) ? "-" + f.name() + "=false" : "-" + f.name();
                            case STRING, INT, STRING_LIST -> "-" + f.name() + "=" + f.placeholder();
                        },
                        f.usage()))
                .toList();
    }
}
