package dev.strata.cli.command;

/**
 * One {@code strata} subcommand. Implementations are registered in {@link Commands#all()}, the only
 * list of subcommands; the help screen, suggestions for mistyped names and dispatch all read it.
 *
 * <p>The frame parses the command's arguments against {@link #flags()} before calling
 * {@link #run}: {@code -help} and malformed flags are handled by the frame, so {@code run} sees only
 * well-formed flags. A command does its work and reports through views built on
 * {@link dev.strata.cli.view.View}; it never prints to {@code System.out}/{@code System.err} and never
 * exits the JVM: it returns the exit code (0 success, 1 error).
 */
public interface Command {

    /** The word typed after {@code strata}, e.g. {@code "fmt"}. */
    String name();

    /** One line for the {@code strata -help} listing; starts with a capital letter, no full stop. */
    String synopsis();

    /** Where the command appears in {@code strata -help}. */
    Section section();

    /**
     * What follows the command name in its usage line, e.g. {@code "[options] [target...]"}.
     */
    default String usage() {
        return flags().isEmpty() ? "" : "[options]";
    }

    /** The body of {@code strata <name> -help}: paragraphs separated by blank lines, unwrapped. */
    String description();

    /**
     * The flags this command accepts. Return the same (immutable, typically static) instance each time:
     * {@link ParsedArgs#get(Flag)} looks values up by the {@link Flag} handles it created.
     */
    FlagSet flags();

    /**
     * For a command with subcommands ({@code state}, {@code workspace}): their help, so that
     * {@code strata state list -help} shows that subcommand's usage and flags.
     */
    default java.util.List<SubcommandHelp> subcommands() {
        return java.util.List.of();
    }

    /**
     * Whether {@code -json} makes this command's output Terraform's stream of JSON messages (plan, apply,
     * init), so that a problem with its arguments is written as one too, after the stream's version message.
     */
    default boolean streamsJson() {
        return false;
    }

    /** Runs the command. Positional-argument checks are the command's own. */
    int run(CommandContext context, ParsedArgs args);

    /** Groups of the help screen: the everyday workflow first, the rest after. */
    enum Section {
        MAIN("Main commands"),
        OTHER("All other commands");

        private final String title;

        Section(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }
}
