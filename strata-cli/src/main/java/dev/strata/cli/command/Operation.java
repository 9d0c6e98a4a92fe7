package dev.strata.cli.command;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.Targetable;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.View;
import dev.strata.config.ConfigTree;
import dev.strata.config.InputVariables;
import dev.strata.config.ModuleConfig;
import dev.strata.config.VariableOrigins;
import dev.strata.engine.Engine;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.ProviderSource;
import dev.strata.state.Backend;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/**
 * What plan, apply, destroy and refresh share: their flags, loading and validating the
 * configuration, the input variables, the backend with the selected workspace locked, and the
 * providers. Every step reports its problems through the view and returns null on errors.
 */
final class Operation {
    final FlagSet flags;
    final Flag<List<String>> var;
    final Flag<List<String>> varFile;
    final Flag<List<String>> target;
    final Flag<List<String>> exclude;
    final Flag<List<String>> replace;
    final Flag<Boolean> refresh;
    final Flag<Integer> parallelism;
    final Flag<Boolean> input;
    final Flag<Boolean> compactWarnings;
    final LockFlags lock;
    final LegacyStatePaths legacy;

    Operation(FlagSet flags) {
        this.flags = flags;
        var = flags.repeated(
                "var",
                "'foo=bar'",
                "Set a value for one of the input variables in the root module of "
                        + "the configuration. Use this option more than once to set more than one variable.");
        varFile = flags.repeated(
                "var-file",
                "FILENAME",
                "Load variable values from the given file, in addition to "
                        + "the default files terraform.tfvars and *.auto.tfvars. Use this option more than once to include "
                        + "more than one variables file.");
        target = flags.repeated(
                "target",
                "ADDRESS",
                "Limit the planning operation to only the given module, "
                        + "resource, or resource instance and all of its dependencies. You can use this option multiple times "
                        + "to include more than one object. This is for exceptional use only.");
        exclude = flags.repeated(
                "exclude",
                "ADDRESS",
                "Leave the given module, resource, or resource instance and everything "
                        + "that depends on it out of the planning operation (the opposite of -target, as in OpenTofu). "
                        + "You can use this option multiple times to exclude more than one object. This is for "
                        + "exceptional use only, and cannot be used together with -target.");
        replace = flags.repeated(
                "replace",
                "ADDRESS",
                "Force replacement of a particular resource instance using its "
                        + "resource address. If the plan would've normally produced an update or no-op action for this "
                        + "instance, Strata will plan to replace it instead. You can use this option multiple times to "
                        + "replace more than one object.");
        refresh = flags.bool(
                "refresh",
                true,
                "Skip checking for external changes to remote objects while creating "
                        + "the plan. This can potentially make planning faster, but at the expense of possibly planning "
                        + "against a stale record of the remote system state.");
        parallelism = flags.integer(
                "parallelism", 10, "N", "Limit the number of concurrent operations. Defaults " + "to 10.");
        input = flags.bool("input", true, "Ask for input for variables if not directly set.");
        compactWarnings = flags.bool(
                "compact-warnings",
                false,
                "If Strata produces any warnings that are not accompanied by errors, show them in a more compact "
                        + "form that includes only the summary messages.");
        lock = new LockFlags(flags);
        legacy = new LegacyStatePaths(flags);
    }

    /** The context the command's views are made for: {@code -compact-warnings} decides how warnings look. */
    CommandContext presentation(CommandContext context, ParsedArgs args) {
        return context.withCompactWarnings(args.get(compactWarnings));
    }

    /**
     * A configuration loaded and validated, its input variables' values, and its engine; {@code warnings}
     * are what loading them found short of an error (undeclared variables in {@code .tfvars} files,
     * configuration warnings), which Terraform shows with the operation's own diagnostics, after the plan.
     */
    record Loaded(
            ConfigTree tree,
            SortedMap<String, Value> variables,
            VariableOrigins origins,
            DiagnosticRenderer.Sources sources,
            Engine engine,
            Diagnostics warnings) {}

