package dev.strata.cli.command;

import java.util.List;

/**
 * A command made of subcommands ({@code state}, {@code workspace}, {@code providers}): it takes no flags
 * of its own, its help is an introduction followed by its subcommands' help, and its first positional
 * argument selects the subcommand, whose flags are parsed then.
 */
abstract class ParentCommand implements Command {
    private static final FlagSet NO_FLAGS = new FlagSet();

    private final String name;
    private final String synopsis;
    private final String usage;
    private final String intro;
    private final String outro;
    private final List<SubcommandHelp> subcommands;

    ParentCommand(
            String name, String synopsis, String usage, String intro, String outro, List<SubcommandHelp> subcommands) {
        this.name = name;
        this.synopsis = synopsis;
        this.usage = usage;
        this.intro = intro;
        this.outro = outro;
        this.subcommands = List.copyOf(subcommands);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return SubcommandHelp.describe(intro, subcommands, outro);
    }

    @Override
    public final String synopsis() {
        return synopsis;
    }

    /** The subcommand the positional arguments name, with its flags parsed. */
    final Parsed<SubcommandHelp.Selected> select(List<String> positionals) {
        return SubcommandHelp.select(name, subcommands, positionals);
    }

    @Override
    public final String usage() {
        return usage;
    }

    @Override
    public final List<SubcommandHelp> subcommands() {
        return subcommands;
    }

    /** Listed with the other commands, after the everyday workflow. */
    @Override
    public final Section section() {
        return Section.OTHER;
    }

    @Override
    public final FlagSet flags() {
        return NO_FLAGS;
    }
}
