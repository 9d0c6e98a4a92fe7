package dev.strata.config;

import dev.strata.hcl.GoQuote;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code //subdir} of a module source that is not a registry address, found in the package it names as
 * Terraform finds it: the subdirectory may be a pattern ({@code modules/n*}), and exactly one path of the
 * package must match it. The pattern language is that of Go's {@code filepath.Match}, which Terraform uses:
 * {@code *} for any run of characters and {@code ?} for one (neither crossing a {@code /}, both matching a
 * leading dot), {@code [a-z]} and {@code [^a-z]} classes, {@code \} quoting the next character. Java's own
 * glob {@link java.nio.file.PathMatcher} reads {@code {a,b}}, {@code **} and {@code [!a]} differently, so the
 * few rules are implemented here. The failures read as Terraform's ("Failed to expand subdir globs"), whose
 * details are the facts users match on: {@code subdir "x" not found}, {@code subdir "x" matches multiple
 * paths}, {@code syntax error in pattern}.
 */
final class SubdirGlob {
    private SubdirGlob() {}

    /** The summary of the diagnostic for a subdirectory that cannot be expanded. */
    static final String SUMMARY = "Failed to expand subdir globs";

    /** Why a subdirectory could not be expanded; the message is the diagnostic's detail. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String detail) {
            super(detail);
        }
    }

    /**
     * The one path inside {@code root} that {@code subdir} matches, relative to {@code root} with {@code /}
     * separators ("" for {@code root} itself, as {@code "."} or an empty subdir name it).
     *
     * @throws Failure when the pattern is malformed, matches nothing or matches more than one path
     */
    static String expand(Path root, String subdir) throws Failure, IOException {
        List<String> parts = clean(subdir);
        if (parts == null) {
            // Above the package: nothing there belongs to it.
            throw new Failure("subdir " + GoQuote.quote(subdir) + " not found");
        }
        List<Component> pattern = new ArrayList<>();
        for (String p : parts) {
            pattern.add(Component.parse(p));
        }
        if (pattern.isEmpty()) {
            return "";
        }
        List<Path> current = List.of(root);
        for (int i = 0; i < pattern.size(); i++) {
            Component c = pattern.get(i);
            boolean last = i == pattern.size() - 1;
            List<Path> next = new ArrayList<>();
            for (Path dir : current) {
                if (c.literal() != null) {
                    Path p = dir.resolve(c.literal());
                    // A literal last part must exist (whatever it is); a literal inner part is checked when the
                    // next part looks inside it.
                    if (!last || Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                        next.add(p);
                    }
                } else if (Files.isDirectory(dir)) {
                    for (String name : sortedNames(dir)) {
                        if (c.matches(name)) {
                            next.add(dir.resolve(name));
                        }
                    }
                }
            }
            current = next;
        }
        if (current.isEmpty()) {
            throw new Failure("subdir " + GoQuote.quote(subdir) + " not found");
        }
        if (current.size() > 1) {
            throw new Failure("subdir " + GoQuote.quote(subdir) + " matches multiple paths");
        }
        return root.relativize(current.get(0)).toString().replace('\\', '/');
    }

    /**
     * The parts of a relative path made clean as Go's {@code filepath.Clean} makes it (empty and {@code .}
     * parts dropped, {@code ..} taking away the part before it), or null when it leads above its start.
     */
    static List<String> clean(String subdir) {
        List<String> out = new ArrayList<>();
        for (String part : subdir.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                if (out.isEmpty()) {
                    return null;
                }
                out.remove(out.size() - 1);
                continue;
            }
            out.add(part);
        }
        return out;
    }

    private static List<String> sortedNames(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            // Go sorts names by their bytes; for UTF-8 that is the order of their code points.
            return s.map(p -> p.getFileName().toString())
                    .sorted(dev.strata.lang.value.ValueOrder::compareStrings)
                    .toList();
        }
    }

    /** One part of the pattern (between {@code /}s): a name to take as it is, or terms to match. */
    private record Component(String literal, List<Term> terms) {
        static Component parse(String part) throws Failure {
            if (part.chars().noneMatch(c -> c == '*' || c == '?' || c == '[' || c == '\\')) {
                return new Component(part, List.of());
            }
            List<Term> terms = new ArrayList<>();
            int i = 0;
            while (i < part.length()) {
                int c = part.codePointAt(i);
                i += Character.charCount(c);
                switch (c) {
                    case '*' -> terms.add(new Term.Star());
                    case '?' -> terms.add(new Term.One());
                    case '\\' -> {
                        if (i >= part.length()) {
                            throw bad();
                        }
                        int q = part.codePointAt(i);
                        i += Character.charCount(q);
                        terms.add(new Term.Char(q));
                    }
                    case '[' -> i = parseClass(part, i, terms);
                    default -> terms.add(new Term.Char(c));
                }
            }
            return new Component(null, terms);
        }

        /** A class after its {@code [}: its ranges up to the {@code ]}; returns where the pattern goes on. */
        private static int parseClass(String part, int i, List<Term> terms) throws Failure {
            boolean negated = i < part.length() && part.charAt(i) == '^';
            if (negated) {
                i++;
            }
            List<int[]> ranges = new ArrayList<>();
            while (true) {
                if (i >= part.length()) {
                    throw bad();
                }
                if (part.charAt(i) == ']' && !ranges.isEmpty()) {
                    terms.add(new Term.Class(negated, ranges));
                    return i + 1;
                }
                int[] lo = classChar(part, i);
                i = lo[1];
                int hi = lo[0];
                if (i < part.length() && part.charAt(i) == '-') {
                    int[] h = classChar(part, i + 1);
                    hi = h[0];
                    i = h[1];
                }
                ranges.add(new int[] {lo[0], hi});
            }
        }

        /** One character of a class, {@code \} quoting the next; a bare {@code -} or {@code ]} is malformed. */
        private static int[] classChar(String part, int i) throws Failure {
            if (i >= part.length()) {
                throw bad();
            }
            int c = part.codePointAt(i);
            if (c == '-' || c == ']') {
                throw bad();
            }
            i += Character.charCount(c);
            if (c == '\\') {
                if (i >= part.length()) {
                    throw bad();
                }
                c = part.codePointAt(i);
                i += Character.charCount(c);
            }
            return new int[] {c, i};
        }

        private static Failure bad() {
            return new Failure("syntax error in pattern");
        }

        boolean matches(String name) {
            return match(terms, 0, name.codePoints().toArray(), 0);
        }

        private static boolean match(List<Term> terms, int t, int[] name, int n) {
            if (t == terms.size()) {
                return n == name.length;
            }
            Term term = terms.get(t);
            if (term instanceof Term.Star) {
                for (int k = n; k <= name.length; k++) {
                    if (match(terms, t + 1, name, k)) {
                        return true;
                    }
                }
                return false;
            }
            return n < name.length && term.accepts(name[n]) && match(terms, t + 1, name, n + 1);
        }
    }

    private sealed interface Term {
        default boolean accepts(int c) {
            return false;
        }

        record Star() implements Term {}

        record One() implements Term {
            @Override
            public boolean accepts(int c) {
                return true;
            }
        }

        record Char(int c) implements Term {
            @Override
            public boolean accepts(int x) {
                return x == c;
            }
        }

        record Class(boolean negated, List<int[]> ranges) implements Term {
            @Override
            public boolean accepts(int c) {
                boolean in = ranges.stream().anyMatch(r -> r[0] <= c && c <= r[1]);
                return in != negated;
            }
        }
    }
}