    /**
     * Loads and validates the configuration in the working directory, builds its engine and resolves
     * the input variables; for a saved plan ({@code savedPlan}) a required variable no source sets is
     * not asked for nor an error, because the plan holds its value.
     */
    Loaded load(CommandContext context, ParsedArgs args, View view, boolean savedPlan) {
        Result<ConfigTree> tree = OperationRunner.loadTree(context);
        DiagnosticRenderer.Sources sources =
                dev.strata.cli.view.FileSources.over(tree.value().diagnosticSources(), context.workingDir());
        Engine engine = OperationRunner.engine(context, tree.value());
        List<InputVariables.Arg> vars = new ArrayList<>();
        for (ParsedArgs.Occurrence o : args.occurrences()) {
            if (o.flag().equals(var)) {
                vars.add(new InputVariables.Arg.Var(o.value()));
            } else if (o.flag().equals(varFile)) {
                vars.add(new InputVariables.Arg.VarFile(o.value()));
            }
        }
        Diagnostics diags = devOverrides(context).with(tree.diagnostics());
        if (!diags.hasErrors()) {
            // As Terraform: a dependency lock file that does not parse stops the operation, even one that
            // needs no provider from it.
            Diagnostics lock = ProviderSetup.readLock(context.workingDir()).diagnostics();
            if (lock.hasErrors()) {
                diags = diags.with(lock);
            } else {
                Diagnostics invalid = engine.checkConfig();
                if (invalid.hasErrors()) {
                    // Terraform has read the variables' values by the time it validates, so the warnings
                    // about values for undeclared variables come with the configuration's errors.
                    diags = diags.with(undeclaredVariables(tree.value(), context, vars));
                }
                diags = diags.with(invalid);
            }
        }
        if (diags.hasErrors()) {
            view.diagnostics(diags, sources);
            return null;
        }
        // Missing required variables are asked for on a terminal unless -input=false (or TF_INPUT=0). The
        // walk checks the values against their declarations; a saved plan's are checked here, as it has no
        // walk that evaluates them.
        Result<InputVariables.Read> values = savedPlan
                ? InputVariables.resolveAllowingUnset(
                                tree.value().root().module(), context.workingDir(), context.env(), vars)
                        .map(v -> new InputVariables.Read(v, VariableOrigins.NONE))
                : InputVariables.read(
                        tree.value().root().module(),
                        context.workingDir(),
                        context.env(),
                        vars,
                        dev.strata.cli.view.TerminalPrompter.forCommand(context, args.get(input))
                                .orElse(null),
                        false);
        diags = diags.with(values.diagnostics());
        if (diags.hasErrors()) {
            view.diagnostics(diags, sources);
            return null;
        }
        // Providers may log what their APIs return; secret inputs are cleaned from those lines.
        values.value().values().values().forEach(dev.strata.tfplugin.LogRedactor::rememberEverywhere);
        return new Loaded(tree.value(), values.value().values(), values.value().origins(), sources, engine, diags);
    }

    /** The warnings about values given for variables the root module does not declare; nothing is asked. */
    private static Diagnostics undeclaredVariables(
            ConfigTree tree, CommandContext context, List<InputVariables.Arg> vars) {
        Diagnostics found = InputVariables.resolveAllowingUnset(
                        tree.root().module(), context.workingDir(), context.env(), vars)
                .diagnostics();
        return Diagnostics.of(found.asList().stream()
                .filter(d -> !d.isError() && d.summary().startsWith("Value"))
                .toList());
    }

    /** What a command that needs configuration is about to do, for the message when there is none. */
    enum Needs {
        PLAN,
        APPLY,
        IMPORT
    }

    /**
     * Terraform's guard against an empty working directory: without a single {@code .tf} or
     * {@code .tf.json} file every object in the state would be planned for destruction, so plan and
     * apply (other than destroy mode) and import refuse. Reports and returns false when the root
     * module has no configuration files.
     */
    static boolean checkConfigPresent(CommandContext context, Loaded loaded, Needs needs, View view) {
        if (!loaded.tree().root().module().files().isEmpty()) {
            return true;
        }
        view.diagnostics(List.of(
                switch (needs) {
                    case PLAN ->
                        CliDiagnostic.error(
                                "No configuration files",
                                "Plan requires configuration to be present. "
                                        + "Planning without a configuration would mark everything for destruction, which is normally not "
                                        + "what is desired. If you would like to destroy everything, run plan with the -destroy option. "
                                        + "Otherwise, create a Strata configuration file (.tf file) and try again.");
                    case APPLY ->
                        CliDiagnostic.error(
                                "No configuration files",
                                "Apply requires configuration to be present. "
                                        + "Applying without a configuration would mark everything for destruction, which is normally not "
                                        + "what is desired. If you would like to destroy everything, run 'strata destroy' instead.");
                    case IMPORT ->
                        CliDiagnostic.error(
                                "No configuration files",
                                "The directory " + context.workingDir()
                                        + " does not contain any configuration files (.tf or .tf.json). Import needs the resource block "
                                        + "of the address it imports to; to use the configuration in another directory, run strata "
                                        + "with the global -chdir option.");
                }));
        return false;
    }

