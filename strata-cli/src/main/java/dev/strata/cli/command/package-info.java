/**
 * Subcommands and their arguments. To add a command:
 *
 * <pre>{@code
 * final class FmtCommand implements Command {
 *     private static final FlagSet FLAGS = new FlagSet();
 *     private static final Flag<Boolean> WRITE = FLAGS.bool("write", true, "Write the result to the files.");
 *
 *     public String name() { return "fmt"; }
 *     public String synopsis() { return "Rewrite configuration files in the canonical style"; }
 *     public Section section() { return Section.OTHER; }
 *     public String usage() { return "[options] [target...]"; }
 *     public String description() { return "Rewrites ..."; }
 *     public FlagSet flags() { return FLAGS; }
 *
 *     public int run(CommandContext ctx, ParsedArgs args) {
 *         Path target = ctx.resolve(args.positionals().isEmpty() ? "." : args.positionals().get(0));
 *         FmtView view = new FmtView.Human(ctx);   // never System.out
 *         ...
 *         return 0;                                 // or 1
 *     }
 * }
 * }</pre>
 *
 * and add {@code new FmtCommand()} to {@link dev.strata.cli.command.Commands#all()}. The frame then lists it
 * in {@code strata -help}, suggests it for typos, answers {@code strata fmt -help} from {@code usage()},
 * {@code description()} and the flags, and reports malformed flags before {@code run} is called.
 * Test it end to end with {@code CliRunner} (test sources, package {@code dev.strata.cli}).
 */
package dev.strata.cli.command;
