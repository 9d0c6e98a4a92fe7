package dev.strata.lang.types;

import java.util.Objects;

/** A map whose elements all have type {@code elem}. */
public record MapType(Type elem) implements Type {
    public MapType {
        Objects.requireNonNull(elem, "elem");
    }

    @Override
    public String toString() {
        return typeExpr();
    }
}
