package dev.strata.lang.funcs;

import static dev.strata.lang.funcs.Dsl.p;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Unify;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Collection functions over lists, sets, tuples, maps and objects. */
final class CollectionFuncs {
    private CollectionFuncs() {}

    static final Type LIST_ANY = Type.list(Type.DYNAMIC);

    static boolean isSeq(Type t) {
        return t instanceof ListType || t instanceof SetType || t instanceof TupleType;
    }

    static boolean isMapping(Type t) {
        return t instanceof MapType || t instanceof ObjectType;
    }

    static void register(Functions.Registry r) {
        r.add(boolFold("alltrue", true));
        r.add(boolFold("anytrue", false));
        r.add(Function.builder("chunklist")
                .param(Dsl.partial("list", LIST_ANY))
                .param("size", Type.NUMBER)
                .returns(a -> Type.list(a.get(0).type()))
                .impl(Dsl.shallow(CollectionFuncs::chunklist))
                .build());
        r.add(Function.builder("coalesce")
                .varParam(new Param("vals", Type.DYNAMIC, true, true, false))
                .returns(CollectionFuncs::coalesceType)
                .impl(CollectionFuncs::coalesce)
                .build());
        r.add(Function.builder("coalescelist")
                .varParam(new Param("vals", Type.DYNAMIC, true, true, false))
                .returns(CollectionFuncs::coalescelistType)
                .impl(CollectionFuncs::coalescelist)
                .build());
        r.add(Function.builder("compact")
                .param("list", Type.list(Type.STRING))
                .returns(Type.list(Type.STRING))
                .impl((a, t) -> {
                    List<Value> out = new ArrayList<>();
                    for (Value e : a.get(0).elements()) {
                        if (!e.isNull() && !e.asString().isEmpty()) {
                            out.add(e);
                        }
                    }
                    return Value.list(Type.STRING, out);
                })
                .build());
        // concat and merge keep marks where they are: a sensitive element stays one element.
        r.add(Function.builder("concat")
                .varParam(new Param("seqs", Type.DYNAMIC, false, true, true))
                .returns(a -> concatType(Args.unmarkTop(a)))
                .impl(Dsl.shallow((a, t) -> concat(Args.unmarkTop(a), t).withMarks(Args.topMarks(a))))
                .build());
        r.add(Function.builder("contains")
                .param(Param.of("list", Type.DYNAMIC).rejectingDynamicType())
                .param(new Param("value", Type.DYNAMIC, false, true, false).rejectingDynamicType())
                .returns(Type.BOOL)
                .impl(CollectionFuncs::contains)
                .build());
        r.add(Function.builder("distinct")
                .param("list", LIST_ANY)
                .returns(a -> a.get(0).type())
                .impl((a, t) -> {
                    LinkedHashSet<Value> seen = new LinkedHashSet<>(a.get(0).elements());
                    return Value.list(((ListType) t).elem(), List.copyOf(seen));
                })
                .build());
        r.add(Function.builder("element")
                .param(Dsl.partial("list", Type.DYNAMIC))
                .param("index", Type.NUMBER)
                .returns(CollectionFuncs::elementType)
                .impl(Dsl.shallow((a, t) -> {
                    List<Value> elems = a.get(0).elements();
                    return elems.get(elementIndex(a, elems.size(), a.get(0).type() instanceof TupleType));
                }))
                .build());
        r.add(Function.builder("flatten")
                .param(Dsl.partial("list", Type.DYNAMIC))
                .returns(Type.DYNAMIC)
                .impl(Dsl.shallow((a, t) -> {
                    if (!isSeq(a.get(0).type())) {
                        throw FunctionError.call("can only flatten lists, sets and tuples");
                    }
                    List<Value> out = new ArrayList<>();
                    Set<Mark> marks = EnumSet.noneOf(Mark.class);
                    if (!flatten(a.get(0), out, marks)) {
                        return Value.DYNAMIC_UNKNOWN.withMarks(marks);
                    }
                    return Value.tuple(out).withMarks(marks);
                }))
                .build());
        r.add(Function.builder("index")
                .param(Param.of("list", Type.DYNAMIC).rejectingDynamicType())
                .param(Param.of("value", Type.DYNAMIC).rejectingDynamicType())
                .returns(Type.NUMBER)
                .impl((a, t) -> {
                    if (!(a.get(0).type() instanceof ListType || a.get(0).type() instanceof TupleType)) {
                        throw FunctionError.call("argument must be a list or tuple");
                    }
                    List<Value> elems = a.get(0).elements();
                    for (int i = 0; i < elems.size(); i++) {
                        if (equal(elems.get(i), a.get(1))) {
                            return Value.number(i);
                        }
                    }
                    throw FunctionError.call("item not found");
                })
                .build());
        // keys and length depend only on the shape, so only marks on the collection itself carry over.
        r.add(Function.builder("keys")
                .param(new Param("inputMap", Type.DYNAMIC, false, true, true))
                .returns(CollectionFuncs::keysType)
                .impl((a, t) -> {
                    Value m = a.get(0);
                    if (!m.isKnown()) {
                        return Value.unknown(t).withMarks(m.marks());
                    }
                    List<Value> ks = new ArrayList<>();
                    m.attributes().keySet().forEach(k -> ks.add(Value.string(k)));
                    return (t instanceof ListType ? Value.list(Type.STRING, ks) : Value.tuple(ks)).withMarks(m.marks());
                })
                .build());
        r.add(Function.builder("values")
                .param(Dsl.partial("mapping", Type.DYNAMIC))
                .returns(CollectionFuncs::valuesType)
                .impl(Dsl.shallow((a, t) -> {
                    List<Value> vs = new ArrayList<>(a.get(0).attributes().values());
                    return t instanceof ListType l ? Value.list(l.elem(), vs) : Value.tuple(vs);
                }))
                .build());
        r.add(Function.builder("length")
                .param(new Param("value", Type.DYNAMIC, false, true, true))
                .returns(a -> {
                    Type t = a.get(0).type();
                    if (!(t.equals(Type.STRING) || t.isCollection() || t.isStructural() || t instanceof DynamicType)) {
                        throw FunctionError.call("argument must be a string, a collection type, or a structural type");
                    }
                    return Type.NUMBER;
                })
                .impl((a, t) -> {
                    Value v = a.get(0);
                    return length(v.unmark()).withMarks(v.marks());
                })
                .build());
        r.add(Function.builder("lookup")
                .param(Dsl.partial("inputMap", Type.DYNAMIC))
                .param("key", Type.STRING)
                .varParam(new Param("default", Type.DYNAMIC, true, true, false))
                .returns(CollectionFuncs::lookupType)
                .impl((a, t) -> {
                    // Only the map must be known: a key that is found makes an unknown default irrelevant.
                    java.util.Set<dev.strata.lang.value.Mark> marks = Args.topMarks(a);
                    if (!a.get(0).isKnown()) {
                        return Value.unknown(t).withMarks(marks);
                    }
                    return lookup(Args.unmarkTop(a), t).withMarks(marks);
                })
                .build());
        r.add(Function.builder("matchkeys")
                .param("values", LIST_ANY)
                .param("keys", LIST_ANY)
                .param("searchset", LIST_ANY)
                .returns(a -> a.get(0).type())
                .impl(CollectionFuncs::matchkeys)
                .build());
        r.add(Function.builder("merge")
                .varParam(new Param("maps", Type.DYNAMIC, true, true, true))
                .returns(a -> mergeType(Args.unmarkTop(a)))
                .impl(Dsl.shallow((a, t) -> merge(Args.unmarkTop(a), t).withMarks(Args.topMarks(a))))
                .build());
        r.add(Function.builder("one")
                .param(Dsl.partial("list", Type.DYNAMIC))
                .returns(a -> {
                    Type t = a.get(0).type();
                    return switch (t) {
                        case ListType l -> l.elem();
                        case SetType s -> s.elem();
                        case TupleType u -> u.elems().size() == 1 ? u.elems().get(0) : Type.DYNAMIC;
                        case DynamicType d -> Type.DYNAMIC;
                        case PrimitiveType prim0 ->
                            throw FunctionError.arg(
                                    0, "must be a list, set, or tuple value with either zero or one elements");
                        case MapType mapt0 ->
                            throw FunctionError.arg(
                                    0, "must be a list, set, or tuple value with either zero or one elements");
                        case ObjectType obje0 ->
                            throw FunctionError.arg(
                                    0, "must be a list, set, or tuple value with either zero or one elements");
                    };
                })
                .impl(Dsl.shallow((a, t) -> {
                    List<Value> es = a.get(0).elements();
                    if (es.size() > 1) {
                        throw FunctionError.arg(
                                0, "must be a list, set, or tuple value with either zero or one elements");
                    }
                    return es.isEmpty() ? Value.nullValue(t) : es.get(0);
                }))
                .build());
        r.add(Function.builder("range")
                .varParam(p("params", Type.NUMBER))
                .returns(Type.list(Type.NUMBER))
                .impl(CollectionFuncs::range)
                .build());
        r.add(Function.builder("reverse")
                .param(Dsl.partial("list", Type.DYNAMIC))
                .returns(a -> {
                    Type t = a.get(0).type();
                    return switch (t) {
                        case ListType l -> l;
                        case SetType s -> Type.list(s.elem());
                        case TupleType u -> {
                            List<Type> ts = new ArrayList<>(u.elems());
                            Collections.reverse(ts);
                            yield Type.tuple(ts);
                        }
                        case DynamicType d -> Type.DYNAMIC;
                        case PrimitiveType prim0 ->
                            throw FunctionError.arg(
                                    0, "can only reverse list or tuple values, not " + t.friendlyName());
                        case MapType mapt0 ->
                            throw FunctionError.arg(
                                    0, "can only reverse list or tuple values, not " + t.friendlyName());
                        case ObjectType obje0 ->
                            throw FunctionError.arg(
                                    0, "can only reverse list or tuple values, not " + t.friendlyName());
                    };
                })
                .impl(Dsl.shallow((a, t) -> {
                    List<Value> es = new ArrayList<>(a.get(0).elements());
                    Collections.reverse(es);
                    return t instanceof ListType l ? Value.list(l.elem(), es) : Value.tuple(es);
                }))
                .build());
        r.add(Function.builder("slice")
                .param(Dsl.partial("list", Type.DYNAMIC))
                .param("start_index", Type.NUMBER)
                .param("end_index", Type.NUMBER)
                .returns(CollectionFuncs::sliceType)
                .impl(Dsl.shallow((a, t) -> {
                    List<Value> es = a.get(0).elements();
                    int[] b = sliceBounds(a, es.size());
                    List<Value> sub = es.subList(b[0], b[1]);
                    return t instanceof ListType l ? Value.list(l.elem(), sub) : Value.tuple(sub);
                }))
                .build());
        r.add(Function.builder("sort")
                .param("list", Type.list(Type.STRING))
                .returns(Type.list(Type.STRING))
                .impl((a, t) -> {
                    List<Value> es = a.get(0).elements();
                    List<String> ss = new ArrayList<>();
                    for (int i = 0; i < es.size(); i++) {
                        if (es.get(i).isNull()) {
                            throw FunctionError.call(
                                    "given list element " + i + " is null; a null string cannot be sorted");
                        }
                        ss.add(es.get(i).asString());
                    }
                    ss.sort(dev.strata.lang.value.ValueOrder::compareStrings);
                    return Args.strList(ss);
                })
                .build());
        r.add(Function.builder("sum")
                .param(Param.of("list", Type.DYNAMIC).rejectingDynamicType())
                .returns(Type.NUMBER)
                .impl((a, t) -> {
                    Value l = a.get(0);
                    if (!isSeq(l.type())) {
                        throw FunctionError.arg(0, "cannot sum noniterable");
                    }
                    if (l.elements().isEmpty()) {
                        throw FunctionError.arg(0, "cannot sum an empty list");
                    }
                    BigDecimal total = BigDecimal.ZERO;
                    for (Value e : l.elements()) {
                        ConversionResult c = Convert.convert(e, Type.NUMBER);
                        if (!c.isOk() || c.value().isNull()) {
                            throw FunctionError.arg(0, "argument must be list, set, or tuple of number values");
                        }
                        // Sequential 512-bit float additions, as Terraform sums.
                        total = dev.strata.lang.value.Numbers.binary512(
                                total.add(dev.strata.lang.value.Numbers.binary512(
                                        c.value().asNumber())));
                    }
                    return Value.number(dev.strata.lang.value.Numbers.round512(total));
                })
                .build());
        r.add(Function.builder("transpose")
                .param("values", Type.map(Type.list(Type.STRING)))
                .returns(Type.map(Type.list(Type.STRING)))
                .impl((a, t) -> {
                    Map<String, List<String>> out = new TreeMap<>(dev.strata.lang.value.ValueOrder::compareStrings);
                    for (Map.Entry<String, Value> e : a.get(0).attributes().entrySet()) {
                        if (e.getValue().isNull()) {
                            throw FunctionError.call("input must not contain null list");
                        }
                        for (Value v : e.getValue().elements()) {
                            if (v.isNull()) {
                                throw FunctionError.call("input must not contain null string");
                            }
                            out.computeIfAbsent(v.asString(), k -> new ArrayList<>())
                                    .add(e.getKey());
                        }
                    }
                    Map<String, Value> m = new LinkedHashMap<>();
                    out.forEach((k, v) -> m.put(k, Args.strList(v)));
                    return Value.map(Type.list(Type.STRING), m);
                })
                .build());
        r.add(Function.builder("zipmap")
                .param("keys", Type.list(Type.STRING))
                .param(Dsl.partial("values", Type.DYNAMIC))
                .returns(CollectionFuncs::zipmapType)
                .impl(Dsl.shallow(CollectionFuncs::zipmap))
                .build());
    }

