package dev.strata.config;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version constraint string such as {@code ">= 1.2, < 2.0"} or {@code "~> 5.0"}, with the
 * semantics of HashiCorp's go-version that Terraform uses for {@code required_version} and provider
 * and module versions. {@code ~>} allows only the rightmost specified segment to grow
 * ({@code ~> 1.2} is {@code >= 1.2, < 2}; {@code ~> 1.2.3} is {@code >= 1.2.3, < 1.3}). A pre-release
 * version satisfies a constraint only if the constraint names a pre-release of the same version.
 */
public record VersionConstraint(String source, List<Term> terms, SourceRange range) {
    private static final Pattern TERM = Pattern.compile("\\s*(=|!=|>=|<=|>|<|~>)?\\s*(\\S+)\\s*");

    public VersionConstraint {
        terms = List.copyOf(terms);
    }

    public enum Op {
        EQ("="), NE("!="), GT(">"), GE(">="), LT("<"), LE("<="), PESSIMISTIC("~>");

        final String text;

        Op(String text) {
            this.text = text;
        }

        static Op of(String s) {
            for (Op o : values()) {
                if (o.text.equals(s)) {
                    return o;
                }
            }
            return EQ;
        }
    }

    public record Term(Op op, Version version) {
        boolean allows(Version v) {
            if (v.isPrerelease() && !(version.isPrerelease() && version.core().sameAs(v.core()))) {
                return false;
            }
            int c = v.compareTo(version);
            return switch (op) {
                case EQ -> c == 0;
                case NE -> c != 0;
                case GT -> c > 0;
                case GE -> c >= 0;
                case LT -> c < 0;
                case LE -> c <= 0;
                case PESSIMISTIC -> {
                    if (c < 0) {
                        yield false;
                    }
                    // Every segment but the last one specified must match exactly.
                    int fixed = Math.max(version.specifiedSegments() - 1, 1);
                    for (int i = 0; i < fixed; i++) {
                        if (!v.segments().get(i).equals(version.segments().get(i))) {
                            yield false;
                        }
                    }
                    yield true;
                }
            };
        }

        @Override
        public String toString() {
            return op.text + " " + version;
        }
    }

    /** Parses a constraint string; {@code range} is where diagnostics point. */
    public static Result<VersionConstraint> parse(String s, SourceRange range) {
        List<Term> terms = new ArrayList<>();
        if (s.isBlank()) {
            return invalid(s, range);
        }
        for (String part : s.split(",", -1)) {
            Matcher m = TERM.matcher(part);
            if (!m.matches()) {
                return invalid(s, range);
            }
            var v = Version.parse(m.group(2));
            if (v.isEmpty()) {
                return invalid(s, range);
            }
            terms.add(new Term(Op.of(m.group(1) == null ? "=" : m.group(1)), v.get()));
        }
        return Result.of(new VersionConstraint(s, terms, range));
    }

    private static Result<VersionConstraint> invalid(String s, SourceRange range) {
        return Result.of(null, Diagnostics.of(Diagnostic.error("Invalid version constraint",
                "This string does not use correct version constraint syntax: \"" + s + "\". A constraint is a "
                        + "comma-separated list of versions each optionally preceded by one of =, !=, >, >=, <, <= "
                        + "or ~>, such as \">= 1.2.0, < 2.0.0\".", range)));
    }

    public boolean allows(Version v) {
        for (Term t : terms) {
            if (!t.allows(v)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return source;
    }
}
