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
 *     record Args(boolean write, List<String> targets) {   // what the flags mean, as a value
 *         static Parsed<Args> parse(ParsedArgs args) { ... }   // the value plus diagnostics
 *     }
 *
 *     public int run(CommandContext ctx, ParsedArgs parsed) {
 *         Parsed<Args> args = Args.parse(parsed);
 *         FmtView view = new FmtView(ctx);                    // never System.out
 *         if (args.hasErrors()) { view.diagnostics(args.diagnostics()); return 1; }
 *         ...
 *         return 0;                                            // or 1
 *     }
 * }
 * }</pre>
 *
 * A command made of subcommands extends {@link dev.strata.cli.command.ParentCommand} instead. Add
 * {@code new FmtCommand()} to {@link dev.strata.cli.command.Commands#all()}. The frame then lists it
 * in {@code strata -help}, suggests it for typos, answers {@code strata fmt -help} from {@code usage()},
 * {@code description()} and the flags, and reports malformed flags before {@code run} is called.
 * Test it end to end with {@code CliRunner} (test sources, package {@code dev.strata.cli}).
 */
package dev.strata.cli.command;
