package dev.strata.lang.types;

import java.util.Map;
import java.util.stream.Collectors;

/** Renderings of types as text; kept out of the type records so they stay plain data. */
final class TypeRendering {
    private TypeRendering() {}

    static String friendlyName(Type t) {
        return switch (t) {
            case PrimitiveType p -> p.keyword();
            case DynamicType d -> "dynamic";
            case ListType l -> "list of " + friendlyName(l.elem());
            case SetType s -> "set of " + friendlyName(s.elem());
            case MapType m -> "map of " + friendlyName(m.elem());
            case ObjectType o -> "object";
            case TupleType u -> "tuple";
        };
    }

    static String typeExpr(Type t) {
        return switch (t) {
            case PrimitiveType p -> p.keyword();
            case DynamicType d -> "any";
            case ListType l -> "list(" + typeExpr(l.elem()) + ")";
            case SetType s -> "set(" + typeExpr(s.elem()) + ")";
            case MapType m -> "map(" + typeExpr(m.elem()) + ")";
            case TupleType u ->
                u.elems().stream().map(TypeRendering::typeExpr).collect(Collectors.joining(",", "tuple([", "])"));
            case ObjectType o ->
                o.attrs().entrySet().stream()
                        .map(e -> e.getKey() + "=" + attrExpr(o, e))
                        .collect(Collectors.joining(",", "object({", "})"));
        };
    }

    private static String attrExpr(ObjectType o, Map.Entry<String, Type> e) {
        String inner = typeExpr(e.getValue());
        return o.isOptional(e.getKey()) ? "optional(" + inner + ")" : inner;
    }

    static String console(Type t, int indent) {
        String pad = "    ".repeat(indent + 1);
        String close = "    ".repeat(indent);
        return switch (t) {
            case PrimitiveType p -> p.keyword();
            case DynamicType d -> "dynamic";
            case ListType l -> collection("list", l.elem(), indent);
            case SetType s -> collection("set", s.elem(), indent);
            case MapType m -> collection("map", m.elem(), indent);
            case TupleType u -> {
                if (u.elems().isEmpty()) {
                    yield "tuple([])";
                }
                StringBuilder b = new StringBuilder("tuple([\n");
                for (Type e : u.elems()) {
                    b.append(pad).append(console(e, indent + 1)).append(",\n");
                }
                yield b.append(close).append("])").toString();
            }
            case ObjectType o -> {
                if (o.attrs().isEmpty()) {
                    yield "object({})";
                }
                StringBuilder b = new StringBuilder("object({\n");
                for (Map.Entry<String, Type> e : o.attrs().entrySet()) {
                    b.append(pad)
                            .append(e.getKey())
                            .append(": ")
                            .append(console(e.getValue(), indent + 1))
                            .append(",\n");
                }
                yield b.append(close).append("})").toString();
            }
        };
    }

    private static String collection(String kind, Type elem, int indent) {
        if (elem.isStructural()) {
            return kind + "(\n" + "    ".repeat(indent + 1) + console(elem, indent + 1) + ",\n" + "    ".repeat(indent)
                    + ")";
        }
        return kind + "(" + console(elem, indent) + ")";
    }
}
