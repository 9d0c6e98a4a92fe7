package dev.strata.provider;

import dev.strata.addr.AttributePath;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.SourceRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** An immutable list of {@link ProviderDiagnostic}s, with the failure classification of its errors. */
public final class ProviderDiagnostics implements Iterable<ProviderDiagnostic> {

    public static final ProviderDiagnostics NONE = new ProviderDiagnostics(List.of());

    private final List<ProviderDiagnostic> items;

    private ProviderDiagnostics(List<ProviderDiagnostic> items) {
        this.items = items;
    }

    public static ProviderDiagnostics of(ProviderDiagnostic... ds) {
        return ds.length == 0 ? NONE : new ProviderDiagnostics(List.of(ds));
    }

    public static ProviderDiagnostics of(List<ProviderDiagnostic> ds) {
        return ds.isEmpty() ? NONE : new ProviderDiagnostics(List.copyOf(ds));
    }

    public static ProviderDiagnostics error(String summary, String detail) {
        return of(ProviderDiagnostic.error(summary, detail));
    }

    public ProviderDiagnostics with(ProviderDiagnostic d) {
        List<ProviderDiagnostic> l = new ArrayList<>(items);
        l.add(d);
        return new ProviderDiagnostics(List.copyOf(l));
    }

    public ProviderDiagnostics with(ProviderDiagnostics other) {
        if (other.items.isEmpty()) {
            return this;
        }
        if (items.isEmpty()) {
            return other;
        }
        List<ProviderDiagnostic> l = new ArrayList<>(items);
        l.addAll(other.items);
        return new ProviderDiagnostics(List.copyOf(l));
    }

    public boolean hasErrors() {
        return items.stream().anyMatch(ProviderDiagnostic::isError);
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    public List<ProviderDiagnostic> asList() {
        return items;
    }

    /**
     * How the errors should be treated: empty when there is no error; transient only when every
     * error is transient (then the longest retry-after any of them asked for); otherwise the
     * first permanent or unavailable one, since retrying cannot fix those.
     */
    public Optional<Failure> failure() {
        boolean anyError = false;
        Optional<Duration> wait = Optional.empty();
        for (ProviderDiagnostic d : items) {
            if (!d.isError()) {
                continue;
            }
            anyError = true;
            switch (d.failure()) {
                case Failure.Permanent p -> {
                    return Optional.of(p);
                }
                case Failure.Unavailable u -> {
                    return Optional.of(u);
                }
                case Failure.Transient t -> {
                    if (t.retryAfter().isPresent()
                            && (wait.isEmpty() || t.retryAfter().get().compareTo(wait.get()) > 0)) {
                        wait = t.retryAfter();
                    }
                }
            }
        }
        return anyError ? Optional.of(new Failure.Transient(wait)) : Optional.empty();
    }

    /** These problems as user-facing diagnostics, each placed where {@code locate} says (it may return null). */
    public Diagnostics toDiagnostics(Function<AttributePath, SourceRange> locate) {
        Diagnostics.Builder b = Diagnostics.builder();
        for (ProviderDiagnostic d : items) {
            b.add(d.toDiagnostic(d.attribute() == null ? null : locate.apply(d.attribute())));
        }
        return b.build();
    }

    /** These problems as user-facing diagnostics without source locations. */
    public Diagnostics toDiagnostics() {
        return toDiagnostics(p -> null);
    }

    @Override
    public Iterator<ProviderDiagnostic> iterator() {
        return items.iterator();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProviderDiagnostics d && d.items.equals(items);
    }

    @Override
    public int hashCode() {
        return items.hashCode();
    }

    @Override
    public String toString() {
        return items.toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects diagnostics during one operation. */
    public static final class Builder {
        private final List<ProviderDiagnostic> items = new ArrayList<>();

        private Builder() {}

        public Builder add(ProviderDiagnostic d) {
            items.add(d);
            return this;
        }

        public Builder addAll(ProviderDiagnostics ds) {
            items.addAll(ds.items);
            return this;
        }

        public Builder error(String summary, String detail, AttributePath attribute) {
            return add(ProviderDiagnostic.error(summary, detail, attribute));
        }

        public boolean hasErrors() {
            return items.stream().anyMatch(ProviderDiagnostic::isError);
        }

        public ProviderDiagnostics build() {
            return of(items);
        }
    }
}
