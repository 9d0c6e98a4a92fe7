package dev.strata.lang.value;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Finds one type that every given type converts to, as Terraform does for the elements of a
 * collection built from a tuple or object, and for the two results of a conditional.
 *
 * <p>The dynamic type is ignored (a null or unknown of no particular type converts to anything).
 * Primitives unify to one of the given types that the others convert to safely, so number and
 * string give string while number and bool do not unify. Objects with the same attribute names
 * unify attribute by attribute; otherwise objects and maps unify to a map. Tuples of one length
 * unify element by element; otherwise tuples and lists unify to a list, and to a set when a set
 * is among them.
 */
public final class Unify {
    private Unify() {}

    public static Optional<Type> unify(List<Type> types) {
        Set<Type> distinct = new LinkedHashSet<>();
        for (Type t : types) {
            if (!(t instanceof DynamicType)) {
                distinct.add(t);
            }
        }
        if (distinct.isEmpty()) {
            return Optional.of(Type.DYNAMIC);
        }
        if (distinct.size() == 1) {
            return Optional.of(distinct.iterator().next());
        }
        List<Type> ts = List.copyOf(distinct);
        if (ts.stream().allMatch(t -> t instanceof PrimitiveType)) {
            return ts.contains(Type.STRING) ? Optional.of(Type.STRING) : Optional.empty();
        }
        if (ts.stream().allMatch(t -> t instanceof ObjectType || t instanceof MapType)) {
            return unifyMappings(ts);
        }
        if (ts.stream().allMatch(t -> t instanceof TupleType || t instanceof ListType)) {
            return unifySequences(ts);
        }
        if (ts.stream().allMatch(t -> t instanceof SetType || t instanceof TupleType || t instanceof ListType)) {
            // A set among sequences makes them all sets: tolist([toset([1]), [2]]) is a list of sets.
            return unifyElements(ts).map(Type::set);
        }
        // Other mixed kinds: the first given type that every other type converts to, as cty does.
        for (Type target : ts) {
            if (ts.stream().allMatch(t -> Convert.canConvert(t, target))) {
                return Optional.of(target);
            }
        }
        return Optional.empty();
    }

    private static Optional<Type> unifyMappings(List<Type> ts) {
        if (ts.stream().allMatch(t -> t instanceof ObjectType)) {
            ObjectType first = (ObjectType) ts.get(0);
            boolean sameNames = ts.stream()
                    .allMatch(t -> ((ObjectType) t)
                            .attrs()
                            .keySet()
                            .equals(first.attrs().keySet()));
            if (sameNames) {
                SortedMap<String, Type> attrs = new TreeMap<>();
                for (String name : first.attrs().keySet()) {
                    List<Type> attrTypes = new ArrayList<>();
                    for (Type t : ts) {
                        attrTypes.add(((ObjectType) t).attrType(name));
                    }
                    Optional<Type> u = unify(attrTypes);
                    if (u.isEmpty()) {
                        return Optional.empty();
                    }
                    attrs.put(name, u.get());
                }
                return Optional.of(new ObjectType(attrs, Set.of()));
            }
        }
        return unifyElements(ts).map(Type::map);
    }

    private static Optional<Type> unifySequences(List<Type> ts) {
        if (ts.stream().allMatch(t -> t instanceof TupleType)) {
            int n = ((TupleType) ts.get(0)).elems().size();
            if (ts.stream().allMatch(t -> ((TupleType) t).elems().size() == n)) {
                List<Type> elems = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    List<Type> at = new ArrayList<>();
                    for (Type t : ts) {
                        at.add(((TupleType) t).elems().get(i));
                    }
                    Optional<Type> u = unify(at);
                    if (u.isEmpty()) {
                        return Optional.empty();
                    }
                    elems.add(u.get());
                }
                return Optional.of(Type.tuple(elems));
            }
        }
        return unifyElements(ts).map(Type::list);
    }

    /** Unifies the element types of collections and structural types taken together. */
    private static Optional<Type> unifyElements(List<Type> ts) {
        List<Type> all = new ArrayList<>();
        for (Type t : ts) {
            switch (t) {
                case ListType l -> all.add(l.elem());
                case SetType s -> all.add(s.elem());
                case MapType m -> all.add(m.elem());
                case TupleType u -> all.addAll(u.elems());
                case ObjectType o -> all.addAll(o.attrs().values());
                case PrimitiveType p -> {
                    return Optional.empty();
                }
                case DynamicType d -> {}
            }
        }
        return unify(all);
    }
}