    private static Value length(Value v) {
        if (!v.isKnown()) {
            return Value.unknown(Type.NUMBER);
        }
        if (v.type().equals(Type.STRING)) {
            return Value.number(Args.graphemeCount(v.asString()));
        }
        if (v.type() instanceof SetType && !v.isWhollyKnown() && v.length() != 1) {
            // Unknown elements of a set may turn out equal to others, so the count is not known yet;
            // a single element has nothing to coalesce with.
            return Value.unknown(Type.NUMBER);
        }
        return Value.number(v.length());
    }

    private static Function boolFold(String name, boolean all) {
        return Function.builder(name)
                .param(new Param("list", Type.list(Type.BOOL), false, true, false))
                .returns(Type.BOOL)
                .impl((a, t) -> {
                    Value l = a.get(0);
                    if (!l.isKnown()) {
                        return Value.unknown(Type.BOOL);
                    }
                    boolean unknown = false;
                    for (Value e : l.elements()) {
                        if (!e.isKnown()) {
                            unknown = true;
                        } else if (e.isNull() || e.asBool() != all) {
                            if (all || !e.isNull()) {
                                return Value.bool(!all);
                            }
                        }
                    }
                    return unknown ? Value.unknown(Type.BOOL) : Value.bool(all);
                })
                .build();
    }

