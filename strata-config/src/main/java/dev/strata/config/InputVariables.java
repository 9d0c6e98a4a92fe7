package dev.strata.config;

import dev.strata.addr.InputVariable;
import dev.strata.addr.Reference;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.json.JsonSyntax;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The values of the root module's input variables, from every source Terraform reads, with its
 * precedence (later wins): defaults, {@code TF_VAR_name} environment variables,
 * {@code terraform.tfvars}, {@code terraform.tfvars.json}, {@code *.auto.tfvars(.json)} in lexical
 * order, then {@code -var} and {@code -var-file} in command-line order. Each value is converted to the
 * declared type (optional attributes filled) and marked sensitive when declared so. For an operation that
 * walks the configuration ({@link #read}), the walk reports a value that does not convert and checks the
 * {@code validation} blocks, as Terraform's does; otherwise ({@link #resolve}: {@code console}) both are
 * reported here, with the rules that refer to input variables alone.
 *
 * <p>Values from the environment and {@code -var} are taken as literal strings when the variable's
 * type is primitive or not declared, and parsed as expressions otherwise, as Terraform does.
 * Undeclared variables: in files a warning, on the command line an error, in the environment
 * ignored. A required variable without a value is asked for when the caller passes a {@link Prompter}
 * (the CLI does when its input is a terminal and {@code -input} is true), and is an error otherwise.
 */
public final class InputVariables {
    private InputVariables() {}

    /** One {@code -var} or {@code -var-file} argument, kept in command-line order. */
    public sealed interface Arg {
        /** {@code -var 'name=value'}. */
        record Var(String raw) implements Arg {}

        /** {@code -var-file=path}. */
        record VarFile(String path) implements Arg {}

        /**
         * A value already evaluated elsewhere (a {@code variables} block of a {@code .tftest.hcl} file),
         * converted and validated like the others; {@code range} is the expression it came from. A name
         * the module does not declare is ignored, as {@code terraform test} ignores it.
         */
        record Given(String name, dev.strata.lang.value.Value value, SourceRange range) implements Arg {}
    }

    /**
     * A value before conversion: either a literal string or an expression, and where it came from; neither
     * for a value that did not parse (its errors are reported), which leaves the variable unset.
     */
    private record Raw(Value literal, Expression expr, SourceRange range, String origin) {}

    /**
     * @param root the root module
     * @param dir  the working directory, where {@code terraform.tfvars} and the {@code -var-file} paths are
     * @return values by name for every declared variable (unknown placeholders where there were errors)
     */
    public static Result<SortedMap<String, Value>> resolve(
            ModuleConfig root, Path dir, Map<String, String> env, List<Arg> args) {
        return resolve(root, dir, env, args, null);
    }

    /**
     * As {@link #resolve(ModuleConfig, Path, Map, List)}, and asks {@code prompter} (when not null) for
     * every required variable that no source set, in name order as Terraform asks; an answer is read
     * like a {@code -var} value. Without a prompter, or without an answer, such a variable is the error
     * "No value for required variable" at its declaration.
     */
    public static Result<SortedMap<String, Value>> resolve(
            ModuleConfig root, Path dir, Map<String, String> env, List<Arg> args, Prompter prompter) {
        return resolve(root, dir, env, args, prompter, false);
    }

    /**
     * As {@link #resolve(ModuleConfig, Path, Map, List)}, but a required variable that no source set is
     * an unknown value instead of an error, as {@code terraform console} treats it ("(known after
     * apply)").
     */
    public static Result<SortedMap<String, Value>> resolveAllowingUnset(
            ModuleConfig root, Path dir, Map<String, String> env, List<Arg> args) {
        return resolve(root, dir, env, args, null, true);
    }

    /**
     * The values as the engine's walk takes them, with their {@link VariableOrigins}: read and evaluated as
     * {@link #resolve(ModuleConfig, Path, Map, List, Prompter)} does (its errors are this result's), but
     * neither converted with errors reported here nor checked against their validation rules: as in
     * Terraform, the walk reports a value that does not suit its declaration (from {@link VariableOrigins})
     * and checks every rule, so that they stop only what uses the variable. A value that does not convert
     * is unknown. With {@code allowUnset}, a required variable no source sets is unknown (a saved plan
     * holds its value).
     */
    public static Result<Read> read(
            ModuleConfig root,
            Path dir,
            Map<String, String> env,
            List<Arg> args,
            Prompter prompter,
            boolean allowUnset) {
        SortedMap<String, SourceRange> ranges = new TreeMap<>();
        SortedMap<String, Diagnostics> problems = new TreeMap<>();
        Result<SortedMap<String, Value>> r = resolve(root, dir, env, args, prompter, allowUnset, ranges, problems);
        return Result.of(new Read(r.value(), new VariableOrigins(ranges, problems)), r.diagnostics());
    }

    /** The values {@link #read} found, by name, and where they came from. */
    public record Read(SortedMap<String, Value> values, VariableOrigins origins) {}

    private static Result<SortedMap<String, Value>> resolve(
            ModuleConfig root,
            Path dir,
            Map<String, String> env,
            List<Arg> args,
            Prompter prompter,
            boolean allowUnset) {
        Result<Read> read = read(root, dir, env, args, prompter, allowUnset);
        if (read.hasErrors()) {
            // As Terraform: values that could not all be read are not checked against their declarations.
            return Result.of(read.value().values(), read.diagnostics());
        }
        return Result.of(
                read.value().values(),
                read.diagnostics().with(check(root, dir, read.value())).inPlaceOrder());
    }

    /**
     * What an operation's walk would find wrong with {@code read}'s values, for a command that has no walk
     * ({@code console}): the values that do not suit their declarations, and the failures of the validation
     * rules that refer to input variables alone.
     */
    public static Diagnostics check(ModuleConfig root, Path dir, Read read) {
        Diagnostics.Builder diags = Diagnostics.builder();
        FunctionTable functions = TemplateFunctions.builtins(FunctionContext.system(dir));
        for (VariableConfig vc : root.variables().values()) {
            if (!read.values().containsKey(vc.name())) {
                continue; // a reading that failed early has no values
            }
            diags.addAll(read.origins().problems(vc.name()));
            validate(vc, read.values(), read.origins().range(vc.name()), functions, diags);
        }
        return diags.build().inPlaceOrder();
    }

    /** The values, each converted with its problems in {@code problems}, and where each was set. */
    private static Result<SortedMap<String, Value>> resolve(
            ModuleConfig root,
            Path dir,
            Map<String, String> env,
            List<Arg> args,
            Prompter prompter,
            boolean allowUnset,
            SortedMap<String, SourceRange> ranges,
            SortedMap<String, Diagnostics> problems) {
        Diagnostics.Builder diags = Diagnostics.builder();
        // The command line's and the environment's values that name no variable or do not parse.
        Diagnostics.Builder unparsed = Diagnostics.builder();
        Map<String, Raw> raw = new HashMap<>();
        Map<String, VariableConfig> vars = root.variables();

        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            if (e.getKey().startsWith("TF_VAR_")) {
                String name = e.getKey().substring(7);
                if (vars.containsKey(name)) {
                    raw.put(
                            name,
                            cliValue(
                                    vars.get(name),
                                    e.getValue(),
                                    "the " + e.getKey() + " environment variable",
                                    unparsed));
                }
            }
        }
        List<Path> files = new ArrayList<>();
        for (String n : List.of("terraform.tfvars", "terraform.tfvars.json")) {
            if (Files.isRegularFile(dir.resolve(n))) {
                files.add(dir.resolve(n));
            }
        }
        try (Stream<Path> s = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
            s.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.endsWith(".auto.tfvars") || n.endsWith(".auto.tfvars.json");
                    })
                    .sorted()
                    .forEach(files::add);
        } catch (IOException e) {
            diags.add(Diagnostic.error(
                    "Failed to read directory", "Could not list " + IoProblems.describe(dir, e) + ".", null));
        }
        List<Undeclared> undeclared = new ArrayList<>();
        for (Path f : files) {
            file(dir, f, vars, raw, undeclared, diags);
        }
        for (Arg a : args) {
            switch (a) {
                case Arg.Var v -> {
                    int eq = v.raw().indexOf('=');
                    if (eq <= 0) {
                        diags.add(Diagnostic.error(
                                "Invalid -var option",
                                "The given -var option \"" + v.raw()
                                        + "\" is not correctly specified. Must be a variable name and value separated by an "
                                        + "equals sign, like -var=\"key=value\".",
                                null));
                        continue;
                    }
                    String name = v.raw().substring(0, eq).strip();
                    VariableConfig vc = vars.get(name);
                    if (vc == null) {
                        unparsed.add(Diagnostic.error(
                                "Value for undeclared variable",
                                "A variable named \"" + name
                                        + "\" was assigned on the command line, but the root module does not declare a "
                                        + "variable of that name. To use this value, add a \"variable\" block to the "
                                        + "configuration." + dev.strata.hcl.DidYouMean.sentence(name, vars.keySet()),
                                null));
                        continue;
                    }
                    raw.put(name, cliValue(vc, v.raw().substring(eq + 1), "-var=\"" + name + "=...\"", unparsed));
                }
                case Arg.VarFile f -> {
                    Path p = dir.resolve(f.path());
                    if (!Files.exists(p)) {
                        diags.add(Diagnostic.error(
                                "Failed to read variables file",
                                "Given variables file " + f.path() + " does not exist.",
                                null));
                        continue;
                    }
                    file(dir, p, vars, raw, undeclared, diags);
                }
                case Arg.Given g -> {
                    if (vars.containsKey(g.name())) {
                        raw.put(g.name(), new Raw(g.value(), null, g.range(), "the test file"));
                    }
                }
            }
        }
        warnUndeclared(undeclared, diags);
        if (diags.hasErrors()) {
            // As Terraform: a variables file that cannot be read or does not parse, or a malformed -var, stops
            // the reading there: no required variable is asked for or reported missing.
            return Result.of(
                    Collections.emptySortedMap(),
                    diags.build().with(unparsed.build()).inPlaceOrder());
        }
        // A -var for an undeclared variable, or a value from the command line or the environment that does not
        // parse (its variable is then unset), does not: the values are still read and a missing one reported,
        // and the errors stop the command before any value is checked against its type or its rules.
        diags.addAll(unparsed.build());

        if (prompter != null) {
            for (VariableConfig vc : vars.values()) {
                if (vc.required() && !raw.containsKey(vc.name())) {
                    prompter.ask(vc)
                            .ifPresent(text -> raw.put(vc.name(), cliValue(vc, text, "an interactive prompt", diags)));
                }
            }
        }
        SortedMap<String, Value> out = new TreeMap<>();
        for (VariableConfig vc : vars.values()) {
            Raw r = raw.get(vc.name());
            Diagnostics.Builder converting = Diagnostics.builder();
            out.put(vc.name(), finalValue(vc, r, allowUnset, diags, converting));
            if (r != null && r.range() != null) {
                ranges.put(vc.name(), r.range());
            }
            if (!converting.build().isEmpty()) {
                problems.put(vc.name(), converting.build());
            }
        }
        return Result.of(Collections.unmodifiableSortedMap(out), diags.build().inPlaceOrder());
    }

    private static Raw cliValue(VariableConfig vc, String text, String origin, Diagnostics.Builder diags) {
        Type t = vc.type().type();
        if (!vc.typeDeclared() || t instanceof PrimitiveType) {
            return new Raw(Value.string(text), null, null, origin);
        }
        String pseudo = "<value for var." + vc.name() + ">";
        Result<Expr> e = NativeSyntax.parseExpression(text.getBytes(StandardCharsets.UTF_8), pseudo, SourcePos.START);
        if (e.hasErrors()) {
            diags.addAll(e.diagnostics());
            return new Raw(null, null, null, origin);
        }
        return new Raw(null, e.value(), null, origin);
    }

    private static void file(
            Path dir,
            Path f,
            Map<String, VariableConfig> vars,
            Map<String, Raw> raw,
            List<Undeclared> undeclared,
            Diagnostics.Builder diags) {
        String name = dir.relativize(f).toString().replace('\\', '/');
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(f);
        } catch (IOException e) {
            // Terraform's wording, with Go's operation prefix: the open failed, or the read did.
            String op =
                    e instanceof java.nio.file.AccessDeniedException || e instanceof java.nio.file.NoSuchFileException
                            ? "open "
                            : "read ";
            diags.add(Diagnostic.error(
                    "Failed to read variables file",
                    "Error while reading " + name + ": " + op + IoProblems.describe(name, e) + ".",
                    null));
            return;
        }
        Result<HclFile> parsed =
                name.endsWith(".json") ? JsonSyntax.parse(bytes, name) : NativeSyntax.parseConfig(bytes, name);
        diags.addAll(parsed.diagnostics());
        // As Terraform, a file that does not parse gives its errors alone: the reading stops there, before
        // anything of what could be read (such as values for undeclared variables) is looked at.
        if (parsed.value() == null || parsed.diagnostics().hasErrors()) {
            return;
        }
        Result<Map<String, Attribute>> attrs = parsed.value().body().justAttributes();
        diags.addAll(attrs.diagnostics());
        if (attrs.diagnostics().hasErrors()) {
            return;
        }
        for (Attribute a : new TreeMap<>(attrs.value()).values()) {
            if (!vars.containsKey(a.name())) {
                undeclared.add(new Undeclared(a.name(), name, a.nameRange()));
                continue;
            }
            raw.put(a.name(), new Raw(null, a.expr(), a.expr().range(), "file " + name));
        }
    }

    /** A value in a variables file for a variable the root module does not declare. */
    private record Undeclared(String name, String file, SourceRange range) {}

    /**
     * As Terraform: the first two undeclared values found in files get a warning each, and one more
     * warning counts the rest, so a shared {@code .tfvars} file does not flood every run. Terraform
     * picks the two in map order (varying from run to run); Strata takes them in load order. As
     * Terraform's, the warnings have no source range (the detail names the file): so they are shown
     * first among an operation's warnings, after the plan, as Terraform shows them.
     */
    private static void warnUndeclared(List<Undeclared> undeclared, Diagnostics.Builder diags) {
        for (Undeclared u : undeclared.subList(0, Math.min(2, undeclared.size()))) {
            diags.add(Diagnostic.warning(
                    "Value for undeclared variable",
                    "The root module does not declare a "
                            + "variable named \"" + u.name() + "\" but a value was found in file \"" + u.file()
                            + "\". If you meant to use this value, add a \"variable\" block to the configuration."
                            + "\n\nTo silence these warnings, "
                            + "use TF_VAR_... environment variables to provide certain \"global\" settings to all "
                            + "configurations in your organization. To reduce the verbosity of these warnings, use "
                            + "the -compact-warnings option.",
                    null));
        }
        if (undeclared.size() > 2) {
            diags.add(Diagnostic.warning(
                    "Values for undeclared variables",
                    "In addition to the other similar "
                            + "warnings shown, " + (undeclared.size() - 2) + " other variable(s) defined without being "
                            + "declared.",
                    null));
        }
    }

    /** {@code diags} gets the value's errors, {@code converting} those of converting it to its declared type. */
    private static Value finalValue(
            VariableConfig vc, Raw r, boolean allowUnset, Diagnostics.Builder diags, Diagnostics.Builder converting) {
        Value v;
        SourceRange range = r == null ? null : r.range();
        if (r == null) {
            if (vc.defaultValue() == null && allowUnset) {
                return marked(vc, Value.unknown(vc.type().type()));
            }
            if (vc.defaultValue() == null) {
                diags.add(noValue(vc));
                return Value.unknown(vc.type().type());
            }
            v = vc.defaultValue();
        } else if (r.literal() == null && r.expr() == null) {
            // As Terraform: a value that does not parse leaves the variable unset, which a required one may not be
            // (in the console too, where a variable given no value at all is unknown).
            if (vc.defaultValue() == null) {
                diags.add(noValue(vc));
            }
            return Value.unknown(vc.type().type());
        } else if (r.literal() != null) {
            v = r.literal();
        } else {
            Result<Value> ev = Constants.evaluate(r.expr());
            if (ev.hasErrors() && vc.defaultValue() == null) {
                // As Terraform: a value that does not evaluate leaves the variable unset, which a required one
                // may not be (also in the console, where a variable given no value at all is unknown).
                diags.add(noValue(vc));
            }
            diags.addAll(ev.diagnostics());
            if (ev.hasErrors()) {
                return Value.unknown(vc.type().type());
            }
            v = ev.value();
        }
        if (r != null) {
            if (v.isNull() && vc.defaultValue() != null && vc.nullable() == false) {
                v = vc.defaultValue();
            }
            ConversionResult c = vc.type().convert(v);
            switch (c) {
                case ConversionResult.Ok ok -> v = ok.value();
                case ConversionResult.Failed f -> {
                    converting.add(unsuitable(vc, r, "Invalid value for input variable", "declared", f.message()));
                    return Value.unknown(vc.type().type());
                }
            }
            if (v.isNull() && !vc.nullable()) {
                converting.add(unsuitable(
                        vc, r, "Required variable not set", "defined", "required variable may not be set to null"));
                return Value.unknown(vc.type().type());
            }
        }
        return marked(vc, v);
    }

    private static Diagnostic noValue(VariableConfig vc) {
        return Diagnostic.error(
                "No value for required variable",
                "The root module input variable \"" + vc.name()
                        + "\" is not set, and has no default value. Use a -var or -var-file command line "
                        + "argument to provide a value for this variable.",
                vc.declRange());
    }

    /**
     * Terraform's error for a value that does not suit its variable: one from a file points at the value
     * there; one from the command line, the environment or a prompt points at the declaration and says
     * where the value came from.
     */
    private static Diagnostic unsuitable(VariableConfig vc, Raw r, String summary, String declared, String reason) {
        if (r.range() != null) {
            return Diagnostic.error(
                    summary,
                    "The given value is not suitable for var." + vc.name() + " " + declared + " at " + vc.declRange()
                            + ": " + reason + ".",
                    r.range());
        }
        return Diagnostic.error(
                summary,
                "Unsuitable value for var." + vc.name() + " set using " + r.origin() + ": " + reason + ".",
                vc.declRange());
    }

    /** A variable's value with the marks its declaration gives it: sensitive, ephemeral. */
    public static Value marked(VariableConfig vc, Value v) {
        Value out = vc.sensitive() ? v.mark(Mark.SENSITIVE) : v;
        return vc.ephemeral() ? out.mark(Mark.EPHEMERAL) : out;
    }

    private static void validate(
            VariableConfig vc,
            Map<String, Value> values,
            SourceRange subject,
            FunctionTable functions,
            Diagnostics.Builder diags) {
        Value self = values.get(vc.name());
        if (!self.isWhollyKnown() || vc.validations().isEmpty()) {
            return;
        }
        // These rules refer to the variables' values alone.
        Scope scope = new ReferenceScope(new PartialData() {
            @Override
            public FunctionTable functions() {
                return functions;
            }

            @Override
            public Result<Value> inputVariable(InputVariable v, Reference ref) {
                return Result.of(values.getOrDefault(v.name(), Value.DYNAMIC_UNKNOWN));
            }
        });
        diags.addAll(VariableValidation.check(vc, VariableValidation.onInputs(vc), scope, subject));
    }
}
