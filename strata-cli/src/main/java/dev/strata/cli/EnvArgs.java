package dev.strata.cli;

import dev.strata.cli.command.Command;
import dev.strata.cli.command.SubcommandHelp;
import dev.strata.cli.view.CliDiagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Arguments from the environment, as Terraform takes them: {@code TF_CLI_ARGS} for every command and
 * {@code TF_CLI_ARGS_<name>} for one ({@code TF_CLI_ARGS_plan}, {@code TF_CLI_ARGS_state_list},
 * {@code TF_CLI_ARGS_force_unlock}), split into words as a shell would ({@link ShellWords}) and put right
 * after the (sub)command's name: the command's own variable first, then the general one, then the
 * arguments typed. A flag given again later on the command line therefore wins.
 */
final class EnvArgs {
    static final String GENERAL = "TF_CLI_ARGS";

    private EnvArgs() {}

    sealed interface Outcome {
        record Merged(List<String> args) implements Outcome {}

        record Invalid(CliDiagnostic diagnostic) implements Outcome {}
    }

    /** {@code rest} (what followed the command's name) with the environment's arguments merged in. */
    static Outcome merge(Map<String, String> env, Command command, List<String> rest) {
        // A command with subcommands takes them after the subcommand's name, as "state list" is one command.
        int at = 0;
        String name = command.name();
        if (!rest.isEmpty()
                && SubcommandHelp.find(command.subcommands(), rest.get(0)).isPresent()) {
            at = 1;
            name = name + " " + rest.get(0);
        }
        List<String> out = new ArrayList<>(rest);
        for (String variable :
                List.of(GENERAL, GENERAL + "_" + name.replace('-', '_').replace(' ', '_'))) {
            String value = env.get(variable);
            if (value == null || value.isEmpty()) {
                continue;
            }
            Optional<List<String>> words = ShellWords.split(value);
            if (words.isEmpty()) {
                return new Outcome.Invalid(CliDiagnostic.error(
                        "Error parsing extra CLI args from " + variable,
                        "The value of " + variable + " is not a valid command line string: a quote, backtick or $( is"
                                + " not closed, a backslash ends it, or it has a parenthesis outside quotes. Write it"
                                + " as arguments for a POSIX shell, quoting values that contain spaces, for example "
                                + variable + "='-var \"name=a b\"'."));
            }
            out.addAll(at, words.get());
        }
        return new Outcome.Merged(List.copyOf(out));
    }
}
