package dev.strata.lang.types;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Terraform type. The set of variants is closed so that every {@code switch} over a type is
 * checked for exhaustiveness by the compiler.
 */
public sealed interface Type permits PrimitiveType, ListType, SetType, MapType, ObjectType, TupleType, DynamicType {

    Type STRING = PrimitiveType.STRING;
    Type NUMBER = PrimitiveType.NUMBER;
    Type BOOL = PrimitiveType.BOOL;
    Type DYNAMIC = DynamicType.INSTANCE;

    static ListType list(Type elem) {
        return new ListType(elem);
    }

    static SetType set(Type elem) {
        return new SetType(elem);
    }

    static MapType map(Type elem) {
        return new MapType(elem);
    }

    static TupleType tuple(List<? extends Type> elems) {
        return new TupleType(List.copyOf(elems));
    }

    static ObjectType object(Map<String, ? extends Type> attrs) {
        return new ObjectType(new TreeMap<>(attrs), java.util.Set.of());
    }

    static ObjectType emptyObject() {
        return new ObjectType(new TreeMap<>(), java.util.Set.of());
    }

    /** Element type of a list, set or map; {@code null} for other types. */
    default Type elementType() {
        return switch (this) {
            case ListType l -> l.elem();
            case SetType s -> s.elem();
            case MapType m -> m.elem();
            case PrimitiveType p -> null;
            case ObjectType o -> null;
            case TupleType t -> null;
            case DynamicType d -> null;
        };
    }

    default boolean isPrimitive() {
        return this instanceof PrimitiveType;
    }

    default boolean isCollection() {
        return this instanceof ListType || this instanceof SetType || this instanceof MapType;
    }

    default boolean isStructural() {
        return this instanceof ObjectType || this instanceof TupleType;
    }

    /** True if the type or any type nested in it is {@link DynamicType}. */
    default boolean hasDynamic() {
        return switch (this) {
            case DynamicType d -> true;
            case PrimitiveType p -> false;
            case ListType l -> l.elem().hasDynamic();
            case SetType s -> s.elem().hasDynamic();
            case MapType m -> m.elem().hasDynamic();
            case TupleType t -> t.elems().stream().anyMatch(Type::hasDynamic);
            case ObjectType o -> o.attrs().values().stream().anyMatch(Type::hasDynamic);
        };
    }

    /**
     * Terraform's short human name, used in error messages and in the console's null rendering:
     * {@code string}, {@code list of string}, {@code map of number}, {@code object}, {@code tuple},
     * {@code dynamic}.
     */
    default String friendlyName() {
        return TypeRendering.friendlyName(this);
    }

    /**
     * The type as a one-line type-constraint expression, for example {@code list(string)} or
     * {@code object({a=number,b=optional(string)})}; {@code any} for the dynamic type.
     */
    default String typeExpr() {
        return TypeRendering.typeExpr(this);
    }

    /**
     * The type in the multi-line layout the console's {@code type()} function prints, with
     * {@code dynamic} for the dynamic type and 4-space indentation.
     */
    default String consoleTypeString() {
        return TypeRendering.console(this, 0);
    }
}
