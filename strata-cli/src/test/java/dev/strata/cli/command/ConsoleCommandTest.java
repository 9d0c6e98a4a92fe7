package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata console} with piped input, end to end. */
class ConsoleCommandTest {
    @TempDir
    Path dir;

    @Test
    void printsEveryResultInTerraformsRendering() {
        CliRunner.Result r = CliRunner.in(dir)
                .stdin("1 + 2\nupper(\"a\")\ntolist([\"x\"])\n\"a\\nb\"\nsensitive(1)\n")
                .run("console");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEqualTo("3\n\"A\"\ntolist([\n  \"x\",\n])\n<<EOT\na\nb\nEOT\n(sensitive value)\n");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void multiLineInputWhileBracketsAreOpen() {
        CliRunner.Result r = CliRunner.in(dir)
                .stdin("[for x in [1, 2] :\n  x * 10\n]\n{\n  a = 1\n}\n")
                .run("console");
        assertThat(r.stdout()).isEqualTo("[\n  10,\n  20,\n]\n{\n  \"a\" = 1\n}\n");
    }

    @Test
    void errorsAreDiagnosticsAndTheSessionGoesOn() {
        CliRunner.Result r = CliRunner.in(dir).stdin("tonumber(\"x\")\n42\n").run("console", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEqualTo("42\n");
        assertThat(r.stderr())
                .contains("Error: Invalid function argument")
                .contains("on <console-input> line 1:")
                .contains("   1: tonumber(\"x\")")
                .contains("cannot convert \"x\" to number");
    }

    @Test
    void typeIsConsoleOnlyAndExitEndsTheSession() {
        CliRunner.Result r = CliRunner.in(dir)
                .stdin("type([1, \"a\"])\nupper(type(1))\nexit\n1\n")
                .run("console");
        assertThat(r.stdout()).isEqualTo("tuple([\n    number,\n    string,\n])\n");
        assertThat(r.stderr()).contains("Invalid use of type function");
    }

    @Test
    void fileFunctionsReadRelativeToTheWorkingDirectory() throws IOException {
        Files.createDirectories(dir.resolve("infra"));
        Files.writeString(dir.resolve("infra/hello.tpl"), "Hello ${name}");
        CliRunner.Result r = CliRunner.in(dir)
                .stdin("templatefile(\"hello.tpl\", {name = \"you\"})\n")
                .run("-chdir=infra", "console");
        assertThat(r.stdout()).isEqualTo("\"Hello you\"\n");
    }

    @Test
    void thereIsNoPlantimestampWithoutAPlan() {
        // As terraform console: no plan is made, so the function does not exist (timestamp() does).
        CliRunner.Result r = CliRunner.in(dir)
                .stdin("plantimestamp()\nlength(timestamp())\n")
                .run("console", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEqualTo("20\n");
        assertThat(r.stderr())
                .contains("Error: Call to unknown function")
                .contains("There is no function named \"plantimestamp\".\n");
    }

    @Test
    void unclosedInputAtTheEndIsReported() {
        CliRunner.Result r = CliRunner.in(dir).stdin("[1, 2\n").run("console", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Unterminated tuple constructor");
    }
}
