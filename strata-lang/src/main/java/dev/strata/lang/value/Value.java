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
import java.math.BigInteger;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An immutable Terraform value: a type plus a payload, or null of a type, or unknown of a type,
 * with a set of {@link Mark marks}.
 *
 * <p>Payloads: {@code String} (NFC-normalised), {@code BigDecimal} (normalised so that equal
 * numbers are {@code equals}), {@code Boolean}, an unmodifiable {@code List<Value>} for lists,
 * tuples and sets (sets in cty's order, {@link ValueOrder}, and free of duplicates among wholly
 * known elements: as in Terraform, an element holding unknowns never equals another), an unmodifiable
 * {@code SortedMap<String, Value>} for maps and objects. Set elements never carry marks: as in
 * Terraform, marks of set elements move onto the set.
 */
public final class Value {
    private static final Object UNKNOWN = new Object() {
        @Override
        public String toString() {
            return "(known after apply)";
        }
    };

    public static final Value TRUE = new Value(Type.BOOL, Boolean.TRUE, Set.of());
    public static final Value FALSE = new Value(Type.BOOL, Boolean.FALSE, Set.of());
    /** The {@code null} literal: null of the dynamic type. */
    public static final Value NULL = new Value(Type.DYNAMIC, null, Set.of());
    /** An unknown value whose type is not known either. */
    public static final Value DYNAMIC_UNKNOWN = new Value(Type.DYNAMIC, UNKNOWN, Set.of());

    public static final Value EMPTY_OBJECT = new Value(Type.emptyObject(), Collections.emptySortedMap(), Set.of());
    public static final Value EMPTY_TUPLE = new Value(Type.tuple(List.of()), List.of(), Set.of());

    private final Type type;
    private final Object payload;
    private final Set<Mark> marks;

    private Value(Type type, Object payload, Set<Mark> marks) {
        this.type = type;
        this.payload = payload;
        this.marks = marks;
    }

    // ---- factories ---------------------------------------------------------------------------

    public static Value string(String s) {
        Objects.requireNonNull(s, "use nullValue(Type.STRING) for null");
        String n = isAscii(s) || Normalizer.isNormalized(s, Normalizer.Form.NFC)
                ? s
                : Normalizer.normalize(s, Normalizer.Form.NFC);
        return new Value(Type.STRING, n, Set.of());
    }

    /** ASCII text is in NFC already: no combining marks, nothing to compose. */
    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    public static Value number(BigDecimal n) {
        return new Value(Type.NUMBER, normalize(n), Set.of());
    }

    public static Value number(long n) {
        return new Value(Type.NUMBER, BigDecimal.valueOf(n), Set.of());
    }

    public static Value number(BigInteger n) {
        return new Value(Type.NUMBER, new BigDecimal(n), Set.of());
    }

    /**
     * A number from a binary float, rendered the way Terraform renders results of float64
     * functions such as {@code log}: the shortest decimal that reads back as the same double.
     * Negative zero and the infinities are kept; NaN is not a number Terraform can hold.
     */
    public static Value number(double d) {
        if (Double.isNaN(d)) {
            throw new ArithmeticException("the result is not a number");
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? POSITIVE_INFINITY : NEGATIVE_INFINITY;
        }
        if (d == 0 && 1 / d < 0) {
            return NEGATIVE_ZERO;
        }
        return number(new BigDecimal(Double.toString(d)));
    }

    public static final Value POSITIVE_INFINITY = new Value(Type.NUMBER, SpecialNumber.POSITIVE_INFINITY, Set.of());
    public static final Value NEGATIVE_INFINITY = new Value(Type.NUMBER, SpecialNumber.NEGATIVE_INFINITY, Set.of());
    public static final Value NEGATIVE_ZERO = new Value(Type.NUMBER, SpecialNumber.NEGATIVE_ZERO, Set.of());

    public static Value bool(boolean b) {
        return b ? TRUE : FALSE;
    }

    public static Value nullValue(Type type) {
        return new Value(type, null, Set.of());
    }

    public static Value unknown(Type type) {
        return new Value(type, UNKNOWN, Set.of());
    }

    public static Value list(Type elemType, List<Value> elems) {
        for (Value e : elems) {
            checkConforms(e, elemType);
        }
        return new Value(Type.list(elemType), List.copyOf(elems), Set.of());
    }

    /** A list of at least one element whose element type is the first element's type. */
    public static Value listOf(List<Value> elems) {
        if (elems.isEmpty()) {
            throw new IllegalArgumentException("listOf needs an element; use list(type, List.of())");
        }
        return list(elems.get(0).type(), elems);
    }

