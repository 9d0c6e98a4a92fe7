package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.command.Command;
import dev.strata.cli.command.CommandContext;
import dev.strata.cli.command.Commands;
import dev.strata.cli.command.Flag;
import dev.strata.cli.command.FlagSet;
import dev.strata.cli.command.ParsedArgs;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.View;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end tests of the frame: real argument handling, real commands, captured streams. */
class MainTest {
    @TempDir
    Path dir;

    private CliRunner cli() {
        return CliRunner.in(dir);
    }

    /** Reads a file named relative to the command's working directory, to prove -chdir reaches commands. */
    static final class CatCommand implements Command {
        static final FlagSet FLAGS = new FlagSet();
        static final Flag<Boolean> LOUD = FLAGS.bool("loud", false, "Report a warning too.");

        @Override
        public String name() {
            return "cat";
        }

        @Override
        public String synopsis() {
            return "Print a file";
        }

        @Override
        public Section section() {
            return Section.MAIN;
        }

        @Override
        public String usage() {
            return "[options] FILE";
        }

        @Override
        public String description() {
            return "Prints FILE, resolved against the working directory.";
        }

        @Override
        public FlagSet flags() {
            return FLAGS;
        }

        @Override
        public int run(CommandContext context, ParsedArgs args) {
            View view = new View(context);
            if (args.positionals().size() != 1) {
                view.diagnostic(CliDiagnostic.error("Wrong number of arguments", "cat takes exactly one FILE."));
                return 1;
            }
            if (args.get(LOUD)) {
                view.diagnostic(CliDiagnostic.warning("Loud", "You asked for it."));
            }
            try {
                view.out()
                        .print(Files.readString(
                                context.resolve(args.positionals().get(0))));
                return 0;
            } catch (IOException e) {
                view.diagnostic(CliDiagnostic.error("Cannot read file", e.getMessage()));
                return 1;
            }
        }
    }

    /** Throws, to check that a command's bug becomes exit code 1 with a report, not a stack trace. */
    static final class BoomCommand implements Command {
        @Override
        public String name() {
            return "boom";
        }

        @Override
        public String synopsis() {
            return "Crash";
        }

        @Override
        public Section section() {
            return Section.OTHER;
        }

        @Override
        public String description() {
            return "Crashes.";
        }

        @Override
        public FlagSet flags() {
            return new FlagSet();
        }

        @Override
        public int run(CommandContext context, ParsedArgs args) {
            throw new IllegalStateException("bug");
        }
    }

    /** Throws an Error the JVM raises at its limits, named by the command: oom or deep. */
    record ErrorCommand(String name, Error error) implements Command {
        @Override
        public String synopsis() {
            return "Fail";
        }

        @Override
        public Section section() {
            return Section.OTHER;
        }

        @Override
        public String description() {
            return "Fails.";
        }

        @Override
        public FlagSet flags() {
            return new FlagSet();
        }

        @Override
        public int run(CommandContext context, ParsedArgs args) {
            throw error;
        }
    }

    private CliRunner withProbes() {
        List<Command> all = new ArrayList<>(Commands.all());
        all.add(new CatCommand());
        all.add(new BoomCommand());
        all.add(new ErrorCommand("oom", new OutOfMemoryError("Java heap space")));
        all.add(new ErrorCommand("deep", new StackOverflowError()));
        return cli().commands(all);
    }

