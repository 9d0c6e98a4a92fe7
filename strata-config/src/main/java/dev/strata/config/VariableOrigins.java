package dev.strata.config;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.SourceRange;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the engine's walk needs to know of the root module's input variables besides their values, as
 * {@link InputVariables#read} found them: where each value was set, which the variable's validation
 * errors point at, and what was wrong with a value that does not suit its declaration. As in Terraform,
 * both are reported by the variable's own vertex of the walk, so that a bad value stops only what uses it
 * and the rest is still planned.
 *
 * @param ranges   the expression each value came from (a {@code .tfvars} entry, a test file's argument), by
 *                 variable name; a value from the command line, the environment or a default has none and is
 *                 reported at the declaration
 * @param problems the errors of converting each value to its declared type, by variable name
 */
public record VariableOrigins(SortedMap<String, SourceRange> ranges, SortedMap<String, Diagnostics> problems) {
    /** No ranges and no problems: values given by a program, or read from a saved plan. */
    public static final VariableOrigins NONE = new VariableOrigins(new TreeMap<>(), new TreeMap<>());

    public VariableOrigins {
        ranges = Collections.unmodifiableSortedMap(new TreeMap<>(ranges));
        problems = Collections.unmodifiableSortedMap(new TreeMap<>(problems));
    }

    /** Where {@code name}'s value was set; null for none, meaning the declaration. */
    public SourceRange range(String name) {
        return ranges.get(name);
    }

    /** What was wrong with {@code name}'s value; empty when nothing was. */
    public Diagnostics problems(String name) {
        return problems.getOrDefault(name, Diagnostics.NONE);
    }
}