    private static Value chunklist(List<Value> a, Type t) {
        Value l = a.get(0);
        int size = Args.integer(a, 1, false, "size");
        if (size < 0) {
            throw FunctionError.call("the size argument must be positive");
        }
        Type elem = ((ListType) l.type()).elem();
        List<Value> es = l.elements();
        List<Value> out = new ArrayList<>();
        if (size == 0) {
            out.add(l);
        } else {
            for (int i = 0; i < es.size(); i += size) {
                out.add(Value.list(elem, es.subList(i, Math.min(es.size(), i + size))));
            }
        }
        return Value.list(l.type(), out);
    }

    private static Type coalesceType(List<Value> a) {
        List<Type> ts = new ArrayList<>();
        a.forEach(v -> ts.add(v.type()));
        if (a.isEmpty()) {
            throw FunctionError.call("all arguments must have the same type");
        }
        return Unify.unify(ts).orElseThrow(() -> FunctionError.call("all arguments must have the same type"));
    }

    private static Value coalesce(List<Value> a, Type t) {
        for (Value v : a) {
            if (!v.isKnown()) {
                return Value.unknown(t);
            }
            if (v.isNull()) {
                continue;
            }
            Value c = Convert.convert(v, t).value();
            if (c.type().equals(Type.STRING) && c.isKnown() && c.asString().isEmpty()) {
                continue;
            }
            return c;
        }
        throw FunctionError.call("no non-null, non-empty-string arguments");
    }

