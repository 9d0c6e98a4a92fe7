package dev.strata.cli.command;

import dev.strata.cli.tftest.HumanTestView;
import dev.strata.cli.tftest.JUnitReport;
import dev.strata.cli.tftest.JsonTestView;
import dev.strata.cli.tftest.TestRunner;
import dev.strata.cli.tftest.TestView;
import dev.strata.cli.version.Version;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.PlanView;
import dev.strata.cli.view.ShowView;
import dev.strata.config.ConfigTree;
import dev.strata.config.InputVariables;
import dev.strata.engine.Plan;
import dev.strata.engine.Schemas;
import dev.strata.state.StateSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code strata test}: runs the configuration's {@code .tftest.hcl} and {@code .tftest.json} files
 * (in the configuration directory and the test directory) as {@code terraform test} does, with
 * in-memory state that is destroyed at the end of each file.
 */
final class TestCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<List<String>> FILTER = FLAGS.repeated(
            "filter",
            "FILE",
            "Only execute the test files named here, given relative to the configuration directory. Use this "
                    + "option more than once to run more than one file.");
    private static final Flag<Boolean> JSON =
            FLAGS.bool("json", false, "Write the output of the command in a machine-readable JSON format.");
    private static final Flag<String> JUNIT = FLAGS.string(
            "junit-xml",
            "",
            "FILE",
            "Also write a JUnit XML report of the results to FILE, for CI systems that show test results.");
    private static final Flag<String> TEST_DIRECTORY = FLAGS.string(
            "test-directory",
            "tests",
            "PATH",
            "The directory, relative to the configuration directory, where test files are read from besides the "
                    + "configuration directory itself. Defaults to \"tests\".");
    private static final Flag<Boolean> VERBOSE =
            FLAGS.bool("verbose", false, "Print the plan or state of each run block as it executes.");
    private static final Flag<List<String>> VAR = FLAGS.repeated(
            "var",
            "'foo=bar'",
            "Set a value for one of the input variables in the root module of the configuration. Use this option "
                    + "more than once to set more than one variable.");
    private static final Flag<List<String>> VAR_FILE = FLAGS.repeated(
            "var-file",
            "FILENAME",
            "Load variable values from the given file, in addition to the default files terraform.tfvars and "
                    + "*.auto.tfvars. Use this option more than once to include more than one variables file.");
    private static final Flag<Integer> PARALLELISM =
            FLAGS.integer("parallelism", 10, "N", "Limit the number of concurrent operations within each run.");
    private static final Flag<Integer> RUN_PARALLELISM =
            FLAGS.integer("run-parallelism", 10, "N", "Limit the number of run blocks that may execute at once.");

    @Override
    public String name() {
        return "test";
    }

    @Override
    public String synopsis() {
        return "Execute integration tests for Strata modules";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String description() {
        return "Executes automated integration tests against the current Strata configuration.\n\n"
                + "Strata searches the current directory and the test directory (\"tests\" by default) for "
                + ".tftest.hcl and .tftest.json files and executes the run blocks within them in order. Each run "
                + "plans or applies the configuration (or the module it names) with in-memory state and checks its "
                + "assert blocks; at the end of each file every object it created is destroyed, the state used "
                + "last first. Mock providers and overrides replace providers and objects where the file asks.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /** The arguments, parsed once (ADR 0010). */
    record Args(
            List<String> filters,
            boolean json,
            String junitXml,
            String testDirectory,
            boolean verbose,
            List<InputVariables.Arg> variables) {

        static Parsed<Args> parse(ParsedArgs args) {
            List<InputVariables.Arg> vars = new ArrayList<>();
            for (ParsedArgs.Occurrence o : args.occurrences()) {
                if (o.flag().equals(VAR)) {
                    vars.add(new InputVariables.Arg.Var(o.value()));
                } else if (o.flag().equals(VAR_FILE)) {
                    vars.add(new InputVariables.Arg.VarFile(o.value()));
                }
            }
            Args value = new Args(
                    args.get(FILTER),
                    args.get(JSON),
                    args.get(JUNIT),
                    args.get(TEST_DIRECTORY),
                    args.get(VERBOSE),
                    vars);
            List<CliDiagnostic> problems = new ArrayList<>();
            if (!args.positionals().isEmpty()) {
                problems.add(CliDiagnostic.error(
                        "Unexpected argument",
                        "The test command takes no arguments; name test files with -filter, and use the global "
                                + "-chdir option to test another directory."));
            }
            if (args.get(PARALLELISM) < 1 || args.get(RUN_PARALLELISM) < 1) {
                problems.add(CliDiagnostic.error(
                        "Invalid parallelism", "-parallelism and -run-parallelism must be at least 1."));
            }
            return new Parsed<>(value, problems);
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        Parsed<Args> args = Args.parse(parsed);
        Args a = args.value();
        TestView view = a.json()
                ? new JsonTestView(context.withColorAllowed(false), Version.current())
                : new HumanTestView(context);
        if (args.hasErrors()) {
            view.diagnostics(
                    null,
                    null,
                    dev.strata.hcl.Diagnostics.of(args.diagnostics().stream()
                            .map(CliDiagnostic::toDiagnostic)
                            .toList()),
                    dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
            return 1;
        }
        JUnitReport junit = a.junitXml().isEmpty() ? null : new JUnitReport(view);
        TestView effective = junit == null ? view : junit;
        var providers = Operation.providers(context);
        TestRunner runner = new TestRunner(
                context.workingDir(),
                context.env(),
                providers,
                Version.current(),
                new TestRunner.Settings(a.testDirectory(), a.filters(), a.variables(), a.verbose()),
                effective,
                new VerboseText(context, new Schemas(providers)));
        int code = runner.run();
        if (junit != null) {
            var problems = junit.write(context.resolve(a.junitXml()));
            if (problems.hasErrors()) {
                view.diagnostics(null, null, problems, dev.strata.hcl.DiagnosticRenderer.NO_SOURCES);
                return 1;
            }
        }
        return code;
    }

    /** The plan or the state of a run, as {@code plan} and {@code show} print them. */
    private record VerboseText(CommandContext context, Schemas schemas) implements TestRunner.Verbose {
        @Override
        public String plan(Plan plan, ConfigTree tree) {
            // The view separates the run's line from the detail itself: the plan's own leading blank line goes.
            String text = new PlanView(context).withSchemas(schemas).render(plan);
            return text.startsWith("\n") ? text.substring(1) : text;
        }

        @Override
        public String state(StateSnapshot state, ConfigTree tree) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
            CommandContext captured = new CommandContext(
                    context.workingDir(),
                    context.stdin(),
                    ps,
                    ps,
                    context.colorAllowed(),
                    context.terminalWidth(),
                    context.env(),
                    context.runId(),
                    context.startDir());
            ShowView.of(captured, false, schemas).state(state);
            return buf.toString(StandardCharsets.UTF_8);
        }
    }
}
