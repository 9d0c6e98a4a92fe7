package dev.strata.cli.command;

import java.util.List;

/**
 * A handle to one flag of a {@link FlagSet}; pass it to {@link ParsedArgs#get(Flag)} to read the value.
 * Identity matters: two flags with equal fields from different sets are different handles.
 *
 * @param name         the name without the dash, e.g. {@code "write"} for {@code -write=false}
 * @param kind         how values are parsed
 * @param defaultValue the value when the flag is absent
 * @param placeholder  the word shown in help after {@code =}, e.g. {@code DIR}; unused for booleans
 * @param usage        one or more sentences for the help screen
 */
public record Flag<T>(String name, Kind kind, T defaultValue, String placeholder, String usage) {

    /** Value kinds, following Go's flag package so Terraform's flags can be declared one to one. */
    public enum Kind {
        /** {@code -name} means true; {@code -name=true} / {@code -name=false} set it explicitly. */
        BOOL,
        /** {@code -name=value} or {@code -name value}. */
        STRING,
        /** Like STRING, checked to be a whole number. */
        INT,
        /** Repeatable, e.g. {@code -var=a=1 -var=b=2}; values in command-line order. */
        STRING_LIST
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    static List<String> reservedNames() {
        return List.of("help", "h", "no-color");
    }
}
