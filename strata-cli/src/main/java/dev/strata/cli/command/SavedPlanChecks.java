package dev.strata.cli.command;

import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.json.JsonSyntax;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * {@code apply PLANFILE} applies exactly the reviewed plan, so every input that would have changed
 * the plan must agree with it: a {@code -var} or {@code -var-file} value that differs from the
 * planned one is an error (as in Terraform; an equal one is accepted), a differing {@code TF_VAR_}
 * or {@code .tfvars} value is a warning that it is ignored, and planning options ({@code -target}, {@code -exclude},
 * {@code -replace}, {@code -destroy}, {@code -refresh}) that differ from the plan's are errors.
 * Terraform ignores those options silently; quietly applying something other than what the command
 * line asks for is what this check exists to prevent.
 */
final class SavedPlanChecks {
    private SavedPlanChecks() {}

    /** Where a variable's value on the command line came from: the last {@code -var} or {@code -var-file} setting it. */
    private record CliSetting(boolean file, SourceRange range) {}

    static Diagnostics check(
            CommandContext context,
            ParsedArgs args,
            Operation op,
            Operation.Loaded loaded,
            String planFile,
            Plan plan,
            PlanOptions planned,
            Flag<Boolean> destroyFlag,
            Flag<Boolean> refreshOnlyFlag) {
        Diagnostics.Builder out = Diagnostics.builder();
        Map<String, CliSetting> cli = cliSettings(context, args, op);
        for (Map.Entry<String, CliSetting> e : cli.entrySet()) {
            Value was = plan.variables().get(e.getKey());
            Value now = loaded.variables().get(e.getKey());
            if (was == null || now == null || now.equalsIgnoringMarks(was) || was.hasMark(Mark.EPHEMERAL)) {
                continue;
            }
            boolean sensitive = sensitive(loaded, e.getKey());
            out.add(Diagnostic.error(
                    "Can't change variable when applying a saved plan",
                    "The variable "
                            + e.getKey()
                            + " cannot be set using the -var and -var-file options when applying a saved plan "
                            + "file, because a saved plan includes the variable values that were set when it was created. The "
                            + "saved plan specifies " + shown(was, sensitive)
                            + " as the value whereas during apply the value "
                            + shown(now, sensitive) + " was set by "
                            + (e.getValue().file()
                                    ? "a .tfvars file passed through -var-file argument"
                                    : "a CLI argument")
                            + ". Apply the plan "
                            + "without this option, or create a new plan with the new value.",
                    e.getValue().range()));
        }
        // Files override the environment (and -var options override both, checked above).
        Map<String, SourceRange> inFiles = new TreeMap<>();
        for (Path f : autoFiles(context.workingDir())) {
            inFiles.putAll(attributes(context, f));
        }
        for (Map.Entry<String, Value> e : new TreeMap<>(loaded.variables()).entrySet()) {
            String name = e.getKey();
            Value was = plan.variables().get(name);
            Value now = e.getValue();
            boolean env = context.getenv("TF_VAR_" + name) != null;
            if (cli.containsKey(name)
                    || !inFiles.containsKey(name) && !env
                    || was == null
                    || was.hasMark(Mark.EPHEMERAL)
                    || !now.isWhollyKnown()
                    || now.equalsIgnoringMarks(was)) {
                continue;
            }
            boolean sensitive = sensitive(loaded, name);
            out.add(Diagnostic.warning(
                    "Ignoring variable when applying a saved plan",
                    "The variable " + name
                            + " cannot be overridden when applying a saved plan file, because a saved plan includes the "
                            + "variable values that were set when it was created. The saved plan specifies "
                            + shown(was, sensitive)
                            + " as the value whereas during apply the value " + shown(now, sensitive) + " was set by "
                            + (inFiles.containsKey(name) ? "a variables file" : "an environment variable")
                            + ". The plan's value is used.",
                    inFiles.get(name)));
        }

        String file = planFile;
        if (args.isGiven(op.target)) {
            differs(
                    out,
                    file,
                    "-target",
                    new TreeSet<>(args.get(op.target)),
                    new TreeSet<>(
                            planned.targets().stream().map(Object::toString).toList()));
        }
        if (args.isGiven(op.exclude)) {
            differs(
                    out,
                    file,
                    "-exclude",
                    new TreeSet<>(args.get(op.exclude)),
                    new TreeSet<>(
                            planned.excludes().stream().map(Object::toString).toList()));
        }
        if (args.isGiven(op.replace)) {
            differs(
                    out,
                    file,
                    "-replace",
                    new TreeSet<>(args.get(op.replace)),
                    new TreeSet<>(
                            planned.replace().stream().map(Object::toString).toList()));
        }
        modeConflict(args, destroyFlag, "-destroy", "a destroy plan", PlanMode.DESTROY, plan, file, out);
        modeConflict(
                args, refreshOnlyFlag, "-refresh-only", "a refresh-only plan", PlanMode.REFRESH_ONLY, plan, file, out);
        if (args.isGiven(op.refresh) && args.get(op.refresh) != planned.refresh()) {
            out.add(Diagnostic.error(
                    "Option conflicts with the saved plan",
                    "This apply gives -refresh="
                            + args.get(op.refresh) + ", but " + file + " was created with -refresh=" + planned.refresh()
                            + ". Refreshing happens while planning; a saved plan is applied exactly as it was created. Create a "
                            + "new plan with strata plan -refresh=" + args.get(op.refresh)
                            + " -out=FILE, or apply without a "
                            + "plan file.",
                    null));
        }
        return out.build();
    }

