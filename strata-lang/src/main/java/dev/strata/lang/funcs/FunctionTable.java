package dev.strata.lang.funcs;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * An immutable table of functions by name. Every function can also be looked up with the
 * {@code core::} prefix, as in Terraform.
 *
 * <p>Provider-defined functions ({@code provider::NAME::FUNC}) are not listed up front: a
 * {@link Resolver} finds them by name on first use, so only the providers whose functions an
 * expression actually calls are started. Its answer is kept, so each name is resolved once.
 */
public final class FunctionTable {
    /**
     * Built-ins that are not functions of values: they take their arguments unevaluated, so the
     * evaluator implements them itself (dev.strata.lang.eval.Evaluator).
     */
    public static final SortedSet<String> SPECIAL_FORMS =
            Collections.unmodifiableSortedSet(new TreeSet<>(java.util.List.of("can", "try")));

    /** The prefix of provider-defined function names. */
    public static final String PROVIDER_PREFIX = "provider::";

    /** Finds a provider-defined function ({@code provider::NAME::FUNC}) by its full name. Must be thread-safe. */
    @FunctionalInterface
    public interface Resolver {
        Lookup resolve(String name);
    }

    /** What a {@link Resolver} found: the function, or Terraform's diagnostic wording for why there is none. */
    public sealed interface Lookup {
        record Found(Function function) implements Lookup {}

        record Missing(String summary, String detail) implements Lookup {}
    }

    private final SortedMap<String, Function> functions;
    private final Resolver resolver;
    private final ConcurrentMap<String, Lookup> resolved = new ConcurrentHashMap<>();

    FunctionTable(Map<String, Function> functions) {
        this(functions, null);
    }

    private FunctionTable(Map<String, Function> functions, Resolver resolver) {
        this.functions = Collections.unmodifiableSortedMap(new TreeMap<>(functions));
        this.resolver = resolver;
    }

    /** A table without functions. */
    public static FunctionTable empty() {
        return EMPTY;
    }

    private static final FunctionTable EMPTY = new FunctionTable(Map.of());

    public Optional<Function> lookup(String name) {
        String n = name.startsWith("core::") ? name.substring("core::".length()) : name;
        Function f = functions.get(n);
        if (f == null && n.startsWith(PROVIDER_PREFIX)) {
            return find(n) instanceof Lookup.Found found ? Optional.of(found.function()) : Optional.empty();
        }
        return Optional.ofNullable(f);
    }

    /**
     * The function named {@code name} or why there is none. Only provider-defined functions have a
     * reason here; for other unknown names the evaluator words its own (with "did you mean").
     */
    public Lookup find(String name) {
        Function f = functions.get(name);
        if (f != null) {
            return new Lookup.Found(f);
        }
        if (!name.startsWith(PROVIDER_PREFIX)) {
            return new Lookup.Missing("Call to unknown function", "There is no function named \"" + name + "\".");
        }
        return resolved.computeIfAbsent(name, n -> resolver != null ? resolver.resolve(n) : undeclared(n));
    }

    /**
     * Terraform's diagnostic for {@code provider::NAME::FUNC} when no provider named NAME is declared
     * where the call is (or the name does not have that form).
     */
    public static Lookup.Missing undeclared(String name) {
        String[] parts = name.split("::", -1);
        if (parts.length != 3) {
            return new Lookup.Missing(
                    "Unknown provider function",
                    "The function name \"" + name + "\" is not valid: "
                            + "provider-defined functions are called as provider::NAME::FUNCTION.");
        }
        return new Lookup.Missing(
                "Unknown provider function",
                "There is no function named \"" + name + "\". Ensure "
                        + "that provider name \"" + parts[1]
                        + "\" is declared in this module's required_providers block, and that "
                        + "this provider offers a function named \"" + parts[2] + "\".");
    }

    /** This table, finding provider-defined functions with {@code resolver}. */
    public FunctionTable withResolver(Resolver resolver) {
        return new FunctionTable(functions, resolver);
    }

    public SortedSet<String> names() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(functions.keySet()));
    }

    /** A table with {@code f} added, replacing any function of the same name. */
    public FunctionTable with(Function f) {
        TreeMap<String, Function> m = new TreeMap<>(functions);
        m.put(f.name(), f);
        return new FunctionTable(m, resolver);
    }

    /**
     * The functions whose results differ from call to call ({@code bcrypt}, {@code timestamp},
     * {@code uuid}): Terraform makes them unknown while planning and calls them at apply time.
     */
    public static final SortedSet<String> IMPURE =
            Collections.unmodifiableSortedSet(new TreeSet<>(java.util.List.of("bcrypt", "timestamp", "uuid")));

    /** This table with every {@link #IMPURE} function returning an unknown value, for planning. */
    public FunctionTable pureOnly() {
        TreeMap<String, Function> m = new TreeMap<>(functions);
        for (String name : IMPURE) {
            m.computeIfPresent(name, (n, f) -> f.unpredictable());
        }
        return new FunctionTable(m, resolver);
    }

    /** A table without the named function, e.g. {@code plantimestamp} in the console. */
    public FunctionTable without(String name) {
        TreeMap<String, Function> m = new TreeMap<>(functions);
        m.remove(name);
        return new FunctionTable(m, resolver);
    }
}
