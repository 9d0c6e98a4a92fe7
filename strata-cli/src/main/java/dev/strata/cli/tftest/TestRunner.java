package dev.strata.cli.tftest;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.Targetable;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.InputVariables;
import dev.strata.config.tftest.TestFile;
import dev.strata.config.tftest.TestFileDecoder;
import dev.strata.engine.ApplyResult;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineEvents;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderSource;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Runs the test files of a configuration as {@code terraform test} does: each file's run blocks in
 * order, each through the {@link Engine} against an in-memory state per state key, assertions
 * evaluated against the plan or the applied state, and every state destroyed at the end of its file
 * (the state used last first).
 */
public final class TestRunner {

    /**
     * What the command line asked for.
     *
     * @param testDirectory the directory of test files besides the configuration's own, relative
     * @param filters       test files to run ({@code -filter}); empty means all
     * @param variables     {@code -var} and {@code -var-file} in command-line order
     */
    public record Settings(
            String testDirectory, List<String> filters, List<InputVariables.Arg> variables, boolean verbose) {
        public Settings {
            filters = List.copyOf(filters);
            variables = List.copyOf(variables);
        }
    }

    private final Path dir;
    private final Map<String, String> env;
    private final ProviderSource providers;
    private final String engineVersion;
    private final Settings settings;
    private final TestView view;
    private final Verbose verbose;
    private final SourceFiles sources = new SourceFiles();

    /** How a run's plan or state is shown with {@code -verbose}. */
    public interface Verbose {
        String plan(Plan plan, ConfigTree tree);

        String state(StateSnapshot state, ConfigTree tree);
    }

    public TestRunner(
            Path dir,
            Map<String, String> env,
            ProviderSource providers,
            String engineVersion,
            Settings settings,
            TestView view,
            Verbose verbose) {
        this.dir = dir;
        this.env = Map.copyOf(env);
        this.providers = providers;
        this.engineVersion = engineVersion;
        this.settings = settings;
        this.view = view;
        this.verbose = verbose;
    }

