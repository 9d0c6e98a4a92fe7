package dev.strata.lang.value;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Converts values between types with Terraform's rules: number and bool to string, the strings
 * {@code "true"}/{@code "false"} to bool and decimal strings to number, tuples to lists and sets
 * when their elements unify, objects to maps and maps to objects, lists and sets to each other.
 * A null converts to the null of the target type and an unknown to the unknown of it. Marks are
 * kept, at every depth.
 */
public final class Convert {
    private Convert() {}

    /** Converts {@code v} to {@code target}; the target may contain the dynamic type. */
    public static ConversionResult convert(Value v, Type target) {
        try {
            return new ConversionResult.Ok(conv(v, target, ""));
        } catch (Mismatch m) {
            return new ConversionResult.Failed(m.getMessage());
        }
    }

    /** Whether some value of type {@code from} could convert to {@code to}. */
    public static boolean canConvert(Type from, Type to) {
        return typeError(from, to) == null;
    }

    /** Parses a decimal number the way Terraform reads one from a string, or empty. */
    public static Optional<BigDecimal> parseNumber(String s) {
        if (s.isEmpty()
                || s.chars()
                        .anyMatch(c -> !(Character.isDigit(c) && c < 128)
                                && c != '.'
                                && c != '-'
                                && c != '+'
                                && c != 'e'
                                && c != 'E')) {
            return Optional.empty();
        }
        try {
            return Optional.of(new BigDecimal(s));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Unwinds a failed conversion; only ever caught in this class. */
    private static final class Mismatch extends RuntimeException {
        Mismatch(String path, String msg) {
            super(path.isEmpty() ? msg : path + ": " + msg, null, false, false);
        }
    }

    private static Value conv(Value v, Type target, String path) {
        if (target instanceof DynamicType) {
            return v;
        }
        if (v.isMarked()) {
            return conv(v.unmark(), target, path).withMarks(v.marks());
        }
        if (v.type().equals(target)) {
            return v;
        }
        if (!v.isKnown() || v.isNull()) {
            String err = typeError(v.type(), target);
            if (err != null) {
                throw new Mismatch(path, err);
            }
            Type concrete = concretize(target);
            return v.isNull() ? Value.nullValue(concrete) : Value.unknown(concrete);
        }
        return switch (target) {
            case PrimitiveType p -> primitive(v, p, path);
            case ListType l -> {
                checkTupleNulls(v, l.elem(), path, "list");
                List<Value> elems = convertAll(sequence(v, l.elem(), path, "list"), l.elem(), path);
                Type et = collectionElemType(l.elem(), elems, path, "list");
                yield Value.list(et, convertAll(elems, et, path));
            }
            case SetType s -> {
                checkTupleNulls(v, s.elem(), path, "set");
                List<Value> elems = convertAll(sequence(v, s.elem(), path, "set"), s.elem(), path);
                Type et = collectionElemType(s.elem(), elems, path, "set");
                yield Value.set(et, convertAll(elems, et, path));
            }
            case MapType m -> {
                Map<String, Value> entries = mapping(v, m, path);
                List<Value> vals = new ArrayList<>(entries.values());
                Type elemType = collectionElemType(m.elem(), vals, path, "map");
                Map<String, Value> out = new LinkedHashMap<>();
                entries.forEach((k, e) ->
                        out.put(k, elemType.equals(m.elem()) ? e : conv(e, elemType, elemPath(path, k))));
                yield Value.map(elemType, out);
            }
            case TupleType t -> tuple(v, t, path);
            case ObjectType o -> object(v, o, path);
            case DynamicType d -> v;
        };
    }

    /**
     * Terraform cannot turn a tuple into a list or set of any type when an untyped null or
     * unknown sits beside a collection or structural element ({@code tolist([null, [1]])} fails
     * while {@code tolist([null, 1])} works); match that.
     */
    private static void checkTupleNulls(Value v, Type elem, String path, String kind) {
        if (!(v.type() instanceof TupleType t) || !(elem instanceof DynamicType)) {
            return;
        }
        boolean untyped = t.elems().stream().anyMatch(e -> e instanceof DynamicType);
        boolean complex =
                t.elems().stream().anyMatch(e -> !(e instanceof DynamicType) && !(e instanceof PrimitiveType));
        if (untyped && complex) {
            throw new Mismatch(path, "all " + kind + " elements must have the same type");
        }
    }

    /** Replaces dynamic parts of a constraint type for a null or unknown result. */
    private static Type concretize(Type t) {
        return t instanceof ObjectType o ? o.withoutOptional() : t;
    }

    private static Value primitive(Value v, PrimitiveType p, String path) {
        Type from = v.type();
        switch (p) {
            case STRING -> {
                if (from == Type.NUMBER) {
                    return Value.string(v.numberText());
                }
                if (from == Type.BOOL) {
                    return Value.string(Boolean.toString(v.asBool()));
                }
            }
            case NUMBER -> {
                if (from == Type.STRING) {
                    String text = v.asString();
                    return parseNumber(text)
                            .map(n -> n.signum() == 0 && text.startsWith("-") ? Value.NEGATIVE_ZERO : Value.number(n))
                            .orElseThrow(() -> new Mismatch(path, "a number is required"));
                }
            }
            case BOOL -> {
                if (from == Type.STRING) {
                    return switch (v.asString()) {
                        case "true", "1" -> Value.TRUE;
                        case "false", "0" -> Value.FALSE;
                        default -> throw new Mismatch(path, "a bool is required");
                    };
                }
            }
        }
        throw new Mismatch(path, p.keyword() + " required");
    }

    private static List<Value> sequence(Value v, Type elem, String path, String kind) {
        return switch (v.type()) {
            case ListType l -> v.elements();
            case SetType s -> v.elements();
            case TupleType t -> v.elements();
            case PrimitiveType prim0 ->
                throw new Mismatch(path, required(Type.list(elem)).replaceFirst("^list", kind));
            case MapType mapt0 ->
                throw new Mismatch(path, required(Type.list(elem)).replaceFirst("^list", kind));
            case ObjectType obje0 ->
                throw new Mismatch(path, required(Type.list(elem)).replaceFirst("^list", kind));
            case DynamicType dyna0 ->
                throw new Mismatch(path, required(Type.list(elem)).replaceFirst("^list", kind));
        };
    }

    private static List<Value> convertAll(List<Value> elems, Type elem, String path) {
        List<Value> out = new ArrayList<>(elems.size());
        for (int i = 0; i < elems.size(); i++) {
            out.add(conv(elems.get(i), elem, elemPath(path, i)));
        }
        return out;
    }

    /**
     * The element type of a converted collection: the declared one, or, when it contains the
     * dynamic type, the unified type of the converted elements (which are then converted to it).
     */
    private static Type collectionElemType(Type declared, List<Value> converted, String path, String kind) {
        if (!declared.hasDynamic()) {
            return declared;
        }
        List<Type> types = new ArrayList<>();
        for (Value e : converted) {
            types.add(e.type());
        }
        Type u = Unify.unify(types)
                .orElseThrow(() -> new Mismatch(path, "all " + kind + " elements must have the same type"));
        return u;
    }

    private static Map<String, Value> mapping(Value v, MapType m, String path) {
        if (!(v.type() instanceof MapType || v.type() instanceof ObjectType)) {
            throw new Mismatch(path, required(m));
        }
        Map<String, Value> out = new LinkedHashMap<>();
        v.attributes().forEach((k, e) -> out.put(k, conv(e, m.elem(), elemPath(path, k))));
        return out;
    }

    private static Value tuple(Value v, TupleType t, String path) {
        if (!(v.type() instanceof TupleType || v.type() instanceof ListType)) {
            throw new Mismatch(path, "tuple required");
        }
        List<Value> elems = v.elements();
        if (elems.size() != t.elems().size()) {
            throw new Mismatch(path, "tuple required with exactly " + t.elems().size() + " elements");
        }
        List<Value> out = new ArrayList<>();
        for (int i = 0; i < elems.size(); i++) {
            out.add(conv(elems.get(i), t.elems().get(i), elemPath(path, i)));
        }
        return Value.tuple(out);
    }

    private static Value object(Value v, ObjectType o, String path) {
        if (!(v.type() instanceof ObjectType || v.type() instanceof MapType)) {
            throw new Mismatch(path, "object required");
        }
        Map<String, Value> given = v.attributes();
        Map<String, Value> out = new LinkedHashMap<>();
        for (Map.Entry<String, Type> a : o.attrs().entrySet()) {
            Value av = given.get(a.getKey());
            String ap = attrPath(path, a.getKey());
            if (av == null) {
                if (!o.isOptional(a.getKey())) {
                    throw new Mismatch(path, "attribute " + Quote.quote(a.getKey()) + " is required");
                }
                out.put(a.getKey(), Value.nullValue(concretize(a.getValue())));
            } else {
                out.put(a.getKey(), conv(av, a.getValue(), ap));
            }
        }
        return Value.object(out);
    }

    private static String elemPath(String path, int i) {
        return path.isEmpty() ? "element " + i : path + "[" + i + "]";
    }

    private static String elemPath(String path, String key) {
        return path.isEmpty() ? "element " + Quote.quote(key) : path + "[" + Quote.quote(key) + "]";
    }

    private static String attrPath(String path, String name) {
        return path.isEmpty() ? "attribute " + Quote.quote(name) : path + "." + name;
    }

    /** Why no value of {@code from} converts to {@code to}, or null if some value might. */
    private static String typeError(Type from, Type to) {
        if (from instanceof DynamicType || to instanceof DynamicType || from.equals(to)) {
            return null;
        }
        return switch (to) {
            case PrimitiveType p ->
                from instanceof PrimitiveType fp && convertiblePrimitive(fp, p) ? null : p.keyword() + " required";
            case ListType l -> elemTypeError(from, l.elem(), to);
            case SetType s -> elemTypeError(from, s.elem(), to);
            case MapType m ->
                switch (from) {
                    case MapType fm -> typeError(fm.elem(), m.elem());
                    case ObjectType fo ->
                        fo.attrs().values().stream()
                                .map(t -> typeError(t, m.elem()))
                                .filter(e -> e != null)
                                .findFirst()
                                .orElse(null);
                    case PrimitiveType prim0 -> required(to);
                    case ListType list0 -> required(to);
                    case SetType sett0 -> required(to);
                    case TupleType tupl0 -> required(to);
                    case DynamicType dyna0 -> required(to);
                };
            case TupleType t ->
                from instanceof TupleType ft && ft.elems().size() == t.elems().size() || from instanceof ListType
                        ? null
                        : "tuple required";
            case ObjectType o -> from instanceof ObjectType || from instanceof MapType ? null : "object required";
            case DynamicType d -> null;
        };
    }

    private static String elemTypeError(Type from, Type elem, Type to) {
        return switch (from) {
            case ListType fl -> typeError(fl.elem(), elem);
            case SetType fs -> typeError(fs.elem(), elem);
            case TupleType ft ->
                ft.elems().stream()
                        .map(t -> typeError(t, elem))
                        .filter(e -> e != null)
                        .findFirst()
                        .orElse(null);
            case PrimitiveType prim0 -> required(to);
            case MapType mapt0 -> required(to);
            case ObjectType obje0 -> required(to);
            case DynamicType dyna0 -> required(to);
        };
    }

    /** cty's mismatch wording: "list of string required", "set of any single type required". */
    private static String required(Type t) {
        return friendly(t) + " required";
    }

    private static String friendly(Type t) {
        Type e = t.elementType();
        if (e == null) {
            return t.friendlyName();
        }
        String kind = t.friendlyName().substring(0, t.friendlyName().indexOf(" of "));
        return kind + " of " + (e instanceof DynamicType ? "any single type" : friendly(e));
    }

    private static boolean convertiblePrimitive(PrimitiveType from, PrimitiveType to) {
        return from == to || to == PrimitiveType.STRING || from == PrimitiveType.STRING;
    }
}
