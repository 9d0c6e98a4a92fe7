package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;

/**
 * The flags of one command, declared the way Go's {@code flag} package declares Terraform's:
 * single dash, value after {@code =} ({@code -chdir=DIR}, {@code -write=false}), parsing stops at the
 * first positional argument or at {@code --}, a repeated flag keeps its last value, and {@code --name}
 * is accepted for {@code -name}. Parsing is done by picocli, configured to behave that way.
 *
 * <p>Declare a set once per command (e.g. in a static field), keep the {@link Flag} handles, and read
 * values from the {@link ParsedArgs} handed to {@link Command#run}. {@code -help}/{@code -h} and
 * {@code -no-color} are handled by the frame and cannot be declared.
 */
public final class FlagSet {
    private static final Set<String> HELP = Set.of("-help", "-h", "--help");

    private final List<Flag<?>> flags = new ArrayList<>();

    public Flag<Boolean> bool(String name, boolean defaultValue, String usage) {
        return add(new Flag<>(name, Flag.Kind.BOOL, defaultValue, "", usage));
    }

    public Flag<String> string(String name, String defaultValue, String placeholder, String usage) {
        return add(new Flag<>(name, Flag.Kind.STRING, defaultValue, placeholder, usage));
    }

    public Flag<Integer> integer(String name, int defaultValue, String placeholder, String usage) {
        return add(new Flag<>(name, Flag.Kind.INT, defaultValue, placeholder, usage));
    }

    public Flag<List<String>> repeated(String name, String placeholder, String usage) {
        return add(new Flag<>(name, Flag.Kind.STRING_LIST, List.of(), placeholder, usage));
    }

    private synchronized <T> Flag<T> add(Flag<T> flag) {
        if (flag.name().isEmpty() || flag.name().startsWith("-")) {
            throw new IllegalArgumentException("flag names are given without dashes: " + flag.name());
        }
        if (Flag.reservedNames().contains(flag.name())
                || flags.stream().anyMatch(f -> f.name().equals(flag.name()))) {
            throw new IllegalArgumentException("flag -" + flag.name() + " is already defined");
        }
        flags.add(flag);
        return flag;
    }

    public synchronized List<Flag<?>> all() {
        return List.copyOf(flags);
    }

    public boolean isEmpty() {
        return all().isEmpty();
    }

