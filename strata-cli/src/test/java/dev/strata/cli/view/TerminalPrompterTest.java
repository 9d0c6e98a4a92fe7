package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.command.CommandContext;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.InputVariables;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Terraform's prompt text, secret input for sensitive variables, and when a command may prompt at all. */
class TerminalPrompterTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private CommandContext context(Map<String, String> env) {
        return new CommandContext(
                dir,
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()),
                false,
                80,
                env,
                "r");
    }

    /** Scripted answers; records which were read without echo. */
    private static final class Script implements TerminalPrompter.Input {
        final Deque<String> answers;
        final List<String> reads = new ArrayList<>();

        Script(String... answers) {
            this.answers = new ArrayDeque<>(List.of(answers));
        }

        @Override
        public String readLine() {
            reads.add("line");
            return answers.poll();
        }

        @Override
        public String readSecret() {
            reads.add("secret");
            return answers.poll();
        }
    }

    @Test
    void promptsLikeTerraformAndReadsSensitiveValuesWithoutEcho() throws IOException {
        Files.writeString(dir.resolve("main.tf"), """
                variable "b_region" {
                  description = "The region.\\nSecond line."
                }
                variable "a_secret" {
                  type      = string
                  sensitive = true
                }
                variable "c_list" { type = list(string) }
                variable "d_default" { default = "x" }
                """);
        Result<ConfigTree> tree = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        Script script = new Script("hunter2", "eu", "[\"a\",\"b\"]");
        Result<SortedMap<String, Value>> r = InputVariables.resolve(
                tree.value().root().module(),
                dir,
                Map.of(),
                List.of(),
                new TerminalPrompter(context(Map.of()), script));
        assertThat(r.diagnostics().isEmpty()).as(r.diagnostics().toString()).isTrue();
        // Terraform's own output on a terminal, less the echo of what was typed (ours is scripted).
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("""
                var.a_secret
                  Enter a value: \n\
                var.b_region
                  The region.
                  Second line.

                  Enter a value: \n\
                var.c_list
                  Enter a value: \n""");
        assertThat(script.reads).containsExactly("secret", "line", "line");
        assertThat(r.value().get("a_secret").isSensitive()).isTrue();
        assertThat(r.value().get("b_region")).isEqualTo(Value.string("eu"));
        assertThat(r.value().get("c_list").elements()).hasSize(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("hunter2");
    }

    @Test
    void endOfInputLeavesTheVariableUnset() throws IOException {
        Files.writeString(dir.resolve("main.tf"), "variable \"x\" {}\n");
        Result<ConfigTree> tree = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        Result<SortedMap<String, Value>> r = InputVariables.resolve(
                tree.value().root().module(),
                dir,
                Map.of(),
                List.of(),
                new TerminalPrompter(context(Map.of()), new Script()));
        assertThat(r.diagnostics().asList())
                .extracting(d -> d.summary())
                .containsExactly("No value for required variable");
    }

    @Test
    void noPromptWithoutATerminalOrWithInputOff() {
        // A test's stdin is not the process's terminal; -input=false and TF_INPUT=0 also turn prompts off.
        assertThat(TerminalPrompter.forCommand(context(Map.of()), true)).isEmpty();
        assertThat(TerminalPrompter.forCommand(context(Map.of()), false)).isEmpty();
        assertThat(TerminalPrompter.forCommand(context(Map.of("TF_INPUT", "0")), true))
                .isEmpty();
        assertThat(TerminalPrompter.stdinIsTerminal(context(Map.of()))).isFalse();
    }
}