    private static Type coalescelistType(List<Value> a) {
        if (a.isEmpty()) {
            throw FunctionError.call("at least one argument is required");
        }
        Type first = a.get(0).type();
        for (int i = 0; i < a.size(); i++) {
            Type t = a.get(i).type();
            // A null of a list type is only skipped; a null of no type is not a list at all.
            boolean nullArg = a.get(i).isNull() && t instanceof DynamicType;
            if (nullArg || !(t instanceof ListType || t instanceof TupleType || t instanceof DynamicType)) {
                throw FunctionError.call("coalescelist arguments must be lists or tuples");
            }
            if (!t.equals(first)) {
                return Type.DYNAMIC;
            }
        }
        return first;
    }

    private static Value coalescelist(List<Value> a, Type t) {
        for (Value v : a) {
            if (!v.isKnown()) {
                return Value.unknown(t);
            }
            if (v.isNull() || v.length() == 0) {
                continue;
            }
            return v;
        }
        throw FunctionError.call("no non-null arguments");
    }

    private static Type concatType(List<Value> a) {
        if (a.isEmpty()) {
            throw FunctionError.call("at least one argument is required");
        }
        List<Type> listElems = new ArrayList<>();
        boolean allLists = true;
        for (int i = 0; i < a.size(); i++) {
            Type t = a.get(i).type();
            switch (t) {
                case ListType l -> listElems.add(l.elem());
                case TupleType u -> allLists = false;
                case DynamicType d -> {
                    return Type.DYNAMIC;
                }
                case PrimitiveType prim0 ->
                    throw FunctionError.arg(i, "all arguments must be lists or tuples; got " + t.friendlyName());
                case SetType sett0 ->
                    throw FunctionError.arg(i, "all arguments must be lists or tuples; got " + t.friendlyName());
                case MapType mapt0 ->
                    throw FunctionError.arg(i, "all arguments must be lists or tuples; got " + t.friendlyName());
                case ObjectType obje0 ->
                    throw FunctionError.arg(i, "all arguments must be lists or tuples; got " + t.friendlyName());
            }
        }
        // Lists of different element types concatenate to a list of the type they all convert to,
        // and only to a tuple when there is none.
        Optional<Type> unified = allLists ? Unify.unify(listElems) : Optional.empty();
        if (unified.isPresent()) {
            return Type.list(unified.get());
        }
        List<Type> ts = new ArrayList<>();
        for (Value v : a) {
            if (!v.isKnown()) {
                return Type.DYNAMIC;
            }
            switch (v.type()) {
                case TupleType u -> ts.addAll(u.elems());
                case ListType l -> Collections.nCopies(v.length(), l.elem()).forEach(ts::add);
                case PrimitiveType prim0 -> {}
                case SetType sett0 -> {}
                case MapType mapt0 -> {}
                case ObjectType obje0 -> {}
                case DynamicType dyna0 -> {}
            }
        }
        return Type.tuple(ts);
    }