    private static void differs(
            Diagnostics.Builder out, String file, String flag, TreeSet<String> given, TreeSet<String> planned) {
        if (given.equals(planned)) {
            return;
        }
        String plannedText = planned.isEmpty()
                ? "without " + flag + " options"
                : "with "
                        + String.join(
                                " ", planned.stream().map(p -> flag + "=" + p).toList());
        String givenText =
                String.join(" ", given.stream().map(g -> flag + "=" + g).toList());
        out.add(Diagnostic.error(
                "Option conflicts with the saved plan",
                "This apply gives " + givenText + ", but "
                        + file + " was created " + plannedText + ". A saved plan is applied exactly as it was created; "
                        + "create a new plan with strata plan " + givenText
                        + " -out=FILE, or apply without a plan file.",
                null));
    }

    /**
     * The plan with the values of its ephemeral input variables, which the plan file does not hold: they
     * must be given again to the apply. Diagnostics name each one set while planning but not now.
     */
    static Result<Plan> withEphemeralVariables(
            CommandContext context, ParsedArgs args, Operation op, Operation.Loaded loaded, Plan plan) {
        Diagnostics.Builder diags = Diagnostics.builder();
        // A declaration's default is no value given: the plan had one, the apply must be given one too.
        java.util.Set<String> given =
                new java.util.TreeSet<>(cliSettings(context, args, op).keySet());
        for (Path f : autoFiles(context.workingDir())) {
            given.addAll(attributes(context, f).keySet());
        }
        java.util.SortedMap<String, Value> vars = new TreeMap<>(plan.variables());
        for (Map.Entry<String, Value> e : plan.variables().entrySet()) {
            dev.strata.config.VariableConfig vc =
                    loaded.tree().root().module().variables().get(e.getKey());
            if (vc == null || !vc.ephemeral()) {
                continue;
            }
            Value now = loaded.variables().get(e.getKey());
            boolean setAtPlan =
                    e.getValue().hasMark(Mark.EPHEMERAL) && !e.getValue().isKnown();
            boolean givenNow = given.contains(e.getKey()) || context.getenv("TF_VAR_" + e.getKey()) != null;
            if (setAtPlan && (now == null || !now.isKnown() || !givenNow)) {
                diags.add(Diagnostic.error(
                        "No value for required variable",
                        "The ephemeral input variable \"" + e.getKey() + "\" was set during the plan phase, and so "
                                + "must also be set during the apply phase.",
                        null));
                continue;
            }
            vars.put(e.getKey(), dev.strata.config.InputVariables.marked(vc, setAtPlan ? now : e.getValue()));
        }
        if (diags.hasErrors()) {
            return Result.of(null, diags.build());
        }
        return Result.of(
                new Plan(
                        plan.mode(),
                        plan.priorState(),
                        vars,
                        plan.changes(),
                        plan.drift(),
                        plan.deferred(),
                        plan.outputs(),
                        plan.targets(),
                        plan.diagnostics(),
                        plan.timestamp(),
                        plan.relevantAttributes()),
                diags.build());
    }

