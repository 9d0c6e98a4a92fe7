package dev.strata.cli.command;

import dev.strata.cli.view.ConsoleView;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.ConsoleSession;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * {@code strata console}: evaluates expressions and prints them as {@code terraform console} does.
 * Input comes one expression per line (more lines while brackets are open), interactively with line
 * editing and history when stdin is a terminal. Unlike Terraform's console with piped input, every
 * result is printed and an error does not end the session.
 */
final class ConsoleCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();

    @Override
    public String name() {
        return "console";
    }

    @Override
    public String synopsis() {
        return "Try Strata expressions at an interactive command prompt";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String usage() {
        return "";
    }

    @Override
    public String description() {
        return "Starts an interactive console for experimenting with Strata expressions: functions, operators, "
                + "for expressions, templates. Type an expression and press Enter to see its value; an expression "
                + "may span several lines while brackets are open. Type \"exit\" or press Ctrl-D to leave.\n\n"
                + "With input from a pipe or a file, each expression is evaluated in turn and its value printed; "
                + "errors are reported on stderr and the next expression is still evaluated. The exit status is 1 "
                + "if any expression failed.\n\n"
                + "Configuration is not loaded yet: references such as var.x are reported as undeclared, and "
                + "file functions read relative to the working directory.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    @Override
    public int run(CommandContext context, ParsedArgs args) {
        if (!args.positionals().isEmpty()) {
            new ConsoleView(context).error("Unexpected argument",
                    "The console command takes no arguments; got \"" + args.positionals().get(0) + "\".");
            return 1;
        }
        FunctionContext functions = FunctionContext.system(context.workingDir());
        ConsoleSession session = new ConsoleSession(Scope.empty(TemplateFunctions.builtins(functions)));
        ConsoleView view = new ConsoleView(context);
        boolean interactive = context.stdin() == System.in
                && (Boolean.getBoolean("strata.stdin.tty") || System.console() != null
                        && System.getProperty("strata.stdin.tty") == null);
        return interactive ? interactive(context, session, view) : piped(context, session, view);
    }

    private int piped(CommandContext context, ConsoleSession session, ConsoleView view) {
        boolean failed = false;
        BufferedReader in = new BufferedReader(new InputStreamReader(context.stdin(), StandardCharsets.UTF_8));
        StringBuilder pending = new StringBuilder();
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (pending.isEmpty() && line.isBlank()) {
                    continue;
                }
                if (pending.isEmpty() && line.strip().equals("exit")) {
                    break;
                }
                pending.append(line).append('\n');
                if (ConsoleSession.needsMoreInput(pending.toString())) {
                    continue;
                }
                failed |= !evaluate(session, view, pending.toString());
                pending.setLength(0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!pending.isEmpty()) {
            // Input ended inside an open bracket: evaluating it reports what is unclosed.
            failed |= !evaluate(session, view, pending.toString());
        }
        return failed ? 1 : 0;
    }

    private int interactive(CommandContext context, ConsoleSession session, ConsoleView view) {
        try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
            LineReader reader = LineReaderBuilder.builder().terminal(terminal)
                    .variable(LineReader.HISTORY_FILE, historyFile(context))
                    .build();
            StringBuilder pending = new StringBuilder();
            while (true) {
                String line;
                try {
                    line = reader.readLine(pending.isEmpty() ? "> " : "| ");
                } catch (UserInterruptException e) {
                    pending.setLength(0); // Ctrl-C abandons the current input, as in a shell
                    continue;
                } catch (EndOfFileException e) {
                    return 0;
                }
                if (pending.isEmpty() && line.strip().equals("exit")) {
                    return 0;
                }
                if (pending.isEmpty() && line.isBlank()) {
                    continue;
                }
                pending.append(line).append('\n');
                if (ConsoleSession.needsMoreInput(pending.toString())) {
                    continue;
                }
                evaluate(session, view, pending.toString());
                pending.setLength(0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path historyFile(CommandContext context) {
        String home = context.getenv("HOME");
        return Path.of(home == null ? "." : home, ".strata_console_history");
    }

    /** Evaluates one input and shows its value or its diagnostics; true if it had no errors. */
    private static boolean evaluate(ConsoleSession session, ConsoleView view, String text) {
        Result<String> r = session.evaluate(text);
        view.result(r, text);
        return !r.hasErrors();
    }
}
