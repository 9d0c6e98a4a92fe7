package dev.strata.lang.types;

import java.util.Objects;

/** A set whose elements all have type {@code elem}. */
public record SetType(Type elem) implements Type {
    public SetType {
        Objects.requireNonNull(elem, "elem");
    }

    @Override
    public String toString() {
        return typeExpr();
    }
}