    /** Whether the arguments ask for help: {@code -help}, {@code -h} or {@code --help} anywhere before {@code --}. */
    public static boolean wantsHelp(List<String> args) {
        for (String a : args) {
            if (a.equals("--")) {
                return false;
            }
            if (HELP.contains(a)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the arguments turn on {@code -json} ({@code -json}, {@code --json} or either with a true value)
     * before {@code --}: read from the words themselves, for arguments that did not parse.
     */
    public static boolean wantsJson(List<String> args) {
        boolean json = false;
        for (String a : args) {
            if (a.equals("--")) {
                break;
            }
            String name = a.startsWith("--") ? a.substring(2) : a.startsWith("-") ? a.substring(1) : null;
            if (name == null) {
                continue;
            }
            int eq = name.indexOf('=');
            if (eq < 0 && name.equals("json")) {
                json = true;
            } else if (eq > 0 && name.substring(0, eq).equals("json")) {
                json = List.of("1", "t", "T", "true", "TRUE", "True").contains(name.substring(eq + 1));
            }
        }
        return json;
    }

    /** The result of parsing: values, or the one problem that stopped parsing. */
    public sealed interface Outcome {
        record Parsed(ParsedArgs args) implements Outcome {}

        record Invalid(CliDiagnostic diagnostic) implements Outcome {}
    }

    public Outcome parse(List<String> args) {
        List<Flag<?>> defs = all();
        if (args.stream().noneMatch(a -> a.startsWith("-"))) {
            // No flag at all (`validate`, `fmt main.tf`, `version`): every value is its default and every
            // argument a positional, which is what picocli would answer. Skipping it keeps its ~140 classes
            // (Java 5 class files, which the start-up cache cannot hold) off the small commands' start.
            Map<Flag<?>, Object> defaults = new IdentityHashMap<>();
            defs.forEach(f -> defaults.put(f, f.defaultValue()));
            return new Outcome.Parsed(new ParsedArgs(defaults, Set.of(), List.copyOf(args), List.of()));
        }
        // A fresh spec per parse: picocli specs hold parsed values, and commands may run concurrently in tests.
        CommandSpec spec = CommandSpec.create();
        spec.parser()
                .posixClusteredShortOptionsAllowed(false)
                .stopAtPositional(true)
                .overwrittenOptionsAllowed(true)
                .expandAtFiles(false)
                .unmatchedOptionsArePositionalParams(false)
                .abbreviatedOptionsAllowed(false)
                .allowOptionsAsOptionParameters(true)
                .separator("=");
        Map<Flag<?>, OptionSpec> options = new IdentityHashMap<>();
        for (Flag<?> f : defs) {
            OptionSpec.Builder b = OptionSpec.builder("-" + f.name());
            switch (f.kind()) {
                // Arity 0: picocli would otherwise take a following "false" as the value; Go does not.
                // Values written with = are taken out beforehand by prepare.
                case BOOL -> b.type(boolean.class).arity("0");
                case STRING -> b.type(String.class).arity("1");
                case INT -> b.type(int.class).arity("1");
                case STRING_LIST ->
                    b.type(List.class).auxiliaryTypes(String.class).arity("1");
            }
            OptionSpec o = b.paramLabel(f.placeholder().isEmpty() ? "VALUE" : f.placeholder())
                    .build();
            spec.addOption(o);
            options.put(f, o);
        }
        spec.addPositional(PositionalParamSpec.builder()
                .type(List.class)
                .auxiliaryTypes(String.class)
                .arity("0..*")
                .paramLabel("ARG")
                .build());

        List<String> normalized = new ArrayList<>(args);
        Map<Flag<?>, Boolean> explicitBooleans = new IdentityHashMap<>();
        CliDiagnostic badBoolean = prepare(normalized, defs, explicitBooleans);
        if (badBoolean != null) {
            return new Outcome.Invalid(badBoolean);
        }
        ParseResult result;
        try {
            result = new CommandLine(spec).parseArgs(normalized.toArray(String[]::new));
        } catch (CommandLine.UnmatchedArgumentException e) {
            return new Outcome.Invalid(unknownFlag(e, defs));
        } catch (CommandLine.MissingParameterException e) {
            String name =
                    e.getMissing().isEmpty() ? "" : optionName(e.getMissing().get(0));
            return new Outcome.Invalid(CliDiagnostic.error(
                    "Missing value for " + name,
                    "The " + name + " option needs a value, written as " + name + "=VALUE."));
        } catch (CommandLine.ParameterException e) {
            String name = e.getArgSpec() == null ? "an option" : optionName(e.getArgSpec());
            String value = e.getValue() == null ? "" : e.getValue();
            Flag<?> flag = defs.stream()
                    .filter(f -> ("-" + f.name()).equals(name))
                    .findFirst()
                    .orElse(null);
            String expected = flag == null
                    ? ""
                    : switch (flag.kind()) {
                        case BOOL -> " It must be true or false.";
                        case INT -> " It must be a whole number.";
                        case STRING, STRING_LIST -> "";
                    };
            return new Outcome.Invalid(CliDiagnostic.error(
                    "Invalid value for " + name,
                    "The value \"" + value + "\" is not valid for " + name + "." + expected));
        }

        Map<Flag<?>, Object> values = new IdentityHashMap<>();
        Set<Flag<?>> given = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Flag<?> f : defs) {
            OptionSpec o = options.get(f);
            if (result.hasMatchedOption(o)) {
                given.add(f);
                Object v = result.matchedOptionValue(o.longestName(), f.defaultValue());
                if (f.kind() == Flag.Kind.BOOL) {
                    v = explicitBooleans.getOrDefault(f, true);
                }
                values.put(f, f.kind() == Flag.Kind.STRING_LIST ? List.copyOf((List<?>) v) : v);
            } else {
                values.put(f, f.defaultValue());
            }
        }
        List<String> positionals = result.matchedPositionals().isEmpty()
                ? List.of()
                : List.copyOf(result.matchedPositionals().get(0).<List<String>>getValue());
        return new Outcome.Parsed(new ParsedArgs(values, given, positionals, occurrences(normalized, defs)));
    }

    /**
     * The values of repeatable flags in command-line order across flags, for options whose relative
     * order matters (Terraform applies {@code -var} and {@code -var-file} in the order given).
     */
    private static List<ParsedArgs.Occurrence> occurrences(List<String> args, List<Flag<?>> defs) {
        List<ParsedArgs.Occurrence> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--") || !a.startsWith("-")) {
                break;
            }
            for (Flag<?> f : defs) {
                if (f.kind() != Flag.Kind.STRING_LIST) {
                    continue;
                }
                String n = "-" + f.name();
                if (a.equals(n) && i + 1 < args.size()) {
                    out.add(new ParsedArgs.Occurrence(f, args.get(++i)));
                } else if (a.startsWith(n + "=")) {
                    out.add(new ParsedArgs.Occurrence(f, a.substring(n.length() + 1)));
                }
            }
        }
        return out;
    }

