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
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Unify;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** setintersection, setproduct, setsubtract, setunion. */
final class SetFuncs {
    private SetFuncs() {}

    private static final Type SET_ANY = Type.set(Type.DYNAMIC);

    static void register(Functions.Registry r) {
        r.add(Function.builder("setunion")
                .param("first_set", SET_ANY)
                .varParam(p("other_sets", SET_ANY))
                .returns(SetFuncs::unifiedSet)
                .impl((a, t) -> {
                    Set<Value> out = new LinkedHashSet<>();
                    for (Value s : converted(a, t)) {
                        out.addAll(s.elements());
                    }
                    return Value.set(((SetType) t).elem(), out);
                })
                .build());
        r.add(Function.builder("setintersection")
                .param("first_set", SET_ANY)
                .varParam(p("other_sets", SET_ANY))
                .returns(SetFuncs::unifiedSet)
                .impl((a, t) -> {
                    List<Value> sets = converted(a, t);
                    Set<Value> out = new LinkedHashSet<>(sets.get(0).elements());
                    for (Value s : sets.subList(1, sets.size())) {
                        out.retainAll(s.elements());
                    }
                    return Value.set(((SetType) t).elem(), out);
                })
                .build());
        r.add(Function.builder("setsubtract")
                .param("a", SET_ANY)
                .param("b", SET_ANY)
                .returns(SetFuncs::unifiedSet)
                .impl((a, t) -> {
                    List<Value> sets = converted(a, t);
                    Set<Value> out = new LinkedHashSet<>(sets.get(0).elements());
                    sets.get(1).elements().forEach(out::remove);
                    return Value.set(((SetType) t).elem(), out);
                })
                .build());
        r.add(Function.builder("setproduct")
                .varParam(new Param("sets", Type.DYNAMIC, false, false, true))
                .returns(a -> productType(Args.unmarkTop(a)))
                .impl((a, t) -> product(Args.unmarkTop(a), t).withMarks(Args.topMarks(a)))
                .build());
    }

    private static Type unifiedSet(List<Value> a) {
        List<Type> elems = new ArrayList<>();
        for (Value v : a) {
            elems.add(((SetType) v.type()).elem());
        }
        return Type.set(Unify.unify(elems)
                .orElseThrow(() -> FunctionError.call("given sets must all have compatible element types")));
    }

    private static List<Value> converted(List<Value> a, Type t) {
        List<Value> out = new ArrayList<>();
        for (Value v : a) {
            out.add(Convert.convert(v, t).value());
        }
        return out;
    }

    private static Type productType(List<Value> a) {
        if (a.size() < 2) {
            throw FunctionError.call("at least two arguments are required");
        }
        List<Type> elems = new ArrayList<>();
        // Observed in Terraform: a list argument makes a list, tuples make a list only when all
        // arguments are tuples, otherwise the product is a set.
        boolean anyList = false;
        boolean allTuples = true;
        for (int i = 0; i < a.size(); i++) {
            Type t = a.get(i).type();
            switch (t) {
                case SetType s -> {
                    allTuples = false;
                    elems.add(s.elem());
                }
                case ListType l -> {
                    anyList = true;
                    allTuples = false;
                    elems.add(l.elem());
                }
                case TupleType u -> {
                    Type e = Unify.unify(u.elems())
                            .orElseThrow(() -> FunctionError.arg(0, "all elements must be of the same type"));
                    elems.add(e);
                }
                case DynamicType d -> {
                    return Type.DYNAMIC;
                }
                case PrimitiveType prim0 -> throw FunctionError.arg(i, "a set or a list is required");
                case MapType mapt0 -> throw FunctionError.arg(i, "a set or a list is required");
                case ObjectType obje0 -> throw FunctionError.arg(i, "a set or a list is required");
            }
        }
        Type tuple = Type.tuple(elems);
        return anyList || allTuples ? Type.list(tuple) : Type.set(tuple);
    }

    private static Value product(List<Value> a, Type t) {
        List<List<Value>> acc = new ArrayList<>();
        acc.add(List.of());
        TupleType tt = (TupleType) t.elementType();
        for (int i = 0; i < a.size(); i++) {
            List<List<Value>> next = new ArrayList<>();
            for (List<Value> prefix : acc) {
                for (Value e : a.get(i).elements()) {
                    List<Value> row = new ArrayList<>(prefix);
                    row.add(Convert.convert(e, tt.elems().get(i)).value());
                    next.add(row);
                }
            }
            acc = next;
        }
        List<Value> rows = new ArrayList<>();
        for (List<Value> row : acc) {
            rows.add(Value.tuple(row));
        }
        return t instanceof SetType ? Value.set(tt, rows) : Value.list(tt, rows);
    }
}
