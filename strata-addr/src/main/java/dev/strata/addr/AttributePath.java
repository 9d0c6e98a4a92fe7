package dev.strata.addr;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A path from the root of an object to a value inside it: attribute names and element keys (a
 * number for lists and tuples, a string for maps). The plugin protocol's {@code AttributePath}
 * (requires-replace paths, diagnostics) and the state's {@code sensitive_attributes} use only these
 * three steps, so one type serves both.
 */
public record AttributePath(List<Step> steps) {

    public static final AttributePath ROOT = new AttributePath(List.of());

    /** One step of a path. */
    public sealed interface Step {}

    /** Selects an attribute of an object. */
    public record Attr(String name) implements Step {
        public Attr {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Selects a map element by its key. */
    public record IndexString(String key) implements Step {
        public IndexString {
            Objects.requireNonNull(key, "key");
        }
    }

    /**
     * Selects a list or tuple element. The number keeps its scale, so a state file's index text
     * ({@code 0}, {@code 1.0}) is written back as it was read.
     */
    public record IndexNumber(BigDecimal index) implements Step {
        public IndexNumber {
            Objects.requireNonNull(index, "index");
        }
    }

    public AttributePath {
        steps = List.copyOf(steps);
    }

    /** A path of attribute names only, e.g. {@code of("rule", "cidr")}. */
    public static AttributePath of(String... names) {
        AttributePath p = ROOT;
        for (String n : names) {
            p = p.attr(n);
        }
        return p;
    }

    public AttributePath attr(String name) {
        return with(new Attr(name));
    }

    public AttributePath index(long i) {
        return with(new IndexNumber(BigDecimal.valueOf(i)));
    }

    public AttributePath index(BigDecimal i) {
        return with(new IndexNumber(i));
    }

    public AttributePath key(String k) {
        return with(new IndexString(k));
    }

    private AttributePath with(Step s) {
        List<Step> l = new ArrayList<>(steps.size() + 1);
        l.addAll(steps);
        l.add(s);
        return new AttributePath(l);
    }

    public boolean isRoot() {
        return steps.isEmpty();
    }

    /** Whether this path starts with all of {@code prefix}'s steps. */
    public boolean startsWith(AttributePath prefix) {
        return prefix.steps.size() <= steps.size()
                && steps.subList(0, prefix.steps.size()).equals(prefix.steps);
    }

    /** Terraform's rendering in provider diagnostics, e.g. {@code rule[0].cidr} or {@code tags["env"]}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Step s : steps) {
            switch (s) {
                case Attr a -> {
                    if (!b.isEmpty()) {
                        b.append('.');
                    }
                    b.append(a.name());
                }
                case IndexNumber n ->
                    b.append('[').append(n.index().toPlainString()).append(']');
                case IndexString k ->
                    b.append("[\"")
                            .append(k.key().replace("\\", "\\\\").replace("\"", "\\\""))
                            .append("\"]");
            }
        }
        return b.toString();
    }

    /**
     * The rendering used for state paths, e.g. {@code .tags["Name"]}: every attribute with a leading
     * dot, keys as the compact JSON Terraform writes for them (Go's escaping).
     */
    public String stateText() {
        StringBuilder b = new StringBuilder();
        for (Step s : steps) {
            switch (s) {
                case Attr a -> b.append('.').append(a.name());
                case IndexNumber n ->
                    b.append('[').append(n.index().toPlainString()).append(']');
                case IndexString k -> {
                    b.append("[\"");
                    k.key().chars().forEach(c -> b.append(goEscaped((char) c)));
                    b.append("\"]");
                }
            }
        }
        return b.toString();
    }

    private static String goEscaped(char c) {
        return switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            case '<', '>', '&', '\u2028', '\u2029' -> String.format("\\u%04x", (int) c);
            default -> c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c);
        };
    }
}