    private static Value concat(List<Value> a, Type t) {
        List<Value> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).isNull()) {
                throw FunctionError.arg(i, "argument must not be null");
            }
            if (t instanceof ListType l) {
                for (Value e : a.get(i).elements()) {
                    ConversionResult r = Convert.convert(e, l.elem());
                    if (!r.isOk()) {
                        throw FunctionError.arg(i, ((ConversionResult.Failed) r).message());
                    }
                    out.add(r.value());
                }
            } else {
                out.addAll(a.get(i).elements());
            }
        }
        return t instanceof ListType l ? Value.list(l.elem(), out) : Value.tuple(out);
    }

    /** Terraform's == on values: type-sensitive, numbers by value. */
    static boolean equal(Value x, Value y) {
        return x.unmarkDeep().equals(y.unmarkDeep());
    }

    private static Value contains(List<Value> a, Type t) {
        Value l = a.get(0);
        if (!isSeq(l.type())) {
            throw FunctionError.call("argument must be list, tuple, or set");
        }
        List<Value> es = l.elements();
        boolean unknown = !a.get(1).isWhollyKnown();
        for (Value e : es) {
            if (!e.isWhollyKnown()) {
                unknown = true;
            } else if (!unknown && equal(e, a.get(1))) {
                return Value.TRUE;
            }
        }
        return unknown ? Value.unknown(Type.BOOL) : Value.FALSE;
    }

    private static Type elementType(List<Value> a) {
        Type t = a.get(0).type();
        return switch (t) {
            case ListType l -> l.elem();
            case TupleType u -> {
                Value idx = a.get(1);
                if (!idx.isKnown() || u.elems().isEmpty()) {
                    if (u.elems().isEmpty()) {
                        throw FunctionError.call("cannot use element function with an empty list");
                    }
                    yield Type.DYNAMIC;
                }
                yield u.elems().get(elementIndex(a, u.elems().size(), true));
            }
            case DynamicType d -> Type.DYNAMIC;
            case PrimitiveType prim0 -> throw FunctionError.call("cannot read elements from " + t.friendlyName());
            case SetType sett0 -> throw FunctionError.call("cannot read elements from " + t.friendlyName());
            case MapType mapt0 -> throw FunctionError.call("cannot read elements from " + t.friendlyName());
            case ObjectType obje0 -> throw FunctionError.call("cannot read elements from " + t.friendlyName());
        };
    }

    /**
     * A list wraps a negative index around from the end like a positive one; Terraform only
     * accepts that for lists (a tuple with a negative index makes it fail), so tuples refuse it.
     */
    private static int elementIndex(List<Value> a, int size, boolean tuple) {
        BigDecimal n = a.get(1).asNumber();
        if (!Args.isWhole(n) || n.compareTo(Args.LONG_MIN) < 0 || n.compareTo(Args.LONG_MAX) > 0) {
            throw FunctionError.call(
                    "invalid index: value must be a whole number, between -9223372036854775808 and 9223372036854775807");
        }
        if (size == 0) {
            throw FunctionError.call("cannot use element function with an empty list");
        }
        if (tuple && n.signum() < 0) {
            throw FunctionError.call("cannot use element function with a negative index");
        }
        return n.toBigInteger().mod(java.math.BigInteger.valueOf(size)).intValue();
    }

    /**
     * Flattens into {@code out}. A nested sequence that is flattened away leaves its marks (a sensitive
     * inner list) in {@code marks}, for the whole result: its elements no longer have a place of their own.
     */
    private static boolean flatten(Value v, List<Value> out, Set<Mark> marks) {
        for (Value e : v.elements()) {
            if (!e.isKnown() && e.type() instanceof DynamicType) {
                // Might be a list, so the shape of the result is not known yet.
                return false;
            }
            if (isSeq(e.type()) && !e.isNull()) {
                marks.addAll(e.marks());
                if (!e.isKnown()) {
                    return false;
                }
                if (!flatten(e, out, marks)) {
                    return false;
                }
            } else {
                out.add(e);
            }
        }
        return true;
    }

    private static Type keysType(List<Value> a) {
        Value m = a.get(0);
        return switch (m.type()) {
            case MapType mt -> Type.list(Type.STRING);
            case ObjectType o -> Type.tuple(Collections.nCopies(o.attrs().size(), Type.STRING));
            case DynamicType d -> Type.DYNAMIC;
            case PrimitiveType prim0 -> throw FunctionError.arg(0, "must have map or object type");
            case ListType list0 -> throw FunctionError.arg(0, "must have map or object type");
            case SetType sett0 -> throw FunctionError.arg(0, "must have map or object type");
            case TupleType tupl0 -> throw FunctionError.arg(0, "must have map or object type");
        };
    }

    private static Type valuesType(List<Value> a) {
        return switch (a.get(0).type()) {
            case MapType m -> Type.list(m.elem());
            case ObjectType o -> Type.tuple(List.copyOf(o.attrs().values()));
            case DynamicType d -> Type.DYNAMIC;
            case PrimitiveType prim0 -> throw FunctionError.call("values() requires a map as the first argument");
            case ListType list0 -> throw FunctionError.call("values() requires a map as the first argument");
            case SetType sett0 -> throw FunctionError.call("values() requires a map as the first argument");
            case TupleType tupl0 -> throw FunctionError.call("values() requires a map as the first argument");
        };
    }

    private static Type lookupType(List<Value> a) {
        if (a.size() > 3) {
            throw FunctionError.call("lookup() takes two or three arguments, got " + a.size());
        }
        Type mt = a.get(0).type();
        switch (mt) {
            case MapType m -> {
                if (a.size() == 3) {
                    ConversionResult c = Convert.convert(a.get(2), m.elem());
                    if (!c.isOk()) {
                        throw FunctionError.arg(2, "the default value must have the same type as the map elements");
                    }
                }
                return m.elem();
            }
            case ObjectType o -> {
                Value key = a.get(1);
                if (!key.isKnown()) {
                    return Type.DYNAMIC;
                }
                Type at = o.attrType(key.asString());
                if (at != null) {
                    return at;
                }
                return a.size() == 3 ? a.get(2).type() : Type.DYNAMIC;
            }
            case DynamicType d -> {
                return Type.DYNAMIC;
            }
            case PrimitiveType prim0 -> throw FunctionError.arg(0, "lookup() requires a map as the first argument");
            case ListType list0 -> throw FunctionError.arg(0, "lookup() requires a map as the first argument");
            case SetType sett0 -> throw FunctionError.arg(0, "lookup() requires a map as the first argument");
            case TupleType tupl0 -> throw FunctionError.arg(0, "lookup() requires a map as the first argument");
        }
    }

    private static Value lookup(List<Value> a, Type t) {
        Value m = a.get(0);
        String key = a.get(1).asString();
        Value found = m.attributes().get(key);
        if (found != null) {
            return found;
        }
        if (a.size() == 3) {
            Value d = a.get(2);
            if (!d.isKnown()) {
                return Value.unknown(t);
            }
            return Convert.convert(d, t).value();
        }
        if (m.type() instanceof ObjectType) {
            throw FunctionError.argRevealing(0, "the given object has no attribute " + Args.q(key));
        }
        throw FunctionError.callRevealing("lookup failed to find key " + Args.q(key));
    }

    private static Value matchkeys(List<Value> a, Type t) {
        List<Value> values = a.get(0).elements();
        Value keysV = a.get(1);
        Value search = a.get(2);
        if (values.size() != keysV.length()) {
            throw FunctionError.call("length of keys and values should be equal");
        }
        Optional<Type> u = Unify.unify(List.of(((ListType) keysV.type()).elem(), ((ListType) search.type()).elem()));
        if (u.isEmpty()) {
            throw FunctionError.arg(2, "keys and searchset must be of the same type");
        }
        List<Value> keys = Convert.convert(keysV, Type.list(u.get())).value().elements();
        List<Value> ss = Convert.convert(search, Type.list(u.get())).value().elements();
        List<Value> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            for (Value s : ss) {
                if (equal(keys.get(i), s)) {
                    out.add(values.get(i));
                    break;
                }
            }
        }
        return Value.list(((ListType) t).elem(), out);
    }

    private static Type mergeType(List<Value> a) {
        Type mapElem = null;
        boolean allMaps = true;
        Map<String, Type> attrs = new TreeMap<>();
        for (int i = 0; i < a.size(); i++) {
            Value v = a.get(i);
            Type t = v.type();
            if (v.isNull()) {
                // Terraform merges maps into a map only when none of them is null.
                allMaps = false;
                if (t instanceof DynamicType) {
                    continue;
                }
            }
            switch (t) {
                case MapType m -> {
                    if (mapElem == null) {
                        mapElem = m.elem();
                    } else if (!mapElem.equals(m.elem())) {
                        allMaps = false;
                    }
                }
                case ObjectType o -> {
                    allMaps = false;
                    o.attrs().forEach(attrs::put);
                }
                case DynamicType d -> {
                    return Type.DYNAMIC;
                }
                case PrimitiveType prim0 ->
                    throw FunctionError.call("arguments must be maps or objects, got " + Args.q(t.friendlyName()));
                case ListType list0 ->
                    throw FunctionError.call("arguments must be maps or objects, got " + Args.q(t.friendlyName()));
                case SetType sett0 ->
                    throw FunctionError.call("arguments must be maps or objects, got " + Args.q(t.friendlyName()));
                case TupleType tupl0 ->
                    throw FunctionError.call("arguments must be maps or objects, got " + Args.q(t.friendlyName()));
            }
        }
        if (allMaps) {
            return mapElem == null ? Type.emptyObject() : Type.map(mapElem);
        }
        return Type.DYNAMIC;
    }

    private static Value merge(List<Value> a, Type t) {
        Map<String, Value> out = new LinkedHashMap<>();
        for (Value v : a) {
            if (!v.isNull()) {
                out.putAll(v.attributes());
            }
        }
        return t instanceof MapType m ? Value.map(m.elem(), out) : Value.object(out);
    }

    private static Value range(List<Value> a, Type t) {
        if (a.isEmpty() || a.size() > 3) {
            throw FunctionError.call("must have one, two, or three arguments");
        }
        BigDecimal start = BigDecimal.ZERO;
        BigDecimal end;
        BigDecimal step = BigDecimal.ONE;
        if (a.size() == 1) {
            end = a.get(0).asNumber();
        } else {
            start = a.get(0).asNumber();
            end = a.get(1).asNumber();
        }
        if (a.size() == 3) {
            step = a.get(2).asNumber();
        } else if (end.compareTo(start) < 0) {
            step = BigDecimal.ONE.negate();
        }
        if (step.signum() < 0 && end.compareTo(start) > 0) {
            throw FunctionError.arg(0, "end must be less than start when step is negative");
        }
        if (step.signum() > 0 && end.compareTo(start) < 0) {
            throw FunctionError.arg(0, "end must be greater than start when step is positive");
        }
        List<Value> out = new ArrayList<>();
        // Repeated 512-bit float additions, so range(0, 1, 0.1) accumulates the error Terraform shows.
        BigDecimal stepBits = dev.strata.lang.value.Numbers.binary512(step);
        BigDecimal endBits = dev.strata.lang.value.Numbers.binary512(end);
        for (BigDecimal v = dev.strata.lang.value.Numbers.binary512(start);
                step.signum() >= 0 ? v.compareTo(endBits) < 0 : v.compareTo(endBits) > 0;
                v = dev.strata.lang.value.Numbers.binary512(v.add(stepBits))) {
            if (out.size() >= 1024) {
                throw FunctionError.call(
                        "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step");
            }
            out.add(Value.number(dev.strata.lang.value.Numbers.round512(v)));
        }
        return Value.list(Type.NUMBER, out);
    }

    private static Type sliceType(List<Value> a) {
        Type t = a.get(0).type();
        return switch (t) {
            case ListType l -> l;
            case SetType s ->
                throw FunctionError.arg(
                        0,
                        "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important");
            case TupleType u -> {
                if (!a.get(1).isKnown() || !a.get(2).isKnown()) {
                    yield Type.DYNAMIC;
                }
                int[] b = sliceBounds(a, u.elems().size());
                yield Type.tuple(u.elems().subList(b[0], b[1]));
            }
            case DynamicType d -> Type.DYNAMIC;
            case PrimitiveType prim0 -> throw FunctionError.arg(0, "must be a list or tuple value");
            case MapType mapt0 -> throw FunctionError.arg(0, "must be a list or tuple value");
            case ObjectType obje0 -> throw FunctionError.arg(0, "must be a list or tuple value");
        };
    }

    private static int[] sliceBounds(List<Value> a, int len) {
        int start = Args.integer(a, 1, true, "start index");
        int end = Args.integer(a, 2, true, "end index");
        if (start < 0) {
            throw FunctionError.arg(1, "start index must not be less than zero");
        }
        if (end > len) {
            throw FunctionError.arg(2, "end index must not be greater than the length of the list");
        }
        if (start > end) {
            throw FunctionError.arg(1, "start index must not be greater than end index");
        }
        return new int[] {start, end};
    }

    private static Type zipmapType(List<Value> a) {
        Value keys = a.get(0);
        Type vt = a.get(1).type();
        return switch (vt) {
            case ListType l -> Type.map(l.elem());
            case TupleType u -> {
                if (!keys.isWhollyKnown()) {
                    yield Type.DYNAMIC;
                }
                List<Value> ks = keys.elements();
                if (ks.size() != u.elems().size()) {
                    throw FunctionError.call("number of keys (" + ks.size() + ") does not match number of values ("
                            + u.elems().size() + ")");
                }
                Map<String, Type> attrs = new TreeMap<>();
                for (int i = 0; i < ks.size(); i++) {
                    if (ks.get(i).isNull()) {
                        throw FunctionError.arg(0, "keys list has null value at index " + i);
                    }
                    attrs.put(ks.get(i).asString(), u.elems().get(i));
                }
                yield new ObjectType(attrs);
            }
            case DynamicType d -> Type.DYNAMIC;
            case PrimitiveType prim0 -> throw FunctionError.call("values argument must be a list or tuple value");
            case SetType sett0 -> throw FunctionError.call("values argument must be a list or tuple value");
            case MapType mapt0 -> throw FunctionError.call("values argument must be a list or tuple value");
            case ObjectType obje0 -> throw FunctionError.call("values argument must be a list or tuple value");
        };
    }

    private static Value zipmap(List<Value> a, Type t) {
        List<Value> ks = a.get(0).elements();
        List<Value> vs = a.get(1).elements();
        if (ks.size() != vs.size()) {
            throw FunctionError.call(
                    "number of keys (" + ks.size() + ") does not match number of values (" + vs.size() + ")");
        }
        Map<String, Value> out = new LinkedHashMap<>();
        for (int i = 0; i < ks.size(); i++) {
            if (ks.get(i).isNull()) {
                throw FunctionError.arg(0, "keys list has null value at index " + i);
            }
            out.put(ks.get(i).asString(), vs.get(i));
        }
        return t instanceof MapType m ? Value.map(m.elem(), out) : Value.object(out);
    }
}
