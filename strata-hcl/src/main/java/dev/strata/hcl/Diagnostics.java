package dev.strata.hcl;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/** An immutable list of diagnostics. */
public final class Diagnostics implements Iterable<Diagnostic> {
    public static final Diagnostics NONE = new Diagnostics(List.of());

    private final List<Diagnostic> items;

    private Diagnostics(List<Diagnostic> items) {
        this.items = items;
    }

    public static Diagnostics of(Diagnostic... ds) {
        return ds.length == 0 ? NONE : new Diagnostics(List.of(ds));
    }

    public static Diagnostics of(List<Diagnostic> ds) {
        return ds.isEmpty() ? NONE : new Diagnostics(List.copyOf(ds));
    }

    public Diagnostics with(Diagnostic d) {
        List<Diagnostic> l = new ArrayList<>(items.size() + 1);
        l.addAll(items);
        l.add(d);
        return new Diagnostics(Collections.unmodifiableList(l));
    }

    public Diagnostics with(Diagnostics other) {
        if (other.items.isEmpty()) {
            return this;
        }
        if (items.isEmpty()) {
            return other;
        }
        List<Diagnostic> l = new ArrayList<>(items.size() + other.items.size());
        l.addAll(items);
        l.addAll(other.items);
        return new Diagnostics(Collections.unmodifiableList(l));
    }

    public boolean hasErrors() {
        for (Diagnostic d : items) {
            if (d.isError()) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    public int size() {
        return items.size();
    }

    public List<Diagnostic> asList() {
        return items;
    }

    /**
     * The order a terminal shows them in, as Terraform's human output: warnings first, then placeless ones,
     * then by file and position, summary, detail.
     */
    public Diagnostics sorted() {
        return sortedBy(Diagnostic.ORDER);
    }

    /**
     * The order of machine-readable output (JSON), where Terraform does not sort and keeps the order they arose
     * in: placeless first, then by file and position, then severity, summary, detail, which is deterministic.
     */
    public Diagnostics inPlaceOrder() {
        return sortedBy(Diagnostic.PLACE_ORDER);
    }

    private Diagnostics sortedBy(java.util.Comparator<Diagnostic> order) {
        List<Diagnostic> l = new ArrayList<>(items);
        l.sort(order);
        return new Diagnostics(Collections.unmodifiableList(l));
    }

    @Override
    public Iterator<Diagnostic> iterator() {
        return items.iterator();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Diagnostics d && d.items.equals(items);
    }

    @Override
    public int hashCode() {
        return items.hashCode();
    }

    @Override
    public String toString() {
        return items.toString();
    }

    /** A mutable collector for code that produces many diagnostics in one pass. */
    public static final class Builder {
        private final List<Diagnostic> items = new ArrayList<>();

        public Builder add(Diagnostic d) {
            items.add(d);
            return this;
        }

        public Builder addAll(Diagnostics ds) {
            items.addAll(ds.items);
            return this;
        }

        public Builder error(String summary, String detail, SourceRange subject) {
            return add(Diagnostic.error(summary, detail, subject));
        }

        public boolean hasErrors() {
            for (Diagnostic d : items) {
                if (d.isError()) {
                    return true;
                }
            }
            return false;
        }

        public int size() {
            return items.size();
        }

        public Diagnostics build() {
            return Diagnostics.of(items);
        }
    }

    public static Builder builder() {
        return new Builder();
    }
}
