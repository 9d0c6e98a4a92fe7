package dev.strata.tfplugin.install;

import dev.strata.addr.Version;
import dev.strata.addr.VersionConstraint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Version constraints as the lock file records them: every module's constraints on a provider
 * merged into one string, as {@code terraform init} writes it. Each term shows its full version
 * ({@code >= 5.0} becomes {@code >= 5.0.0}), except {@code ~>} whose precision is its meaning;
 * {@code =} is left out; duplicates are dropped and terms are sorted by version.
 */
public final class Constraints {
    private static final Pattern TERM = Pattern.compile(
            "\\s*(=|!=|>=|<=|>|<|~>)?\\s*v?([0-9]+(?:\\.[0-9]+){0,2})(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?\\s*");

    private Constraints() {}

    private record Term(String op, Version version, String text) {}

    /** The merged, normalised constraint string; empty when there is none. Empty when a term does not parse. */
    public static Optional<String> normalize(List<String> constraints) {
        List<Term> terms = new ArrayList<>();
        for (String c : constraints) {
            if (c.isBlank()) {
                continue;
            }
            for (String part : c.split(",", -1)) {
                Matcher m = TERM.matcher(part);
                if (!m.matches()) {
                    return Optional.empty();
                }
                String op = m.group(1) == null ? "=" : m.group(1);
                String pre = m.group(3) == null ? "" : m.group(3);
                Version full = Version.of(m.group(2) + pre);
                String shown = op.equals("~>") ? m.group(2) + pre : full.toString();
                terms.add(new Term(op, full, op.equals("=") ? shown : op + " " + shown));
            }
        }
        terms.sort(Comparator.comparing(Term::version).thenComparing(Term::text));
        LinkedHashSet<String> out = new LinkedHashSet<>();
        terms.forEach(t -> out.add(t.text()));
        return Optional.of(String.join(", ", out));
    }

    /** Whether {@code version} satisfies the normalised constraint string. */
    public static boolean allows(String normalized, String version) {
        Optional<Version> v = Version.parse(version);
        if (v.isEmpty()) {
            return false;
        }
        VersionConstraint c = VersionConstraint.parse(normalized).value();
        return c.selects(v.get());
    }
}