    /** The options from the flags; null after reporting a malformed address. */
    PlanOptions options(CommandContext context, ParsedArgs args, PlanMode mode, String workspace, View view) {
        List<CliDiagnostic> problems = new ArrayList<>();
        List<Targetable> targets = new ArrayList<>();
        for (String t : args.get(target)) {
            Result<Targetable> r = Addrs.parseTarget(t);
            if (r.value() == null) {
                problems.add(CliDiagnostic.error(
                        "Invalid target \"" + t + "\"",
                        firstDetail(
                                r.diagnostics(),
                                "The address must name a module, resource or resource instance, such as aws_instance.web or "
                                        + "module.net.aws_subnet.a[0].")));
            } else {
                targets.add(r.value());
            }
        }
        List<Targetable> excludes = new ArrayList<>();
        for (String t : args.get(exclude)) {
            Result<Targetable> r = Addrs.parseTarget(t);
            if (r.value() == null) {
                problems.add(CliDiagnostic.error(
                        "Invalid exclude \"" + t + "\"",
                        firstDetail(
                                r.diagnostics(),
                                "The address must name a module, resource or resource instance, such as aws_instance.web or "
                                        + "module.net.aws_subnet.a[0].")));
            } else {
                excludes.add(r.value());
            }
        }
        if (!args.get(target).isEmpty() && !args.get(exclude).isEmpty()) {
            problems.add(CliDiagnostic.error(
                    "Invalid combination of arguments",
                    "The -target and -exclude options cannot be used together: -target names what to plan and "
                            + "-exclude what to leave out. Use one of them."));
        }
        List<AbsResourceInstance> replaces = new ArrayList<>();
        for (String t : args.get(replace)) {
            Result<AbsResourceInstance> r = Addrs.parseAbsResourceInstance(t);
            if (r.value() == null) {
                problems.add(CliDiagnostic.error(
                        "Invalid replace address \"" + t + "\"",
                        firstDetail(
                                r.diagnostics(),
                                "The address must name a resource instance, such as aws_instance.web[0].")));
            } else {
                replaces.add(r.value());
            }
        }
        int par = args.get(parallelism);
        if (par < 1) {
            problems.add(CliDiagnostic.error(
                    "Invalid -parallelism value",
                    "The value must be a whole number of at " + "least 1; got " + par + "."));
        }
        view.diagnostics(problems);
        if (!problems.isEmpty()) {
            return null;
        }
        boolean doRefresh = args.get(refresh);
        return new PlanOptions(
                context.workingDir(), context.startDir(), workspace, mode, doRefresh, targets, excludes, replaces, par);
    }

    /**
     * Terraform's warnings for a plan narrowed by {@code -target} (or {@code -exclude}): part of the plan's own
     * diagnostics, so shown after the plan (after an apply's progress), not before it.
     */
    static Diagnostics narrowed(PlanOptions options) {
        List<dev.strata.hcl.Diagnostic> ds = new ArrayList<>();
        if (!options.targets().isEmpty()) {
            ds.add(narrowedWarning("Resource targeting is in effect", "-target"));
        }
        if (!options.excludes().isEmpty()) {
            ds.add(narrowedWarning("Resource exclusion is in effect", "-exclude"));
        }
        return Diagnostics.of(ds);
    }

    private static dev.strata.hcl.Diagnostic narrowedWarning(String summary, String flag) {
        return dev.strata.hcl.Diagnostic.warning(
                summary,
                "You are creating a plan with the " + flag + " option, which means that the result of this plan may "
                        + "not represent all of the changes requested by the current configuration.\n\nThe " + flag
                        + " option is not for routine use, and is provided only for exceptional situations such as "
                        + "recovering from errors or mistakes, or when Strata specifically suggests to use it as part "
                        + "of an error message.",
                null);
    }

    /** Terraform's last warning after applying a narrowed plan (also a saved one): other changes may be pending. */
    static Diagnostics appliedIncomplete(PlanOptions options) {
        String flag =
                !options.targets().isEmpty() ? "-target" : !options.excludes().isEmpty() ? "-exclude" : null;
        if (flag == null) {
            return Diagnostics.NONE;
        }
        return Diagnostics.of(dev.strata.hcl.Diagnostic.warning(
                "Applied changes may be incomplete",
                "The plan was created with the " + flag + " option in effect, so some changes requested in the "
                        + "configuration may have been ignored and the output values may not be fully updated. Run the "
                        + "following command to verify that no other changes are pending:\n    strata plan\n\nNote that "
                        + "the " + flag
                        + " option is not suitable for routine use, and is provided only for exceptional "
                        + "situations such as recovering from errors or mistakes, or when Strata specifically suggests "
                        + "to use it as part of an error message.",
                null));
    }

