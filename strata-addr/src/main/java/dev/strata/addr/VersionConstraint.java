package dev.strata.addr;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version constraint string such as {@code ">= 1.2, < 2.0"} or {@code "~> 5.0"}: comma-separated
 * terms that must all hold. {@code ~>} allows only the rightmost written segment to grow
 * ({@code ~> 1.2} is {@code >= 1.2, < 2}; {@code ~> 1.2.3} is {@code >= 1.2.3, < 1.3}).
 *
 * <p>Terraform treats pre-releases in two ways, both kept here: {@link #allows} is go-version's rule
 * for {@code required_version} (a pre-release satisfies a term only if the term names a pre-release of
 * the same version), {@link #selects} the provider installer's (a pre-release is chosen only when a
 * constraint names it exactly).
 */
public record VersionConstraint(String source, List<Term> terms, SourceRange range) {
    /** No constraint: every version is allowed. */
    public static final VersionConstraint ANY = new VersionConstraint("", List.of(), null);

    private static final Pattern TERM = Pattern.compile("\\s*(=|!=|>=|<=|>|<|~>)?\\s*(\\S+)\\s*");

    public VersionConstraint {
        terms = List.copyOf(terms);
    }

    public enum Op {
        EQ("="),
        NE("!="),
        GT(">"),
        GE(">="),
        LT("<"),
        LE("<="),
        PESSIMISTIC("~>");

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

    /** One operator and the version it compares with, keeping how many numbers were written. */
    public record Term(Op op, Version version) {
        boolean holds(Version v) {
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
                    // Every segment but the last one written must match exactly, so `~> 1` is `>= 1`
                    // (checked against terraform 1.11: required_version = "~> 0" accepts 1.11).
                    for (int i = 0; i < version.specifiedSegments() - 1; i++) {
                        if (v.segment(i) != version.segment(i)) {
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

    /** Parses a constraint attribute's string; blank is invalid; {@code range} is where diagnostics point. */
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

    /**
     * Parses a merged constraint string as installers and registries hold it: blank is {@link #ANY}, and a
     * malformed one is {@link #ANY} with the error.
     */
    public static Result<VersionConstraint> parse(String s) {
        if (s.isBlank()) {
            return Result.of(ANY);
        }
        Result<VersionConstraint> r = parse(s, null);
        return r.hasErrors()
                ? Result.of(ANY, r.diagnostics())
                : Result.of(r.value().withSource(s.trim()));
    }

    private VersionConstraint withSource(String s) {
        return new VersionConstraint(s, terms, range);
    }

    private static Result<VersionConstraint> invalid(String s, SourceRange range) {
        return Result.of(
                null,
                Diagnostics.of(Diagnostic.error(
                        "Invalid version constraint",
                        "This string does not use correct version constraint syntax: \"" + s + "\". A constraint is a "
                                + "comma-separated list of versions each optionally preceded by one of =, !=, >, >=, <, <= "
                                + "or ~>, such as \">= 1.2.0, < 2.0.0\".",
                        range)));
    }

    /** go-version's rule, which Terraform applies to {@code required_version}. */
    public boolean allows(Version v) {
        for (Term t : terms) {
            if (v.isPrerelease()
                    && !(t.version.isPrerelease() && t.version.core().equals(v.core()))) {
                return false;
            }
            if (!t.holds(v)) {
                return false;
            }
        }
        return true;
    }

    /** Whether a provider installer or registry may choose {@code v}: a pre-release only when named exactly. */
    public boolean selects(Version v) {
        if (v.isPrerelease() && terms.stream().noneMatch(t -> t.op == Op.EQ && t.version.equals(v))) {
            return false;
        }
        return terms.stream().allMatch(t -> t.holds(v));
    }

    @Override
    public String toString() {
        return source;
    }
}
