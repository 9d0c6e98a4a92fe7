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

    ParsedArgs(Map<Flag<?>, Object> values, Set<Flag<?>> given, List<String> positionals) {
        this.values = new IdentityHashMap<>(values);
        this.given = given;
        this.positionals = List.copyOf(positionals);
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