    /** Runs every selected file; returns the exit status (0 when everything passed, 1 otherwise). */
    public int run() {
        Path testDir = Path.of(settings.testDirectory());
        if (testDir.isAbsolute() || testDir.normalize().startsWith("..")) {
            view.diagnostics(
                    null,
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Invalid testing directory",
                            "The testing directory must be a relative path pointing to a directory local to the "
                                    + "configuration directory.",
                            null)),
                    sources);
            return 1;
        }
        Result<ConfigTree> main = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT.withEnvironment(env));
        sources.add(main.value());
        List<String> files = new ArrayList<>();
        Diagnostics.Builder problems = Diagnostics.builder();
        collect(dir, "", files, problems);
        String prefix = testDir.normalize().toString().replace('\\', '/');
        if (!prefix.isEmpty() && !prefix.equals(".")) {
            collect(dir.resolve(prefix), prefix + "/", files, problems);
        }
        files.sort(null);
        if (!settings.filters().isEmpty()) {
            for (String f : settings.filters()) {
                if (!files.contains(f)) {
                    problems.add(Diagnostic.warning(
                            "Unknown test file", "The specified test file, " + f + ", could not be found.", null));
                }
            }
            files.removeIf(f -> !settings.filters().contains(f));
        }
        Map<String, TestFile> decoded = new LinkedHashMap<>();
        Diagnostics.Builder decodeProblems = Diagnostics.builder();
        decodeProblems.addAll(main.diagnostics());
        for (String f : files) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(dir.resolve(f));
            } catch (IOException e) {
                decodeProblems.add(Diagnostic.error(
                        "Failed to read test file", "Could not read " + IoProblems.describe(f, e) + ".", null));
                continue;
            }
            sources.add(f, bytes);
            Result<TestFile> tf = TestFileDecoder.decode(bytes, f);
            decodeProblems.addAll(tf.diagnostics());
            if (tf.value() != null) {
                decoded.put(f, tf.value());
            }
        }
        view.diagnostics(null, null, problems.build(), sources);
        Diagnostics invalid = decodeProblems.build();
        if (invalid.hasErrors()) {
            view.diagnostics(null, null, invalid, sources);
            return 1;
        }
        if (!invalid.isEmpty()) {
            view.diagnostics(null, null, invalid, sources);
        }
        java.util.LinkedHashMap<String, List<String>> abstractOf = new java.util.LinkedHashMap<>();
        decoded.forEach((n, f) ->
                abstractOf.put(n, f.runs().stream().map(TestFile.Run::name).toList()));
        view.plan(abstractOf);
        int passed = 0;
        int failed = 0;
        int skipped = 0;
        TestStatus total = TestStatus.PENDING;
        for (TestFile file : decoded.values()) {
            FileRun fr = new FileRun(file, main.value());
            TestStatus s = fr.run();
            total = total.merge(s);
            passed += fr.count(TestStatus.PASS);
            failed += fr.count(TestStatus.FAIL) + fr.count(TestStatus.ERROR);
            skipped += fr.count(TestStatus.SKIP);
        }
        view.summary(total, passed, failed, skipped);
        return total == TestStatus.FAIL || total == TestStatus.ERROR ? 1 : 0;
    }

    private void collect(Path where, String prefix, List<String> into, Diagnostics.Builder problems) {
        if (!Files.isDirectory(where)) {
            return;
        }
        try (Stream<Path> s = Files.list(where)) {
            s.filter(Files::isRegularFile)
                    .map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".tftest.hcl") || n.endsWith(".tftest.json"))
                    .map(n -> prefix + n)
                    .filter(n -> !into.contains(n))
                    .forEach(into::add);
        } catch (IOException e) {
            problems.add(Diagnostic.error(
                    "Failed to read test directory", "Could not list " + IoProblems.describe(where, e) + ".", null));
        }
    }

    /** One state key's configuration and state within a file. */
    private static final class StateEntry {
        final MemoryState state;
        /**
         * The engine of the configuration the state was applied with last, with that run's mocks and
         * providers and without {@code prevent_destroy}: cleanup destroys with it.
         */
        Engine engine;
        /** The run that applied to this state last: its variables destroy it, and cleanup is ordered by it. */
        TestFile.Run lastRun;

        SortedMap<String, Value> lastVariables = new TreeMap<>();
        int lastIndex;

        StateEntry(MemoryState state) {
            this.state = state;
        }
    }

    /** The evaluation scope and outputs a walk left, captured from the engine's event. */
    private static final class Captured implements EngineEvents {
        volatile Scope scope;
        volatile SortedMap<String, Value> outputs = new TreeMap<>();

        @Override
        public void walkFinished(Scope root, SortedMap<String, Value> rootOutputs) {
            this.scope = root;
            this.outputs = rootOutputs;
        }
    }

    /** The runs of one file and their states. */
    private final class FileRun {
        final TestFile file;
        final ConfigTree main;
        final Map<String, StateEntry> states = new LinkedHashMap<>();
        final Map<String, Value> runOutputs = new LinkedHashMap<>();
        final Map<String, TestStatus> statuses = new LinkedHashMap<>();
        final Map<String, ConfigTree> modules = new HashMap<>();
        /** The static checks of each configuration, made once per file. */
        final Map<ConfigTree, Diagnostics> checked = new java.util.IdentityHashMap<>();

        final TestVariables vars;

        FileRun(TestFile file, ConfigTree main) {
            this.file = file;
            this.main = main;
            this.vars = new TestVariables(
                    file.variables(),
                    globals(),
                    runOutputs,
                    file.runs().stream().map(TestFile.Run::name).collect(java.util.stream.Collectors.toSet()));
        }

        int count(TestStatus s) {
            return (int) statuses.values().stream().filter(x -> x == s).count();
        }

        TestStatus run() {
            view.fileStart(file.name());
            TestStatus fileStatus = TestStatus.PENDING;
            int index = 0;
            // Runs that errored or were skipped: in a parallel file, what refers to them is skipped too.
            java.util.Set<String> broken = new java.util.HashSet<>();
            for (TestFile.Run run : file.runs()) {
                boolean skip = file.parallel()
                        ? RunReferences.of(run).stream().anyMatch(broken::contains)
                        : fileStatus == TestStatus.ERROR;
                if (skip) {
                    broken.add(run.name());
                    statuses.put(run.name(), TestStatus.SKIP);
                    view.run(file.name(), run.name(), TestStatus.SKIP, null, Diagnostics.NONE, sources);
                    continue;
                }
                view.runStarted(file.name(), run.name(), run.asserts().size());
                Outcome o = execute(run, index++);
                statuses.put(run.name(), o.status);
                fileStatus = fileStatus.merge(o.status);
                if (o.fileError) {
                    fileStatus = fileStatus.merge(TestStatus.ERROR);
                }
                if (o.status == TestStatus.ERROR || o.fileError) {
                    broken.add(run.name());
                }
                view.run(file.name(), run.name(), o.status, o.detail, o.diags, sources);
            }
            view.teardown(file.name());
            if (!cleanup()) {
                fileStatus = fileStatus.merge(TestStatus.ERROR);
            }
            if (fileStatus == TestStatus.PENDING) {
                fileStatus = TestStatus.PASS;
            }
            view.fileEnd(file.name(), fileStatus);
            return fileStatus;
        }

        /** A run's result; {@code fileError} when the file fails although the run counts as skipped. */
        private record Outcome(TestStatus status, String detail, Diagnostics diags, boolean fileError) {
            Outcome(TestStatus status, String detail, Diagnostics diags) {
                this(status, detail, diags, false);
            }
        }

        private ConfigTree config(TestFile.Run run, Diagnostics.Builder diags) {
            if (run.moduleSource() == null) {
                return main;
            }
            String src = run.moduleSource();
            if (!(src.startsWith("./") || src.startsWith("../"))) {
                diags.add(Diagnostic.error(
                        "Unsupported module source",
                        "Strata test runs only local modules (sources starting with ./ or ../); \"" + src
                                + "\" is not one.",
                        run.moduleSourceRange()));
                return null;
            }
            return modules.computeIfAbsent(src, s -> {
                Path moduleDir = dir.resolve(s).normalize();
                if (!Files.isDirectory(moduleDir)) {
                    diags.add(Diagnostic.error(
                            "Unreadable module directory",
                            "The directory " + s + " does not exist or cannot be read.",
                            run.moduleSourceRange()));
                    return null;
                }
                Result<ConfigTree> t =
                        ConfigLoader.loadTree(moduleDir, ConfigLoader.Options.DEFAULT.withEnvironment(env));
                diags.addAll(t.diagnostics());
                sources.add(t.value());
                return t.diagnostics().hasErrors() ? null : t.value();
            });
        }

        private Outcome execute(TestFile.Run run, int index) {
            Diagnostics.Builder diags = Diagnostics.builder();
            ConfigTree tree = config(run, diags);
            if (tree == null) {
                return new Outcome(TestStatus.ERROR, null, diags.build());
            }
            diags.addAll(RunReferences.undeclaredVariables(
                    run, tree.root().module().variables().keySet()));
            Scope providerScope = vars.scope(run.variables());
            Result<TestInterceptor> interceptor =
                    TestInterceptor.of(file, run, dir, tree.root().module(), providerScope);
            diags.addAll(interceptor.diagnostics());
            if (interceptor.hasErrors()) {
                return new Outcome(TestStatus.ERROR, null, diags.build());
            }
            Diagnostics references = interceptor.value().checkProviderReferences(providerScope);
            if (references.hasErrors()) {
                // As with the file's variables: the run is skipped and the file fails.
                diags.addAll(references);
                return new Outcome(TestStatus.SKIP, null, diags.build(), true);
            }
            if (!checked.containsKey(tree)) {
                Diagnostics problems = Engine.builder(tree, providers, engineVersion)
                        .environment(env)
                        .build()
                        .checkConfig();
                checked.put(tree, problems);
                diags.addAll(problems);
            }
            if (checked.get(tree).hasErrors()) {
                return new Outcome(TestStatus.ERROR, null, diags.build());
            }
            // Each run has its own mocks and overrides, so its own engine; the state is the key's.
            Engine engine = Engine.builder(tree, providers, engineVersion)
                    .environment(env)
                    .interceptor(interceptor.value())
                    .build();
            StateEntry entry =
                    states.computeIfAbsent(run.stateKey(), k -> new StateEntry(new MemoryState(engineVersion)));
            ExpectedFailures expected = ExpectedFailures.of(run, tree, diags);
            if (diags.hasErrors()) {
                return new Outcome(TestStatus.ERROR, null, diags.build());
            }
            Result<InputVariables.Read> vars = variables(run, tree);
            if (vars.value() == null) {
                // The test file's own expressions failed: the run is skipped and the file fails.
                diags.addAll(vars.diagnostics());
                return new Outcome(TestStatus.SKIP, null, diags.build(), true);
            }
            Diagnostics varRest = expected.consume(vars.diagnostics(), settings.verbose(), diags);
            diags.addAll(varRest);
            if (varRest.hasErrors()) {
                return new Outcome(TestStatus.ERROR, null, diags.build());
            }
            if (vars.hasErrors()) {
                // Only expected failures: the run stops here, as Terraform's does.
                if (expected.allSeen()) {
                    return new Outcome(TestStatus.PASS, null, diags.build());
                }
                expected.reportMissing(diags);
                return new Outcome(TestStatus.FAIL, null, diags.build());
            }
            SortedMap<String, Value> variables = vars.value().values();
            PlanOptions options = options(run, diags);
            if (options == null) {
                return new Outcome(TestStatus.ERROR, null, diags.build());
            }
            options = options.withVariables(vars.value().origins());
            Captured captured = new Captured();
            Result<Plan> plan = engine.plan(variables, entry.state.state(), options, captured);
            Diagnostics planDiags = plan.diagnostics();
            Diagnostics remaining = expected.consume(planDiags, settings.verbose(), diags);
            if (plan.value() == null || remaining.hasErrors()) {
                diags.addAll(remaining);
                if (!remaining.hasErrors() && expected.allSeen()) {
                    return new Outcome(TestStatus.PASS, null, diags.build());
                }
                if (!remaining.hasErrors()) {
                    expected.reportMissing(diags);
                    return new Outcome(TestStatus.FAIL, null, diags.build());
                }
                return new Outcome(TestStatus.ERROR, null, diags.build());
            }
            String detail = null;
            Scope scope = captured.scope;
            SortedMap<String, Value> outputs = captured.outputs;
            boolean checksFailed;
            if (run.command() == TestFile.Command.APPLY) {
                // The apply evaluates the check blocks again and reports their failures itself.
                diags.addAll(withoutChecks(remaining));
                if (!expected.isEmpty() && expected.anySeen()) {
                    // An expected failure during planning stops the run before the apply, as in Terraform.
                    return finish(run, tree, expected, scope, outputs, diags, null, true, false);
                }
                if (options.mode() == PlanMode.REFRESH_ONLY
                        && plan.value().drift().isEmpty()) {
                    // A refresh-only plan that found nothing has nothing to apply (Terraform's wording).
                    diags.add(Diagnostic.error(
                            "Cannot apply non-applyable plan",
                            "The given plan is not applyable. If this seems like a bug in Strata, then please report it!",
                            null));
                    return new Outcome(TestStatus.ERROR, null, diags.build());
                }
                // The state is destroyed at the end with what applied to it last (a run that only plans, or
                // whose variables fail, leaves it as it was): as Terraform, whose cleanup would otherwise fail
                // on a later run's invalid variables and leave the objects behind.
                entry.lastRun = run;
                entry.lastVariables = variables;
                entry.lastIndex = index;
                entry.engine = Engine.builder(tree, providers, engineVersion)
                        .environment(env)
                        .interceptor(interceptor.value().forCleanup())
                        .build();
                Captured applied = new Captured();
                Result<ApplyResult> r = engine.apply(plan.value(), entry.state, options, applied);
                Diagnostics applyRemaining = expected.consume(r.diagnostics(), settings.verbose(), diags);
                checksFailed = hasCheckFailures(applyRemaining);
                diags.addAll(checksAsErrors(applyRemaining));
                if (r.value() == null || applyRemaining.hasErrors()) {
                    return new Outcome(TestStatus.ERROR, null, diags.build());
                }
                scope = applied.scope;
                outputs = applied.outputs;
                if (settings.verbose()) {
                    detail = verbose.state(entry.state.state(), tree);
                }
            } else {
                if (remaining.asList().stream().anyMatch(TestRunner::isUnknownCheck)) {
                    // As Terraform 1.11: a plan run cannot tell whether a check holds, which is an error.
                    diags.addAll(checksAsErrors(remaining));
                    return new Outcome(TestStatus.ERROR, null, diags.build());
                }
                checksFailed = hasCheckFailures(remaining);
                diags.addAll(checksAsErrors(remaining));
                if (settings.verbose()) {
                    detail = verbose.plan(plan.value(), tree);
                }
            }
            return finish(
                    run,
                    tree,
                    expected,
                    scope,
                    outputs,
                    diags,
                    detail,
                    run.command() == TestFile.Command.PLAN,
                    checksFailed);
        }

        private Outcome finish(
                TestFile.Run run,
                ConfigTree tree,
                ExpectedFailures expected,
                Scope scope,
                SortedMap<String, Value> outputs,
                Diagnostics.Builder diags,
                String detail,
                boolean planned,
                boolean checksFailed) {
            runOutputs.put(run.name(), Value.object(new TreeMap<>(outputs)));
            TestStatus status = checksFailed ? TestStatus.FAIL : TestStatus.PASS;
            if (!expected.allSeen()) {
                expected.reportMissing(diags);
                // Terraform's status for it: an error (the JUnit report's "errors", JSON's "error").
                status = TestStatus.ERROR;
            }
            if (scope != null) {
                Scope assertScope = assertionScope(run, tree, scope, outputs);
                for (TestFile.Assertion a : run.asserts()) {
                    TestStatus s = Assertions.check(
                            a,
                            assertScope,
                            run.name(),
                            planned,
                            settings.verbose(),
                            diags,
                            sources::values,
                            sources::comparison);
                    status = status.merge(s);
                }
            }
            return new Outcome(status, detail, diags.build());
        }

        /**
         * The scope of a run's assertions: the configuration's root module as the run left it, with
         * {@code output.NAME}, {@code run.NAME} and the test file's variables for names the module does
         * not declare.
         */
        private Scope assertionScope(TestFile.Run run, ConfigTree tree, Scope root, SortedMap<String, Value> outputs) {
            Value out = Value.object(new TreeMap<>(outputs));
            var declared = tree.root().module().variables();
            return new Scope() {
                @Override
                public dev.strata.lang.funcs.FunctionTable functions() {
                    return root.functions();
                }

                @Override
                public Result<Resolved> resolve(Traversal t) {
                    String r = t.rootName();
                    if ("output".equals(r)) {
                        return Result.of(new Resolved(out, 1));
                    }
                    String name = t.steps().size() > 1 && t.steps().get(1) instanceof dev.strata.hcl.Traverser.Attr a
                            ? a.name()
                            : null;
                    if ("ephemeral".equals(r)
                            && name != null
                            && t.steps().size() > 2
                            && t.steps().get(2) instanceof dev.strata.hcl.Traverser.Attr n) {
                        // The run's operation has ended and closed its ephemeral resources.
                        return Result.of(
                                new Resolved(Value.DYNAMIC_UNKNOWN.mark(dev.strata.lang.value.Mark.EPHEMERAL), 3),
                                Diagnostics.of(Diagnostic.error(
                                        "Ephemeral resource instance has expired",
                                        "The remote object for ephemeral." + name + "." + n.name()
                                                + " is no longer available: ephemeral resources are closed when the "
                                                + "run's operation ends, so Strata cannot evaluate this expression.",
                                        t.range())));
                    }
                    if ("run".equals(r) || ("var".equals(r) && name != null && !declared.containsKey(name))) {
                        return vars.resolve(
                                t,
                                run.variables()::containsKey,
                                n -> vars.evaluate(run.variables().get(n)),
                                null);
                    }
                    return root.resolve(t);
                }
            };
        }

        private PlanOptions options(TestFile.Run run, Diagnostics.Builder diags) {
            List<Targetable> targets = new ArrayList<>();
            for (Expression e : run.planOptions().target()) {
                Result<java.util.Optional<Traversal>> t = e.asTraversal();
                if (t.value() == null || t.value().isEmpty()) {
                    diags.add(Diagnostic.error(
                            "Invalid target", "The target must be a reference to a resource or module.", e.range()));
                    return null;
                }
                Result<Targetable> a = Addrs.parseTarget(t.value().get());
                diags.addAll(a.diagnostics());
                if (a.value() == null) {
                    return null;
                }
                targets.add(a.value());
            }
            List<AbsResourceInstance> replace = new ArrayList<>();
            for (Expression e : run.planOptions().replace()) {
                Result<java.util.Optional<Traversal>> t = e.asTraversal();
                if (t.value() == null || t.value().isEmpty()) {
                    diags.add(Diagnostic.error(
                            "Invalid replace address", "The address must be a resource instance.", e.range()));
                    return null;
                }
                Result<AbsResourceInstance> a =
                        Addrs.parseAbsResourceInstance(t.value().get());
                diags.addAll(a.diagnostics());
                if (a.value() == null) {
                    return null;
                }
                replace.add(a.value());
            }
            return new PlanOptions(
                    dir,
                    dir,
                    "default",
                    run.planOptions().refreshOnly() ? PlanMode.REFRESH_ONLY : PlanMode.NORMAL,
                    run.planOptions().refresh(),
                    targets,
                    replace,
                    10);
        }

        /**
         * The root variables for {@code run}: the command line's and the variable files' first, then
         * the file's {@code variables} block, then the run's own, each evaluated where it is written; the
         * plan's walk checks them against their declarations.
         */
        private Result<InputVariables.Read> variables(TestFile.Run run, ConfigTree tree) {
            Diagnostics.Builder diags = Diagnostics.builder();
            var declared = tree.root().module().variables();
            List<InputVariables.Arg> args = new ArrayList<>();
            // The test file's own variable declarations give the lowest-precedence values.
            declaredDefaults().forEach((n, v) -> {
                if (declared.containsKey(n)) {
                    args.add(new InputVariables.Arg.Given(
                            n, v, file.declared().get(n).range()));
                }
            });
            args.addAll(testDirVarFiles());
            for (InputVariables.Arg a : settings.variables()) {
                // Global variables the module does not declare are for the test files' expressions only.
                if (!(a instanceof InputVariables.Arg.Var v) || declared.containsKey(name(v))) {
                    args.add(a);
                }
            }
            for (String name : declared.keySet()) {
                dev.strata.hcl.Attribute a = run.variables().get(name);
                Result<Value> v =
                        a != null ? vars.evaluate(a) : file.variables().containsKey(name) ? vars.value(name) : null;
                if (v == null) {
                    continue;
                }
                diags.addAll(v.diagnostics());
                if (v.hasErrors()) {
                    return Result.of(null, diags.build());
                }
                var range = (a != null ? a : file.variables().get(name)).expr().range();
                args.add(new InputVariables.Arg.Given(name, v.value(), range));
            }
            Result<InputVariables.Read> r = InputVariables.read(tree.root().module(), dir, env, args, null, false);
            for (Diagnostic d : withoutUndeclaredWarnings(r.diagnostics())) {
                diags.add(forTheRun(d, run, declared));
            }
            return Result.of(r.value(), diags.build());
        }

        /** A required variable without a value, in the words of Terraform's test command (naming the run). */
        private static Diagnostic forTheRun(
                Diagnostic d, TestFile.Run run, java.util.Map<String, dev.strata.config.VariableConfig> declared) {
            if (!d.summary().equals("No value for required variable")) {
                return d;
            }
            for (var v : declared.values()) {
                if (v.declRange().equals(d.subject())) {
                    return d.withDetail("The module under test for run block \"" + run.name()
                            + "\" has a required variable \"" + v.name() + "\" with no set value. Use a -var or "
                            + "-var-file command line argument or add this variable into a \"variables\" block "
                            + "within the test file or run block.");
                }
            }
            return d;
        }

        private static String name(InputVariables.Arg.Var v) {
            int eq = v.raw().indexOf('=');
            return eq <= 0 ? "" : v.raw().substring(0, eq).strip();
        }

        /** {@code terraform.tfvars} and {@code *.auto.tfvars} in the test directory, as Terraform reads them. */
        private List<InputVariables.Arg> testDirVarFiles() {
            List<InputVariables.Arg> out = new ArrayList<>();
            String prefix = Path.of(settings.testDirectory()).normalize().toString();
            Path td = dir.resolve(prefix);
            if (prefix.isEmpty() || !Files.isDirectory(td)) {
                return out;
            }
            for (String n : List.of("terraform.tfvars", "terraform.tfvars.json")) {
                if (Files.isRegularFile(td.resolve(n))) {
                    out.add(new InputVariables.Arg.VarFile(prefix + "/" + n));
                }
            }
            try (Stream<Path> s = Files.list(td)) {
                s.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".auto.tfvars") || n.endsWith(".auto.tfvars.json"))
                        .sorted()
                        .forEach(n -> out.add(new InputVariables.Arg.VarFile(prefix + "/" + n)));
            } catch (IOException e) {
                // Unreadable: the files in it are reported when the runs read them.
            }
            return out;
        }

        /**
         * The values {@code var.NAME} has in test files: {@code -var} options (read as expressions where
         * they parse, else as strings) and {@code TF_VAR_} variables.
         */
        private Map<String, Value> globals() {
            Map<String, Value> out = new TreeMap<>(declaredDefaults());
            for (var e : new TreeMap<>(env).entrySet()) {
                if (e.getKey().startsWith("TF_VAR_")) {
                    out.put(e.getKey().substring(7), Value.string(e.getValue()));
                }
            }
            for (String f : rootVarFiles()) {
                readVarFile(dir.resolve(f), out);
            }
            for (InputVariables.Arg a : testDirVarFiles()) {
                readVarFile(dir.resolve(((InputVariables.Arg.VarFile) a).path()), out);
            }
            for (InputVariables.Arg a : settings.variables()) {
                switch (a) {
                    case InputVariables.Arg.Var v -> {
                        int eq = v.raw().indexOf('=');
                        if (eq > 0) {
                            out.put(
                                    v.raw().substring(0, eq).strip(),
                                    cliValue(v.raw().substring(eq + 1)));
                        }
                    }
                    case InputVariables.Arg.VarFile f -> readVarFile(dir.resolve(f.path()), out);
                    case InputVariables.Arg.Given g -> out.put(g.name(), g.value());
                }
            }
            return out;
        }

        /** The defaults of the file's {@code variable} blocks (constant expressions). */
        private Map<String, Value> declaredDefaults() {
            Map<String, Value> out = new TreeMap<>();
            file.declared().forEach((n, e) -> {
                Result<Value> v = new Evaluator(Scope.empty(TestVariables.FUNCTIONS)).evaluate(e);
                if (!v.hasErrors()) {
                    out.put(n, v.value());
                }
            });
            return out;
        }

        /** {@code terraform.tfvars} and {@code *.auto.tfvars} (and their JSON forms) of the configuration directory. */
        private List<String> rootVarFiles() {
            List<String> out = new ArrayList<>();
            for (String n : List.of("terraform.tfvars", "terraform.tfvars.json")) {
                if (Files.isRegularFile(dir.resolve(n))) {
                    out.add(n);
                }
            }
            try (Stream<Path> s = Files.list(dir)) {
                s.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".auto.tfvars") || n.endsWith(".auto.tfvars.json"))
                        .sorted()
                        .forEach(out::add);
            } catch (IOException e) {
                // The engine's own reading of these files reports the problem.
            }
            return out;
        }

        /**
         * The values a variables file sets, whether the module declares them or not: test files may refer
         * to any of them. Problems in the file are the variable resolution's to report.
         */
        private void readVarFile(Path f, Map<String, Value> into) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(f);
            } catch (IOException e) {
                return;
            }
            String n = f.getFileName().toString();
            var parsed = n.endsWith(".json")
                    ? dev.strata.hcl.json.JsonSyntax.parse(bytes, n)
                    : NativeSyntax.parseConfig(bytes, n);
            if (parsed.value() == null || parsed.hasErrors()) {
                return;
            }
            var attrs = parsed.value().body().justAttributes();
            if (attrs.value() == null) {
                return;
            }
            for (var a : new TreeMap<>(attrs.value()).values()) {
                Result<Value> v = new Evaluator(Scope.empty(TestVariables.FUNCTIONS)).evaluate(a.expr());
                if (!v.hasErrors()) {
                    into.put(a.name(), v.value());
                }
            }
        }

        private Value cliValue(String text) {
            Result<dev.strata.hcl.syntax.Expr> e = NativeSyntax.parseExpression(
                    text.getBytes(StandardCharsets.UTF_8), "<value>", dev.strata.hcl.SourcePos.START);
            if (!e.hasErrors() && e.value() != null && e.value().variables().isEmpty()) {
                Result<Value> v = new Evaluator(Scope.empty(TestVariables.FUNCTIONS)).evaluate(e.value());
                if (!v.hasErrors()) {
                    return v.value();
                }
            }
            return Value.string(text);
        }

        /** Destroys every state of the file, the one used last first; false when something was left. */
        private boolean cleanup() {
            boolean clean = true;
            List<StateEntry> order = new ArrayList<>(states.values());
            order.sort((a, b) -> Integer.compare(b.lastIndex, a.lastIndex));
            for (StateEntry e : order) {
                if (e.state.state().isEmpty() || e.lastRun == null || e.engine == null) {
                    continue;
                }
                PlanOptions options = PlanOptions.defaults(dir);
                options = new PlanOptions(
                        dir, dir, "default", PlanMode.DESTROY, true, List.of(), List.of(), options.parallelism());
                Diagnostics.Builder diags = Diagnostics.builder();
                Result<Plan> plan = e.engine.plan(e.lastVariables, e.state.state(), options, EngineEvents.NONE);
                diags.addAll(plan.diagnostics());
                if (plan.value() != null) {
                    Result<ApplyResult> r = e.engine.apply(plan.value(), e.state, options, EngineEvents.NONE);
                    diags.addAll(r.diagnostics());
                }
                // As Terraform's cleanup, only what went wrong is shown: the warnings a destroy plan makes
                // (failed check blocks of objects going away) are not.
                Diagnostics d = Diagnostics.of(diags.build().asList().stream()
                        .filter(Diagnostic::isError)
                        .toList());
                List<String> left = new ArrayList<>();
                for (var rs : e.state.state().resources()) {
                    if (rs.mode() != dev.strata.addr.ResourceMode.MANAGED) {
                        continue;
                    }
                    for (ResourceInstanceObject o : rs.instances()) {
                        left.add(rs.addr().instance(o.key()).toString()
                                + (o.isDeposed() ? " (deposed object " + o.deposed() + ")" : ""));
                    }
                }
                if (d.hasErrors() || !left.isEmpty()) {
                    clean = false;
                    view.cleanupFailed(file.name(), e.lastRun.name(), left, d, sources);
                } else if (!d.isEmpty()) {
                    view.diagnostics(file.name(), e.lastRun.name(), d, sources);
                }
            }
            return clean;
        }
    }

    private static final String CHECK_FAILED = "Check block assertion failed";

    private static final String CHECK_UNKNOWN = "Check block assertion known after apply";

    private static boolean isUnknownCheck(Diagnostic d) {
        return !d.isError() && d.summary().equals(CHECK_UNKNOWN);
    }

    private static boolean hasCheckFailures(Diagnostics d) {
        return d.asList().stream().anyMatch(x -> !x.isError() && x.summary().equals(CHECK_FAILED));
    }

    /** In a test, a failed check block fails the run (unless expected): its warning becomes an error. */
    private static Diagnostics checksAsErrors(Diagnostics d) {
        return Diagnostics.of(d.asList().stream()
                .map(x -> !x.isError() && (x.summary().equals(CHECK_FAILED) || isUnknownCheck(x))
                        ? Diagnostic.error(x.summary(), x.detail(), x.subject(), x.context())
                                .withValues(isUnknownCheck(x) ? x.values() : List.of())
                        : x)
                .toList());
    }

    private static Diagnostics withoutChecks(Diagnostics d) {
        return Diagnostics.of(d.asList().stream()
                .filter(x -> x.isError() || !(x.summary().equals(CHECK_FAILED) || isUnknownCheck(x)))
                .toList());
    }

    /** As Terraform, a test file's variables the module does not declare are not worth a warning. */
    private static Diagnostics withoutUndeclaredWarnings(Diagnostics d) {
        return Diagnostics.of(d.asList().stream()
                .filter(x -> x.isError() || !x.summary().startsWith("Value for undeclared variable"))
                .toList());
    }

    /** The sources diagnostics are rendered with: the test files and every configuration loaded. */
    static final class SourceFiles implements DiagnosticRenderer.Sources {
        private final Map<String, byte[]> files = new HashMap<>();
        /** The values of the references of failed assertions, by their diagnostic. */
        private final Map<dev.strata.hcl.Diagnostic, List<String>> values =
                new java.util.concurrent.ConcurrentHashMap<>();

        void values(dev.strata.hcl.Diagnostic d, List<String> lines) {
            if (!lines.isEmpty()) {
                values.put(d, List.copyOf(lines));
            }
        }

        /** The value lines shown under {@code d}'s snippet; empty for most diagnostics. */
        List<String> values(dev.strata.hcl.Diagnostic d) {
            return values.getOrDefault(d, List.of());
        }

        /** What failed comparison assertions show instead of their reference values, by their diagnostic. */
        private final Map<dev.strata.hcl.Diagnostic, AssertionComparison.Shown> comparisons =
                new java.util.concurrent.ConcurrentHashMap<>();

        void comparison(dev.strata.hcl.Diagnostic d, AssertionComparison.Shown shown) {
            comparisons.put(d, shown);
        }

        /** The comparison lines shown under {@code d}'s snippet ({@link AssertionComparison}); mostly empty. */
        List<String> comparison(dev.strata.hcl.Diagnostic d) {
            AssertionComparison.Shown s = comparisons.get(d);
            return s == null ? List.of() : s.lines();
        }

        /**
         * The reference lines the human output shows under {@code d}'s snippet: its values, or
         * beside a comparison only the whole values {@code -verbose} lists, as Terraform does.
         */
        List<String> shownValues(dev.strata.hcl.Diagnostic d) {
            AssertionComparison.Shown s = comparisons.get(d);
            return s == null ? values(d) : s.references();
        }

        private final List<DiagnosticRenderer.Sources> trees = new ArrayList<>();

        void add(String name, byte[] bytes) {
            files.put(name, bytes);
        }

        void add(ConfigTree tree) {
            if (tree != null) {
                trees.add(tree.diagnosticSources());
            }
        }

        private final Map<String, dev.strata.hcl.Body> bodies = new HashMap<>();

        /** A test file's body, so that a diagnostic's header names its block ({@code in run "x"}). */
        @Override
        public synchronized dev.strata.hcl.Body body(String filename) {
            byte[] b = files.get(filename);
            if (b != null) {
                return bodies.computeIfAbsent(filename, n -> {
                    var parsed = n.endsWith(".json")
                            ? dev.strata.hcl.json.JsonSyntax.parse(b, n)
                            : NativeSyntax.parseConfig(b, n);
                    return parsed.value() == null ? null : parsed.value().body();
                });
            }
            for (DiagnosticRenderer.Sources s : trees) {
                dev.strata.hcl.Body body = s.body(filename);
                if (body != null) {
                    return body;
                }
            }
            return null;
        }

        @Override
        public byte[] bytes(String filename) {
            byte[] b = files.get(filename);
            if (b != null) {
                return b;
            }
            for (DiagnosticRenderer.Sources s : trees) {
                b = s.bytes(filename);
                if (b != null) {
                    return b;
                }
            }
            return null;
        }
    }
}
