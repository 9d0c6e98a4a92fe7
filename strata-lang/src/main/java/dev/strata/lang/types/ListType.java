package dev.strata.lang.types;

import java.util.Objects;

/** A list whose elements all have type {@code elem}. */
public record ListType(Type elem) implements Type {
    public ListType {
        Objects.requireNonNull(elem, "elem");
    }

    @Override
    public String toString() {
        return typeExpr();
    }
}