    @Test
    void aNonDaemonThreadStillRunningMakesMainExitExplicitly() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(
                Main.otherThreadsKeepTheJvmAlive(), "the test runner itself keeps a non-daemon thread");
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Thread worker = new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        try {
            assertThat(Main.otherThreadsKeepTheJvmAlive()).isTrue();
        } finally {
            release.countDown();
            worker.join();
        }
        assertThat(Main.otherThreadsKeepTheJvmAlive()).isFalse();
        Thread daemon = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        daemon.setDaemon(true);
        daemon.start();
        try {
            assertThat(Main.otherThreadsKeepTheJvmAlive()).isFalse();
        } finally {
            daemon.interrupt();
            daemon.join();
        }
    }

    /** As Terraform: a CLI configuration that does not parse is reported before the command, which still runs. */
    @Test
    void cliConfigurationProblemsAreReportedAndTheCommandRuns() throws Exception {
        Files.writeString(dir.resolve("bad.tfrc"), """
                provider_installation {
                  bogus {}
                }
                plugin_cache_dir = 5
                """);
        CliRunner.Result r = cli().env(
                        "TF_CLI_CONFIG_FILE", dir.resolve("bad.tfrc").toString())
                .run("version");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).startsWith("Strata v");
        assertThat(r.stderr())
                .startsWith("There are some problems with the CLI configuration:\n")
                .contains("Error: Unsupported block type")
                .contains("bad.tfrc line 2")
                .contains("Error: Invalid plugin_cache_dir")
                .endsWith("\nAs a result of the above problems, Strata may not behave as intended.\n\n");
        Files.writeString(dir.resolve("passwd"), "root:x:0:0\nbin:x:1:1\nsys:x:2:2\nsync:x:3:3\nman:x:4:4\n");
        CliRunner.Result notOne = cli().env(
                        "TF_CLI_CONFIG_FILE", dir.resolve("passwd").toString())
                .run("version");
        assertThat(notOne.exitCode()).isZero();
        assertThat(notOne.stderr())
                .contains("passwd line 3:")
                .doesNotContain("passwd line 4:")
                .contains("(and 2 more problems in the same file)");
        CliRunner.Result fine = cli().env(
                        "TF_CLI_CONFIG_FILE", dir.resolve("missing.tfrc").toString())
                .run("version");
        assertThat(fine.stderr()).isEmpty();
    }

    @Test
    void versionPrintsVersionAndPlatform() {
        CliRunner.Result r = cli().run("version");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).matches("Strata v\\d+\\.\\d+\\.\\d+(-dev)?\non [a-z0-9]+_[a-z0-9]+\n");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void versionFlagsAreAliases() {
        String expected = cli().run("version").stdout();
        for (String alias : List.of("-version", "--version", "-v")) {
            CliRunner.Result r = cli().run(alias);
            assertThat(r.exitCode()).as(alias).isZero();
            assertThat(r.stdout()).as(alias).isEqualTo(expected);
        }
    }

    @Test
    void versionJsonHasTerraformsShape() throws IOException {
        for (String[] args : List.of(new String[] {"version", "-json"}, new String[] {"-version", "-json"})) {
            CliRunner.Result r = cli().run(args);
            assertThat(r.exitCode()).isZero();
            JsonNode json = new ObjectMapper().readTree(r.stdout());
            assertThat(json.fieldNames())
                    .toIterable()
                    .containsExactly("strata_version", "platform", "provider_selections", "terraform_outdated");
            assertThat(json.get("strata_version").asText())
                    .isEqualTo(cli().run("version").stdout().split("\n")[0].substring(8));
            assertThat(json.get("provider_selections").isObject()).isTrue();
            assertThat(json.get("provider_selections").size()).isZero();
            assertThat(json.get("terraform_outdated").isBoolean()).isTrue();
            assertThat(r.stdout()).startsWith("{\n  \"strata_version\": \"").contains("\"provider_selections\": {},\n");
        }
        assertThat(cli().run("version", "-json=false").stdout()).startsWith("Strata v");
    }

    @Test
    void helpListsCommandsBySectionAndGlobalOptions() {
        for (String h : List.of("-help", "-h", "--help")) {
            CliRunner.Result r = withProbes().run(h);
            assertThat(r.exitCode()).as(h).isZero();
            assertThat(r.stdout()).startsWith("Usage: strata [global options] <subcommand> [args]\n");
            String out = r.stdout();
            assertThat(out.indexOf("Main commands:")).isLessThan(out.indexOf("  cat "));
            assertThat(out.indexOf("  cat ")).isLessThan(out.indexOf("All other commands:"));
            assertThat(out.indexOf("All other commands:")).isLessThan(out.indexOf("  version "));
            assertThat(out).contains("  version         Show the Strata version and platform\n");
            assertThat(out).contains("Global options (use these before the subcommand, if any):\n  -chdir=DIR ");
            assertThat(out).contains("\n  -help ").contains("\n  -version ");
            assertThat(out.lines()).allMatch(l -> l.length() <= 80);
        }
    }

    @Test
    void noSubcommandShowsHelpWithTerraformsExitCode() {
        CliRunner.Result r = cli().run();
        assertThat(r.exitCode()).isEqualTo(127);
        assertThat(r.stdout()).startsWith("Usage: strata");
    }

    @Test
    void eachCommandHasItsOwnHelp() {
        String help = cli().run("version", "-help").stdout();
        assertThat(help).isEqualTo("""
                Usage: strata [global options] version [options]

                  Prints the version of Strata and the platform it runs on.

                Options:

                  -json       Print the version information as a JSON object.
                """);
        assertThat(cli().run("-help", "version").stdout()).isEqualTo(help);
        assertThat(cli().run("version", "-h").stdout()).isEqualTo(help);
        assertThat(cli().run("version", "--help").exitCode()).isZero();
        assertThat(withProbes().run("cat", "-help").stdout())
                .startsWith("Usage: strata [global options] cat [options] FILE\n");
    }

    @Test
    void unknownCommandIsNamedWithASuggestion() {
        CliRunner.Result r = cli().run("versoin");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr().replaceAll("\\s+", " "))
                .contains("Error: Unknown command \"versoin\"")
                .contains("Did you mean \"version\"?")
                .contains("strata -help");
        assertThat(cli().run("frobnicate").stderr()).doesNotContain("Did you mean");
    }

    @Test
    void badFlagOfACommandIsNamedWithItsHelpHint() {
        CliRunner.Result r = cli().run("version", "-jsn");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr().replaceAll("\\s+", " "))
                .contains("Error: Unknown option -jsn")
                .contains("Did you mean -json?")
                .contains("strata version -help");
        assertThat(cli().run("version", "-json=perhaps").exitCode()).isEqualTo(1);
    }

    /**
     * As terraform: plan, apply and init asked for -json report a bad flag in the stream (version, then the
     * diagnostic) on stdout, exit 1; without -json, or for a command whose -json is a document, as text.
     */
    @Test
    void aBadFlagOfAStreamingCommandIsAMessageOfTheStreamItAskedFor() throws Exception {
        for (String command : List.of("plan", "apply", "init")) {
            CliRunner.Result r = cli().run(command, "-json", "-bogus");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.stderr()).isEmpty();
            List<String> lines = r.stdout().lines().toList();
            assertThat(lines).hasSize(2);
            ObjectMapper json = new ObjectMapper();
            assertThat(json.readTree(lines.get(0)).get("type").asText()).isEqualTo("version");
            JsonNode d = json.readTree(lines.get(1));
            assertThat(d.get("type").asText()).isEqualTo("diagnostic");
            assertThat(d.get("@level").asText()).isEqualTo("error");
            assertThat(d.get("diagnostic").get("summary").asText()).isEqualTo("Unknown option -bogus");
            assertThat(d.get("diagnostic").get("detail").asText())
                    .endsWith("strata " + command + " -help\" for its options.");
        }
        assertThat(cli().run("plan", "-json=false", "-bogus").stderr()).contains("Error: Unknown option -bogus");
        assertThat(cli().run("plan", "-bogus").stdout()).isEmpty();
        assertThat(cli().run("validate", "-json", "-bogus").stderr()).contains("Error: Unknown option -bogus");
    }

    @Test
    void commandFlagsBeforeTheSubcommandAreRefused() {
        CliRunner.Result r = cli().run("-json", "version");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Unknown global option -json").contains("strata version -json");
    }

    @Test
    void chdirResolvesRelativePathsForTheCommand() throws IOException {
        Files.createDirectories(dir.resolve("infra/prod"));
        Files.writeString(dir.resolve("infra/prod/main.tf"), "# prod\n");
        CliRunner.Result r = withProbes().run("-chdir=infra/prod", "cat", "main.tf");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("# prod\n");
        CliRunner.Result abs = withProbes().run("-chdir=" + dir.resolve("infra"), "cat", "prod/main.tf");
        assertThat(abs.stdout()).isEqualTo("# prod\n");
        assertThat(withProbes().run("cat", "main.tf").exitCode()).isEqualTo(1);
    }

    @Test
    void chdirToAMissingDirectoryFailsLikeTerraform() throws IOException {
        CliRunner.Result r = cli().run("-chdir=nope", "version");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEqualTo("Error handling -chdir option: chdir nope: no such file or directory\n");
        Files.writeString(dir.resolve("file"), "");
        assertThat(cli().run("-chdir=file", "version").stderr())
                .isEqualTo("Error handling -chdir option: chdir file: not a directory\n");
        assertThat(cli().run("-chdir", "version").exitCode()).isEqualTo(1);
    }

    @Test
    void chdirWithHelpStillValidatesAndShowsHelp() {
        assertThat(cli().run("-chdir=.", "-help").exitCode()).isZero();
        assertThat(cli().run("-chdir=missing", "-help").exitCode()).isEqualTo(1);
    }

    @Test
    void colourIsOffForPipesAndWithNoColorAnywhere() throws IOException {
        Files.writeString(dir.resolve("f"), "x");
        String esc = "\u001b[";
        assertThat(withProbes().run("cat", "-loud", "f").stdout())
                .doesNotContain(esc)
                .contains("Warning: Loud");
        assertThat(withProbes().terminal(true).run("cat", "-loud", "f").stdout())
                .contains(esc);
        assertThat(withProbes()
                        .terminal(true)
                        .run("-no-color", "cat", "-loud", "f")
                        .stdout())
                .doesNotContain(esc);
        CliRunner.Result r = withProbes().terminal(true).run("cat", "-loud", "-no-color", "f");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).doesNotContain(esc);
        assertThat(cli().terminal(true).run("version", "-no-color").exitCode()).isZero();
    }

    @Test
    void commandErrorsGoToStderrAndSetTheExitCode() {
        CliRunner.Result r = withProbes().run("cat");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEqualTo("\nError: Wrong number of arguments\n\ncat takes exactly one FILE.\n");
    }

    @Test
    void aCrashingCommandIsReportedAsABugWithExitCodeOne() {
        CliRunner.Result r = withProbes().run("boom");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Internal error in \"boom\"").contains("This is a bug in Strata");
        assertNoJava(r);
    }

    @Test
    void outOfMemoryIsAnErrorWithAWayOutNotAStackTrace() {
        CliRunner.Result r = withProbes().run("oom");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Out of memory").contains("STRATA_JAVA_OPTS=-Xmx4g");
        assertNoJava(r);
    }

    @Test
    void stackOverflowIsAnErrorAboutNestingNotAStackTrace() {
        CliRunner.Result r = withProbes().run("deep");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Nesting too deep");
        assertNoJava(r);
    }

    @Test
    void theStackTraceOfACrashGoesToTheLogFile() throws IOException {
        Path log = dir.resolve("strata.log");
        CliRunner.Result r = withProbes()
                .env("STRATA_LOG", "error")
                .env("STRATA_LOG_PATH", log.toString())
                .run("boom");
        assertThat(r.exitCode()).isEqualTo(1);
        assertNoJava(r);
        assertThat(Files.readString(log))
                .contains("boom stopped")
                .contains("IllegalStateException")
                .contains("at dev.strata.cli.MainTest$BoomCommand.run");
    }

    /** No Java wording reaches the user: exception names, packages or stack frames. */
    static void assertNoJava(CliRunner.Result r) {
        for (String stream : List.of(r.stdout(), r.stderr())) {
            assertThat(stream)
                    .doesNotContain("Exception")
                    .doesNotContain("java.")
                    .doesNotContain("MemoryError")
                    .doesNotContain("OverflowError")
                    .doesNotContain("at dev.strata")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void invalidLogLevelWarnsOnStderrAndKeepsStdoutClean() throws IOException {
        CliRunner.Result r = cli().env("STRATA_LOG", "loud").run("version", "-json");
        assertThat(r.exitCode()).isZero();
        new ObjectMapper().readTree(r.stdout());
        assertThat(r.stderr().replaceAll("\\s+", " "))
                .contains("Warning: Invalid STRATA_LOG value")
                .contains("\"loud\"")
                .contains("trace, debug, info, warn, error and off");
        assertThat(r.stderr().lines().filter(l -> l.contains("run="))).isEmpty();
    }

    @Test
    void debugLoggingToStderrCarriesTheRunId() {
        CliRunner.Result r = cli().env("STRATA_LOG", "debug").run("version");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).startsWith("Strata v");
        List<String> lines = r.stderr().lines().toList();
        assertThat(lines).isNotEmpty();
        assertThat(lines)
                .allMatch(l -> l.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\[DEBUG] run="
                        + r.runId() + " \\[.+] dev\\.strata\\..+: .+"));
        assertThat(r.stderr()).contains("running command version");
    }

    @Test
    void loggingIsSilentByDefault() {
        CliRunner.Result r = cli().run("version");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void jsonLogFileIsRelativeToTheProcessDirectoryAndAppended() throws IOException {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("strata.log"), "earlier line\n");
        CliRunner.Result r = cli().env("STRATA_LOG", "TRACE")
                .env("STRATA_LOG_PATH", "strata.log")
                .env("STRATA_LOG_FORMAT", "json")
                .run("-chdir=sub", "version");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).isEmpty();
        List<String> lines = Files.readAllLines(dir.resolve("strata.log"));
        assertThat(lines.get(0)).isEqualTo("earlier line");
        assertThat(lines).hasSizeGreaterThan(2);
        ObjectMapper mapper = new ObjectMapper();
        for (String line : lines.subList(1, lines.size())) {
            JsonNode n = mapper.readTree(line);
            assertThat(n.get("run_id").asText()).isEqualTo(r.runId());
            assertThat(n.get("logger").asText()).startsWith("dev.strata.");
        }
        assertThat(Files.exists(dir.resolve("sub/strata.log"))).isFalse();
    }
}
