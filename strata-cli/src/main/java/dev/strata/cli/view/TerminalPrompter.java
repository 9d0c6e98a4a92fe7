package dev.strata.cli.view;

import dev.strata.config.Prompter;
import dev.strata.config.VariableConfig;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Asks for missing input variables on the terminal with Terraform's prompt:
 *
 * <pre>
 * var.region
 *   The region to deploy to.
 *
 *   Enter a value: eu-west-1
 * </pre>
 *
 * (no description lines when the variable has none). Sensitive variables are read without echo.
 * Commands that take variable values (plan, apply, ...) obtain one with {@link #forCommand} and pass it
 * to {@link dev.strata.config.InputVariables#resolve(dev.strata.config.ModuleConfig, java.nio.file.Path,
 * java.util.Map, java.util.List, Prompter)}.
 */
public final class TerminalPrompter implements Prompter {
    /** Where answers come from: a terminal (secret answers without echo), or a stream in tests. */
    public interface Input {
        /** One line without its terminator, or null at the end of input. */
        String readLine() throws IOException;

        /** One line read without echo, or null at the end of input. */
        String readSecret() throws IOException;
    }

    private final View view;
    private final Input input;

    public TerminalPrompter(Terminal context, Input input) {
        this.view = new View(context);
        this.input = input;
    }

    /**
     * A prompter when the command may ask: {@code -input} is true, {@code TF_INPUT} is not {@code 0} or
     * {@code false} (as Terraform reads it), and standard input is a terminal. Empty otherwise, and a
     * required variable without a value is then an error.
     */
    public static Optional<Prompter> forCommand(Terminal context, boolean inputFlag) {
        String env = context.getenv("TF_INPUT");
        if (!inputFlag || "0".equals(env) || "false".equalsIgnoreCase(env) || !stdinIsTerminal(context)) {
            return Optional.empty();
        }
        Console console = System.console();
        return Optional.of(
                new TerminalPrompter(context, console != null ? consoleInput(console) : streamInput(context)));
    }

    /**
     * Whether the command's standard input is the process's and a terminal: the launcher tells with
     * {@code -Dstrata.stdin.tty} (it can run {@code [ -t 0 ]}); without it, the JDK's console decides.
     */
    static boolean stdinIsTerminal(Terminal context) {
        if (context.stdin() != System.in) {
            return false;
        }
        String prop = System.getProperty("strata.stdin.tty");
        if (prop != null) {
            return Boolean.parseBoolean(prop);
        }
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method m = Console.class.getMethod("isTerminal"); // JDK 22+; we compile for 21
            return (Boolean) m.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    private static Input consoleInput(Console console) {
        return new Input() {
            @Override
            public String readLine() {
                return console.readLine();
            }

            @Override
            public String readSecret() {
                char[] c = console.readPassword();
                return c == null ? null : new String(c);
            }
        };
    }

    /** Answers read from the command's stdin; used when there is no console to turn echo off. */
    public static Input streamInput(Terminal context) {
        BufferedReader in = new BufferedReader(new InputStreamReader(context.stdin(), StandardCharsets.UTF_8));
        return new Input() {
            @Override
            public String readLine() throws IOException {
                return in.readLine();
            }

            @Override
            public String readSecret() throws IOException {
                return in.readLine();
            }
        };
    }

    @Override
    public Optional<String> ask(VariableConfig variable) {
        StringBuilder sb = new StringBuilder(view.style(View.Style.BOLD, "var." + variable.name())).append('\n');
        String description = variable.description();
        if (description != null && !description.isEmpty()) {
            description.lines().forEach(line -> sb.append("  ").append(line).append('\n'));
            sb.append('\n');
        }
        sb.append("  ").append(view.style(View.Style.BOLD, "Enter a value:")).append(' ');
        view.out().print(sb);
        view.out().flush();
        String answer;
        try {
            answer = variable.sensitive() ? input.readSecret() : input.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        view.out().println();
        view.out().flush();
        return Optional.ofNullable(answer);
    }
}