    private static boolean sensitive(Operation.Loaded loaded, String variable) {
        var vc = loaded.tree().root().module().variables().get(variable);
        return vc != null && vc.sensitive();
    }

    /** A value as a message quotes it; never a sensitive one. */
    private static String shown(Value v, boolean sensitive) {
        return sensitive || v.hasMarkDeep(Mark.SENSITIVE) ? "(sensitive value)" : ConsoleFormat.render(v.unmarkDeep());
    }

    /** The variables the {@code -var} and {@code -var-file} options set, each with the last option setting it. */
    /** A planning mode flag given to the apply of a saved plan that says otherwise. */
    private static void modeConflict(
            ParsedArgs args,
            Flag<Boolean> flag,
            String name,
            String kind,
            PlanMode mode,
            Plan plan,
            String file,
            Diagnostics.Builder out) {
        if (flag == null || !args.isGiven(flag) || args.get(flag) == (plan.mode() == mode)) {
            return;
        }
        out.add(Diagnostic.error(
                "Option conflicts with the saved plan",
                "This apply gives " + name + "=" + args.get(flag) + ", but " + file + " is "
                        + (plan.mode() == mode ? kind : "not " + kind)
                        + ". A saved plan is applied exactly as it was created; create a new plan with strata plan"
                        + (args.get(flag) ? " " + name : "") + " -out=FILE, or apply without a plan file.",
                null));
    }

    private static Map<String, CliSetting> cliSettings(CommandContext context, ParsedArgs args, Operation op) {
        Map<String, CliSetting> out = new TreeMap<>();
        for (ParsedArgs.Occurrence o : args.occurrences()) {
            if (o.flag().equals(op.var)) {
                int eq = o.value().indexOf('=');
                if (eq > 0) {
                    out.put(o.value().substring(0, eq).strip(), new CliSetting(false, null));
                }
            } else if (o.flag().equals(op.varFile)) {
                attributes(context, context.resolve(o.value()))
                        .forEach((name, range) -> out.put(name, new CliSetting(true, range)));
            }
        }
        return out;
    }

    /** {@code terraform.tfvars}, {@code terraform.tfvars.json}, then the {@code *.auto.tfvars(.json)} files by name. */
    private static List<Path> autoFiles(Path dir) {
        List<Path> out = new ArrayList<>();
        for (String n : List.of("terraform.tfvars", "terraform.tfvars.json")) {
            if (Files.isRegularFile(dir.resolve(n))) {
                out.add(dir.resolve(n));
            }
        }
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".auto.tfvars")
                            || p.getFileName().toString().endsWith(".auto.tfvars.json"))
                    .sorted()
                    .forEach(out::add);
        } catch (IOException e) {
            // reported when the variables were loaded
        }
        return out;
    }

    /** The variables a {@code .tfvars} file sets, with their ranges; empty for a file that cannot be read or parsed. */
    private static Map<String, SourceRange> attributes(CommandContext context, Path file) {
        Map<String, SourceRange> out = new TreeMap<>();
        String name = context.workingDir().relativize(file).toString().replace('\\', '/');
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return out; // reported when the variables were loaded
        }
        Result<HclFile> parsed =
                name.endsWith(".json") ? JsonSyntax.parse(bytes, name) : NativeSyntax.parseConfig(bytes, name);
        if (parsed.value() == null) {
            return out;
        }
        Map<String, Attribute> attrs = parsed.value().body().justAttributes().value();
        if (attrs != null) {
            attrs.values().forEach(a -> out.put(a.name(), a.range()));
        }
        return out;
    }
}
