package dev.strata.provider;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code version} constraint string from {@code required_providers}: comma-separated
 * conditions that must all hold, with Terraform's operators {@code =}, {@code !=}, {@code >},
 * {@code >=}, {@code <}, {@code <=} and {@code ~>} (only the rightmost written number may grow:
 * {@code ~> 1.2} allows 1.2 up to but excluding 2.0, {@code ~> 1.2.3} up to 1.3.0). As in
 * Terraform, a pre-release version satisfies only a constraint that names it exactly.
 */
public record VersionConstraints(String text, List<Condition> conditions) {

    public static final VersionConstraints ANY = new VersionConstraints("", List.of());

    /** One operator and the version it compares with, keeping how many numbers were written. */
    public record Condition(String operator, Version version) {}

    private static final Pattern CONDITION = Pattern.compile("\\s*(=|!=|>=|<=|>|<|~>)?\\s*(\\S+)\\s*");

    public VersionConstraints {
        conditions = List.copyOf(conditions);
    }

    public static Result<VersionConstraints> parse(String text) {
        if (text.isBlank()) {
            return Result.of(ANY);
        }
        List<Condition> out = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            Matcher m = CONDITION.matcher(part);
            Optional<Version> v = m.matches() ? Version.parse(m.group(2)) : Optional.empty();
            if (v.isEmpty()) {
                return Result.of(ANY, Diagnostics.of(Diagnostic.error("Invalid version constraint",
                        "\"" + part.trim() + "\" is not a valid version constraint. A constraint is a version"
                                + " with an optional operator (=, !=, >, >=, <, <=, ~>), like \"~> 3.1\".", null)));
            }
            out.add(new Condition(m.group(1) == null ? "=" : m.group(1), v.get()));
        }
        return Result.of(new VersionConstraints(text.trim(), out));
    }

    public boolean allows(Version v) {
        if (v.isPrerelease() && conditions.stream().noneMatch(c -> c.operator().equals("=") && c.version().equals(v))) {
            return false;
        }
        for (Condition c : conditions) {
            if (!holds(c, v)) {
                return false;
            }
        }
        return true;
    }

    private static boolean holds(Condition c, Version v) {
        int cmp = v.compareTo(c.version());
        return switch (c.operator()) {
            case "=" -> cmp == 0;
            case "!=" -> cmp != 0;
            case ">" -> cmp > 0;
            case ">=" -> cmp >= 0;
            case "<" -> cmp < 0;
            case "<=" -> cmp <= 0;
            case "~>" -> pessimistic(c.version(), v);
            default -> throw new IllegalStateException("operator " + c.operator());
        };
    }

    // go-version's rule: the written numbers but the last must match, the last may be greater.
    private static boolean pessimistic(Version c, Version v) {
        int n = c.segments().size();
        for (int i = 0; i < n - 1; i++) {
            if (v.segment(i) != c.segment(i)) {
                return false;
            }
        }
        return v.compareTo(c) >= 0;
    }

    @Override
    public String toString() {
        return text;
    }
}
