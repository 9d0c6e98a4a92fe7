package dev.strata.cli.command;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The flags and positional arguments of one invocation, as parsed by {@link FlagSet#parse}. */
public final class ParsedArgs {
    private final Map<Flag<?>, Object> values;
    private final Set<Flag<?>> given;
    private final List<String> positionals;
    private final List<Occurrence> occurrences;

    ParsedArgs(
            Map<Flag<?>, Object> values, Set<Flag<?>> given, List<String> positionals, List<Occurrence> occurrences) {
        this.values = new IdentityHashMap<>(values);
        this.given = given;
        this.positionals = List.copyOf(positionals);
        this.occurrences = List.copyOf(occurrences);
    }

    /** One value of a repeatable flag, in the order it appeared among all repeatable flags. */
    public record Occurrence(Flag<?> flag, String value) {}

    /** Every value of repeatable flags, in command-line order (e.g. interleaved -var and -var-file). */
    public List<Occurrence> occurrences() {
        return occurrences;
    }

    /** The flag's value, or its default when it was not given. */
    public <T> T get(Flag<T> flag) {
        if (!values.containsKey(flag)) {
            throw new IllegalArgumentException("flag -" + flag.name() + " does not belong to this command's FlagSet");
        }
        @SuppressWarnings("unchecked")
        T v = (T) values.get(flag);
        return v;
    }

    /** Whether the flag appeared on the command line (even if set to its default value). */
    public boolean isGiven(Flag<?> flag) {
        return given.contains(flag);
    }

    /** Arguments that are not flags, in order. Parsing stops at the first one, as Go's flag package does. */
    public List<String> positionals() {
        return positionals;
    }
}