    /**
     * Reads the flag region (up to the first positional or {@code --}, as Go does) and rewrites it in place
     * for picocli: {@code --name} becomes {@code -name} (Go's synonym), and each {@code -flag=value} of a
     * boolean flag becomes a bare {@code -flag}, its value recorded in {@code values} (last one wins).
     * Returns a diagnostic for a boolean value that is not one, else null.
     */
    private static CliDiagnostic prepare(List<String> args, List<Flag<?>> defs, Map<Flag<?>, Boolean> values) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--") || !a.startsWith("-") || a.equals("-")) {
                return null;
            }
            if (a.startsWith("--") && a.charAt(2) != '-') {
                a = a.substring(1);
                args.set(i, a);
            }
            int eq = a.indexOf('=');
            String name = eq < 0 ? a.substring(1) : a.substring(1, eq);
            Flag<?> flag =
                    defs.stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
            if (flag == null) {
                return null;
            }
            if (flag.kind() != Flag.Kind.BOOL) {
                if (eq < 0) {
                    i++;
                }
                continue;
            }
            if (eq < 0) {
                values.put(flag, true);
                continue;
            }
            String value = a.substring(eq + 1);
            Boolean b = switch (value) {
                case "1", "t", "T", "true", "TRUE", "True" -> true;
                case "0", "f", "F", "false", "FALSE", "False" -> false;
                default -> null;
            };
            if (b == null) {
                return CliDiagnostic.error(
                        "Invalid value for -" + name,
                        "The value \"" + value + "\" is not valid for -" + name + ". It must be true or false.");
            }
            values.put(flag, b);
            args.set(i, "-" + name);
        }
        return null;
    }

    private static String optionName(CommandLine.Model.ArgSpec spec) {
        return spec instanceof OptionSpec o ? o.longestName() : spec.paramLabel();
    }

    private static CliDiagnostic unknownFlag(CommandLine.UnmatchedArgumentException e, List<Flag<?>> defs) {
        String arg = e.getUnmatched().isEmpty() ? "" : e.getUnmatched().get(0);
        String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
        List<String> candidates = new ArrayList<>();
        for (Flag<?> f : defs) {
            candidates.add("-" + f.name());
        }
        String detail = "This command has no option " + name + ".";
        List<String> close = Suggestions.closest(name, candidates);
        if (!close.isEmpty()) {
            detail += " Did you mean " + close.get(0) + "?";
        }
        return CliDiagnostic.error("Unknown option " + name, detail);
    }
}