    public static Value set(Type elemType, Collection<Value> elems) {
        EnumSet<Mark> lifted = EnumSet.noneOf(Mark.class);
        List<Value> unmarked = new ArrayList<>(elems.size());
        for (Value e : elems) {
            checkConforms(e, elemType);
            lifted.addAll(e.deepMarks());
            unmarked.add(e.unmarkDeep());
        }
        return new Value(Type.set(elemType), List.copyOf(ValueOrder.setElements(unmarked)), freeze(lifted));
    }

    public static Value setOf(List<Value> elems) {
        if (elems.isEmpty()) {
            throw new IllegalArgumentException("setOf needs an element; use set(type, List.of())");
        }
        return set(elems.get(0).type(), elems);
    }

    public static Value map(Type elemType, Map<String, Value> entries) {
        for (Value e : entries.values()) {
            checkConforms(e, elemType);
        }
        return new Value(Type.map(elemType), sortedCopy(entries), Set.of());
    }

    public static Value object(Map<String, Value> attrs) {
        SortedMap<String, Type> types = new TreeMap<>();
        attrs.forEach((k, v) -> types.put(k, v.type()));
        return new Value(new ObjectType(types, Set.of()), sortedCopy(attrs), Set.of());
    }

    public static Value tuple(List<Value> elems) {
        List<Type> types = new ArrayList<>(elems.size());
        for (Value e : elems) {
            types.add(e.type());
        }
        return new Value(Type.tuple(types), List.copyOf(elems), Set.of());
    }