    private static String firstDetail(Diagnostics d, String fallback) {
        return d.asList().isEmpty()
                ? fallback
                : d.asList().getFirst().summary() + ": " + d.asList().getFirst().detail();
    }

    /** A workspace's state, opened with its lock. */
    record Opened(StateManager state, String workspace) {}

    /**
     * Opens the workspace's state with the lock the flags ask for (none when {@code operation} is null);
     * problems (and warnings) with their snippets. Null when it cannot be opened; the lock is recorded as held by {@code signals}.
     * {@code root} is the root module the operation loaded, which names the backend and the state's encryption.
     */
    Opened openState(
            CommandContext context,
            ModuleConfig root,
            ParsedArgs args,
            String operation,
            View view,
            DiagnosticRenderer.Sources sources,
            Interrupts signals) {
        LegacyStatePaths.Paths paths = legacy.parse(args).value();
        if (!paths.state().isEmpty()) {
            // Terraform 1.11's words: plan, apply and refresh warn about -state (not the other two).
            view.diagnostics(
                    List.of(
                            CliDiagnostic.warning(
                                    "Deprecated flag: -state",
                                    "Use `path` attribute within the `local` backend instead:\n"
                                            + "https://developer.hashicorp.com/terraform/language/v1.10.x/settings/backends/local#path")));
        }
        Result<Backend> backend = LegacyStatePaths.backend(context, paths, false, root);
        view.diagnostics(backend.diagnostics(), sources);
        List<CliDiagnostic> problems = new ArrayList<>();
        Parsed<String> ws = backend.value() == null ? new Parsed<>(null, List.of()) : StateCli.workspace(context);
        problems.addAll(ws.diagnostics());
        // No operation: the state is only read, so no lock is taken (and the lock flags do not apply).
        Parsed<LockRequest> req = operation == null ? Parsed.of(LockRequest.none()) : lock.parse(args, operation);
        problems.addAll(req.diagnostics());
        view.diagnostics(problems);
        if (backend.value() == null || ws.hasErrors() || ws.value() == null || req.hasErrors()) {
            return null;
        }
        Result<StateManager> r = backend.value().open(ws.value(), req.value());
        view.diagnostics(r.diagnostics(), sources);
        return r.value() == null ? null : new Opened(signals.holding(r.value()), ws.value());
    }

    /**
     * The pre-flight check of a command about to change infrastructure: every file the state will be
     * written to (the state, its backup, the journal, their directory) must be writable now, so that
     * no object is created that the state then cannot record. Reports and returns false otherwise.
     */
    static boolean checkStateWritable(StateManager state, View view, DiagnosticRenderer.Sources sources) {
        Diagnostics problems = state.checkWritable();
        view.diagnostics(problems, sources);
        return !problems.hasErrors();
    }

    /** Terraform's warning when the CLI configuration's {@code dev_overrides} replace installed providers. */
    static Diagnostics devOverrides(CommandContext context) {
        var overrides = dev.strata.tfplugin.InstalledProviders.forWorkingDirectory(context.workingDir(), context.env())
                .devOverrides();
        if (overrides.isEmpty()) {
            return Diagnostics.NONE;
        }
        StringBuilder list = new StringBuilder();
        overrides.forEach((a, dir) ->
                list.append("\n - ").append(a.forDisplay()).append(" in ").append(dir));
        return Diagnostics.of(dev.strata.hcl.Diagnostic.warning(
                "Provider development overrides are in effect",
                "The following provider development overrides are set in the CLI configuration:" + list
                        + "\n\nThe behavior may therefore not match any released version of the provider and applying "
                        + "changes may cause the state to become incompatible with published releases.",
                null));
    }

    /**
     * The providers this build can run: the built-ins (found on the class path) for their own addresses,
     * then the Terraform providers {@code strata init} installed for the working directory.
     */
    static ProviderSource providers(CommandContext context) {
        // Loading the registry searches every jar of the class path for services (tens of milliseconds
        // of a small command's start); a command that never starts a provider (a console expression
        // without provider functions, show of an empty state) does not pay it.
        var chain = new java.util.concurrent.atomic.AtomicReference<ProviderSource>();
        return (address, constraints) -> {
            ProviderSource c = chain.get();
            if (c == null) {
                chain.compareAndSet(
                        null,
                        ProviderSource.chain(
                                ProviderRegistry.load(Operation.class.getClassLoader()),
                                dev.strata.tfplugin.InstalledProviders.forWorkingDirectory(
                                        context.workingDir(), context.env())));
                c = chain.get();
            }
            return c.resolve(address, constraints);
        };
    }
}
