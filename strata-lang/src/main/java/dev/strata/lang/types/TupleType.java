package dev.strata.lang.types;

import java.util.List;

/** A fixed-length sequence whose elements each have their own type. */
public record TupleType(List<Type> elems) implements Type {
    public TupleType {
        elems = List.copyOf(elems);
    }

    @Override
    public String toString() {
        return typeExpr();
    }
}