    /** Convenience for building objects in code: alternating names and values. */
    public static Value objectOf(Object... namesAndValues) {
        Map<String, Value> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], (Value) namesAndValues[i + 1]);
        }
        return object(m);
    }

    private static void checkConforms(Value v, Type t) {
        if (!conforms(v.type(), t)) {
            throw new IllegalArgumentException(
                    "element of type " + v.type().typeExpr() + " in collection of " + t.typeExpr());
        }
    }

    /** Whether a value of type {@code actual} may sit where {@code target} is declared. */
    static boolean conforms(Type actual, Type target) {
        if (target instanceof DynamicType || actual.equals(target)) {
            return true;
        }
        return switch (target) {
            case ListType l -> actual instanceof ListType a && conforms(a.elem(), l.elem());
            case SetType s -> actual instanceof SetType a && conforms(a.elem(), s.elem());
            case MapType m -> actual instanceof MapType a && conforms(a.elem(), m.elem());
            case TupleType t ->
                actual instanceof TupleType a
                        && a.elems().size() == t.elems().size()
                        && allConform(a.elems(), t.elems());
            case ObjectType o ->
                actual instanceof ObjectType a
                        && a.attrs().keySet().equals(o.attrs().keySet())
                        && allConform(
                                List.copyOf(a.attrs().values()),
                                List.copyOf(o.attrs().values()));
            case PrimitiveType p -> actual instanceof DynamicType;
            case DynamicType d -> true;
        };
    }

    private static boolean allConform(List<Type> a, List<Type> b) {
        for (int i = 0; i < a.size(); i++) {
            if (!conforms(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static SortedMap<String, Value> sortedCopy(Map<String, Value> m) {
        TreeMap<String, Value> t = new TreeMap<>(ValueOrder::compareStrings);
        m.forEach((k, v) -> t.put(Objects.requireNonNull(k), Objects.requireNonNull(v)));
        return Collections.unmodifiableSortedMap(t);
    }

    private static BigDecimal normalize(BigDecimal n) {
        if (n.signum() == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal s = n.stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0) : s;
    }

    private static Set<Mark> freeze(Set<Mark> m) {
        return m.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(m));
    }

    // ---- state -------------------------------------------------------------------------------

    public Type type() {
        return type;
    }

    public boolean isNull() {
        return payload == null;
    }

    /** False only for an unknown value; a known collection may still contain unknowns. */
    public boolean isKnown() {
        return payload != UNKNOWN;
    }

    public boolean isWhollyKnown() {
        if (!isKnown()) {
            return false;
        }
        if (payload instanceof List<?> l) {
            for (Object o : l) {
                if (!((Value) o).isWhollyKnown()) {
                    return false;
                }
            }
        } else if (payload instanceof SortedMap<?, ?> m) {
            for (Object o : m.values()) {
                if (!((Value) o).isWhollyKnown()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** True if neither the value nor anything inside it is null or unknown at the top level. */
    public boolean isKnownAndNotNull() {
        return isKnown() && !isNull();
    }

    // ---- marks -------------------------------------------------------------------------------

    public Set<Mark> marks() {
        return marks;
    }

    public boolean isMarked() {
        return !marks.isEmpty();
    }

    public boolean hasMark(Mark m) {
        return marks.contains(m);
    }

    public boolean isSensitive() {
        return marks.contains(Mark.SENSITIVE);
    }

    public Value mark(Mark m) {
        if (marks.contains(m)) {
            return this;
        }
        EnumSet<Mark> s = EnumSet.of(m);
        s.addAll(marks);
        return new Value(type, payload, freeze(s));
    }

    public Value withMarks(Set<Mark> more) {
        if (more.isEmpty() || marks.containsAll(more)) {
            return this;
        }
        EnumSet<Mark> s = EnumSet.noneOf(Mark.class);
        s.addAll(marks);
        s.addAll(more);
        return new Value(type, payload, freeze(s));
    }

    /** The same value without its own marks; marks nested inside stay. */
    public Value unmark() {
        return marks.isEmpty() ? this : new Value(type, payload, Set.of());
    }

    public Value withoutMark(Mark m) {
        if (!marks.contains(m)) {
            return this;
        }
        EnumSet<Mark> s = EnumSet.noneOf(Mark.class);
        s.addAll(marks);
        s.remove(m);
        return new Value(type, payload, freeze(s));
    }

    /** Union of the marks on this value and on everything inside it. */
    public Set<Mark> deepMarks() {
        EnumSet<Mark> s = EnumSet.noneOf(Mark.class);
        collectMarks(s);
        return freeze(s);
    }

    private void collectMarks(EnumSet<Mark> into) {
        into.addAll(marks);
        if (payload instanceof List<?> l) {
            for (Object o : l) {
                ((Value) o).collectMarks(into);
            }
        } else if (payload instanceof SortedMap<?, ?> m) {
            for (Object o : m.values()) {
                ((Value) o).collectMarks(into);
            }
        }
    }

    /** Whether a mark sits anywhere in the value, without collecting them. */
    private boolean hasAnyMark() {
        if (!marks.isEmpty()) {
            return true;
        }
        if (payload instanceof List<?> l) {
            for (Object o : l) {
                if (((Value) o).hasAnyMark()) {
                    return true;
                }
            }
        } else if (payload instanceof SortedMap<?, ?> m) {
            for (Object o : m.values()) {
                if (((Value) o).hasAnyMark()) {
                    return true;
                }
            }
        }
        return false;
    }

    public boolean hasMarkDeep(Mark m) {
        return deepMarks().contains(m);
    }

    /** The value with every mark removed, at every depth. */
    public Value unmarkDeep() {
        if (!hasAnyMark()) {
            return this;
        }
        if (payload instanceof List<?> l) {
            List<Value> out = new ArrayList<>(l.size());
            boolean changed = !marks.isEmpty();
            for (Object o : l) {
                Value v = (Value) o;
                Value u = v.unmarkDeep();
                changed |= u != v;
                out.add(u);
            }
            return changed ? new Value(type, Collections.unmodifiableList(out), Set.of()) : this;
        }
        if (payload instanceof SortedMap<?, ?> m) {
            TreeMap<String, Value> out = new TreeMap<>(ValueOrder::compareStrings);
            boolean changed = !marks.isEmpty();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                Value v = (Value) e.getValue();
                Value u = v.unmarkDeep();
                changed |= u != v;
                out.put((String) e.getKey(), u);
            }
            return changed ? new Value(type, Collections.unmodifiableSortedMap(out), Set.of()) : this;
        }
        return unmark();
    }

    // ---- payload access ----------------------------------------------------------------------

    public String asString() {
        return (String) known(PrimitiveType.STRING);
    }

    /**
     * The number's exact value. Negative zero reads as zero; an infinity has no
     * {@code BigDecimal} value, so this throws {@link ArithmeticException} (check
     * {@link #isInfinite()} first where infinities can occur).
     */
    public BigDecimal asNumber() {
        Object p = known(PrimitiveType.NUMBER);
        if (p instanceof SpecialNumber s) {
            if (s == SpecialNumber.NEGATIVE_ZERO) {
                return BigDecimal.ZERO;
            }
            throw new ArithmeticException("cannot use an infinite number here");
        }
        return (BigDecimal) p;
    }

    /** Whether this is a known infinite number. */
    public boolean isInfinite() {
        return payload == SpecialNumber.POSITIVE_INFINITY || payload == SpecialNumber.NEGATIVE_INFINITY;
    }

    /** The number as a double, infinities included. */
    public double asDouble() {
        Object p = known(PrimitiveType.NUMBER);
        return switch (p) {
            case SpecialNumber s ->
                switch (s) {
                    case NEGATIVE_ZERO -> -0.0;
                    case POSITIVE_INFINITY -> Double.POSITIVE_INFINITY;
                    case NEGATIVE_INFINITY -> Double.NEGATIVE_INFINITY;
                };
            default -> ((BigDecimal) p).doubleValue();
        };
    }

    /**
     * The number as Terraform prints it: exact decimal without exponent or trailing zeros, and
     * {@code -0}, {@code +Inf}, {@code -Inf}.
     */
    public String numberText() {
        Object p = known(PrimitiveType.NUMBER);
        return p instanceof SpecialNumber s ? s.text() : ((BigDecimal) p).toPlainString();
    }

    public boolean asBool() {
        return (Boolean) known(PrimitiveType.BOOL);
    }

    private Object known(Type expected) {
        if (!type.equals(expected)) {
            throw new IllegalStateException("value of type " + type.friendlyName() + " is not a " + expected);
        }
        requireKnownNotNull();
        return payload;
    }

    private void requireKnownNotNull() {
        if (payload == null || payload == UNKNOWN) {
            throw new IllegalStateException(payload == null ? "value is null" : "value is unknown");
        }
    }

    /** Elements of a known, non-null list, set or tuple, in order. */
    @SuppressWarnings("unchecked")
    public List<Value> elements() {
        requireKnownNotNull();
        if (!(payload instanceof List<?>)) {
            throw new IllegalStateException("value of type " + type.friendlyName() + " has no elements");
        }
        return (List<Value>) payload;
    }

    /** Entries of a known, non-null map or object, sorted by key. */
    @SuppressWarnings("unchecked")
    public SortedMap<String, Value> attributes() {
        requireKnownNotNull();
        if (!(payload instanceof SortedMap<?, ?>)) {
            throw new IllegalStateException("value of type " + type.friendlyName() + " has no attributes");
        }
        return (SortedMap<String, Value>) payload;
    }

    /** Number of elements or entries of a known, non-null collection or structural value. */
    public int length() {
        requireKnownNotNull();
        return switch (payload) {
            case List<?> l -> l.size();
            case SortedMap<?, ?> m -> m.size();
            case String s -> s.codePointCount(0, s.length());
            default -> throw new IllegalStateException("value of type " + type.friendlyName() + " has no length");
        };
    }

    /** Whether this is a list, set, tuple, map or object (a value with elements or attributes). */
    public boolean isIterable() {
        return type.isCollection() || type.isStructural();
    }

    // ---- identity ----------------------------------------------------------------------------

    @Override
    public boolean equals(Object o) {
        return o instanceof Value v
                && type.equals(v.type)
                && marks.equals(v.marks)
                && Objects.equals(payload, v.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, payload, marks);
    }

    /** Equality that ignores marks at every depth. */
    public boolean equalsIgnoringMarks(Value other) {
        // As unmarkDeep().equals(other.unmarkDeep()), without copying either value.
        if (this == other) {
            return true;
        }
        if (!type.equals(other.type)) {
            return false;
        }
        if (payload instanceof List<?> a && other.payload instanceof List<?> b) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!((Value) a.get(i)).equalsIgnoringMarks((Value) b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (payload instanceof SortedMap<?, ?> a && other.payload instanceof SortedMap<?, ?> b) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : a.entrySet()) {
                Object w = b.get(e.getKey());
                if (w == null || !((Value) e.getValue()).equalsIgnoringMarks((Value) w)) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(payload, other.payload);
    }

    /**
     * A debugging rendering in HCL-like syntax. Sensitive values render as
     * {@code (sensitive value)}, so this is safe to log.
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        render(b);
        return b.toString();
    }

    private void render(StringBuilder b) {
        if (marks.contains(Mark.SENSITIVE)) {
            b.append("(sensitive value)");
            return;
        }
        if (marks.contains(Mark.EPHEMERAL)) {
            b.append("(ephemeral value)");
            return;
        }
        if (payload == UNKNOWN) {
            b.append("(known after apply)");
            return;
        }
        if (payload == null) {
            b.append("null");
            if (!(type instanceof DynamicType)) {
                b.append(" /* ").append(type.friendlyName()).append(" */");
            }
            return;
        }
        switch (payload) {
            case String s -> b.append(Quote.quote(s));
            case BigDecimal n -> b.append(n.toPlainString());
            case SpecialNumber n -> b.append(n.text());
            case Boolean x -> b.append(x);
            case List<?> l -> {
                String prefix = type instanceof ListType ? "tolist(" : type instanceof SetType ? "toset(" : "";
                b.append(prefix).append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) {
                        b.append(", ");
                    }
                    ((Value) l.get(i)).render(b);
                }
                b.append(']').append(prefix.isEmpty() ? "" : ")");
            }
            case SortedMap<?, ?> m -> {
                String prefix = type instanceof MapType ? "tomap(" : "";
                b.append(prefix).append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!first) {
                        b.append(", ");
                    }
                    first = false;
                    b.append(Quote.quote((String) e.getKey())).append(" = ");
                    ((Value) e.getValue()).render(b);
                }
                b.append('}').append(prefix.isEmpty() ? "" : ")");
            }
            default -> throw new IllegalStateException("unexpected payload");
        }
    }
}
