package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.ConsoleView;
import dev.strata.config.ConfigData;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.InputVariables;
import dev.strata.config.ModuleConfig;
import dev.strata.engine.ProviderFunctions;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.ConsoleSession;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
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
    /**
     * The flags plan takes: -var and -var-file always; the others (-target, -refresh, -lock, ...) matter only
     * with -plan, which plans as {@code strata plan} does.
     */
    private static final Operation OP = new Operation(FLAGS);

    private static final Flag<Boolean> PLAN = FLAGS.bool(
            "plan",
            false,
            "Create a new plan (as \"strata plan\" does, refreshing unless -refresh=false) and evaluate expressions "
                    + "against its planned values instead of the current state: what the configuration would give "
                    + "once the plan is applied, with values only the apply can know shown as (known after apply). "
                    + "The state stays locked while the console runs.");

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
                + "When the working directory holds a configuration, its root module is loaded: var.NAME gives the "
                + "input variable's value (from defaults, TF_VAR_NAME, terraform.tfvars, *.auto.tfvars, -var and "
                + "-var-file, as for plan; a required variable without a value is unknown, as in terraform "
                + "console) and local.NAME the local value. Resources and data sources of the root "
                + "module evaluate to their values in the current state (sensitive attributes stay hidden); module "
                + "outputs are unknown. File functions read relative to the working directory.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /**
     * The arguments: the -var and -var-file options, in command-line order (later ones win), and whether to
     * evaluate against a new plan.
     */
    record Args(List<InputVariables.Arg> vars, boolean plan) {

        static Parsed<Args> parse(ParsedArgs args) {
            if (!args.positionals().isEmpty()) {
                return Parsed.failed(CliDiagnostic.error(
                        "Unexpected argument",
                        "The console command takes no arguments; got \""
                                + args.positionals().get(0) + "\"."));
            }
            List<InputVariables.Arg> vars = new ArrayList<>();
            for (ParsedArgs.Occurrence o : args.occurrences()) {
                if (o.flag().equals(OP.var)) {
                    vars.add(new InputVariables.Arg.Var(o.value()));
                } else if (o.flag().equals(OP.varFile)) {
                    vars.add(new InputVariables.Arg.VarFile(o.value()));
                }
            }
            return Parsed.of(new Args(vars, args.get(PLAN)));
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        ConsoleView view = new ConsoleView(context);
        Parsed<Args> args = Args.parse(parsed);
        if (args.hasErrors()) {
            args.diagnostics().forEach(d -> view.error(d.summary(), d.detail()));
            return 1;
        }
        // Providers whose functions an input calls run until the console ends.
        try (ProviderFunctions providerFunctions = new ProviderFunctions(Operation.providers(context))) {
            return args.value().plan()
                    ? planned(context, parsed, providerFunctions)
                    : console(context, view, args.value(), providerFunctions);
        }
    }

    /**
     * {@code console -plan}: plans as {@code strata plan} does (the configuration validated, the state locked
     * and refreshed, nothing shown of the plan itself) and evaluates the inputs in the root module as the plan
     * left it. The plan's problems are shown first; as in Terraform, a plan that failed still leaves a console,
     * after a warning that some values may be off. Only what stops the plan from starting ends the command.
     */
    private int planned(CommandContext context, ParsedArgs parsed, ProviderFunctions providerFunctions) {
        CommandContext ctx = OP.presentation(context, parsed);
        dev.strata.cli.view.OperationView view = dev.strata.cli.view.OperationView.of(
                ctx, false, new dev.strata.engine.Schemas(Operation.providers(ctx)));
        OperationRunner.Request request = new OperationRunner.Request("OperationTypePlan", null, false);
        return OperationRunner.run(ctx, parsed, OP, view.view(), request, s -> {
            dev.strata.engine.PlanOptions options = s.options(OP, dev.strata.engine.PlanMode.NORMAL, view.view());
            if (options == null) {
                return 1;
            }
            WalkScope walk = new WalkScope();
            Result<dev.strata.engine.Plan> plan =
                    s.engine().plan(s.loaded().variables(), s.state().state(), options, walk);
            Diagnostics problems =
                    s.loaded().warnings().with(Operation.narrowed(options)).with(plan.diagnostics());
            ConsoleView console = new ConsoleView(ctx, s.loaded().sources());
            console.diagnostics(problems, s.loaded().sources());
            if (walk.root == null) {
                return 1;
            }
            if (problems.hasErrors()) {
                // As Terraform: a plan that failed still leaves what it could work out to look at.
                console.diagnostics(
                        Diagnostics.of(unexpectedResults()), s.loaded().sources());
            }
            // The plan's providers are gone once it ends; the console's own start when an input calls a function.
            // As terraform console -plan: no plantimestamp either.
            Scope root = walk.root;
            FunctionTable functions = providerFunctions.table(
                    s.loaded().tree().root().module(), root.functions().without("plantimestamp"));
            // The walk resolves references the configuration's checks let through; an input's are checked here
            // as the console checks them without -plan (undeclared names, count.index outside a counted block).
            Scope declared = new ConfigData(
                            s.loaded().tree().root(), s.loaded().variables(), functions, ctx.startDir(), s.workspace())
                    .scope();
            Scope scope = new Scope() {
                @Override
                public Result<Resolved> resolve(dev.strata.hcl.Traversal traversal) {
                    Result<Resolved> checked = declared.resolve(traversal);
                    return checked.hasErrors() ? checked : root.resolve(traversal);
                }

                @Override
                public FunctionTable functions() {
                    return functions;
                }
            };
            return session(ctx, new ConsoleSession(scope), console);
        });
    }

    /** Terraform's warning after problems the console goes on despite. */
    private static dev.strata.hcl.Diagnostic unexpectedResults() {
        return dev.strata.hcl.Diagnostic.warning(
                "Due to the problems above, some expressions may produce unexpected results.", "", null);
    }

    /** The root module's scope as a plan's walk left it. */
    private static final class WalkScope implements dev.strata.engine.EngineEvents {
        volatile Scope root;

        @Override
        public void walkFinished(Scope root, SortedMap<String, Value> rootOutputs) {
            this.root = root;
        }
    }

    private int console(CommandContext context, ConsoleView view, Args args, ProviderFunctions providerFunctions) {
        FunctionContext functions = FunctionContext.system(context.workingDir());
        // As terraform console: there is no plan, so there is no plantimestamp function either.
        FunctionTable table = TemplateFunctions.builtins(functions).without("plantimestamp");
        // Without configuration files the tree is empty but still gives path.*, terraform.workspace and
        // Terraform's "undeclared" errors for var.*, local.* and the rest, as terraform console does.
        Result<ConfigTree> tree = ConfigLoader.loadTree(
                context.workingDir(), ConfigLoader.Options.DEFAULT.withEnvironment(context.env()));
        // Variables files are among the places a diagnostic may point at.
        DiagnosticRenderer.Sources sources =
                dev.strata.cli.view.FileSources.over(tree.value().diagnosticSources(), context.workingDir());
        List<InputVariables.Arg> vars = args.vars();
        ModuleConfig root = tree.value().root().module();
        // As terraform console: a required variable without a value is unknown, not an error.
        Result<InputVariables.Read> values =
                InputVariables.read(root, context.workingDir(), context.env(), vars, null, true);
        Diagnostics problems = tree.diagnostics().with(values.diagnostics());
        if (problems.hasErrors()) {
            view.diagnostics(problems, sources);
            return 1;
        }
        // What terraform console's walk finds wrong with the values is shown, and the console goes on.
        Diagnostics checked = InputVariables.check(root, context.workingDir(), values.value());
        view.diagnostics(problems.with(checked), sources);
        if (checked.hasErrors()) {
            view.diagnostics(Diagnostics.of(unexpectedResults()), sources);
        }
        table = providerFunctions.table(root, table);
        ConfigData config = new ConfigData(
                tree.value().root(), values.value().values(), table, context.startDir(), workspace(context));
        Scope scope = withState(context, config);
        // From here on, diagnostics may point into the configuration's files as well as the input.
        return session(context, new ConsoleSession(scope), new ConsoleView(context, sources));
    }

    /** Reads and evaluates inputs until the input ends or "exit": with line editing on a terminal. */
    private int session(CommandContext context, ConsoleSession session, ConsoleView view) {
        boolean interactive = context.stdin() == System.in
                && (Boolean.getBoolean("strata.stdin.tty")
                        || System.console() != null && System.getProperty("strata.stdin.tty") == null);
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
            LineReader reader = LineReaderBuilder.builder()
                    .terminal(terminal)
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

    /** The selected workspace, as TF_WORKSPACE chooses it until workspaces exist. */
    private static String workspace(CommandContext context) {
        String w = context.getenv("TF_WORKSPACE");
        return w == null ? "default" : w;
    }

    /**
     * Evaluates one input (its lines, each ended by a newline) and shows its value or its diagnostics; true
     * if it had no errors. As in Terraform, the input is its lines joined: an error at its end is on its
     * last line, not on an empty one after it.
     */
    private static boolean evaluate(ConsoleSession session, ConsoleView view, String lines) {
        String text = lines.endsWith("\n") ? lines.substring(0, lines.length() - 1) : lines;
        Result<String> r = session.evaluate(text);
        view.result(r, text);
        return !r.hasErrors();
    }

    /** The configuration scope with the root module's recorded resources, when a state can be read. */
    private static Scope withState(CommandContext context, ConfigData config) {
        // Without a readable state the console still evaluates the configuration: problems are not errors here.
        StateCli.Stored stored = StateCli.readUnlocked(context).value();
        if (stored == null || !stored.exists()) {
            return config.scope();
        }
        return config.withRecorded(new dev.strata.engine.StateResources(
                        stored.state(), new dev.strata.engine.Schemas(Operation.providers(context))))
                .scope();
    }
}
