package dev.strata.tfplugin.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.ValueJson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class WireRoundTripProperties {

    /** A schema type and a value that may sit in it, drawn from one seed so jqwik can shrink the seed. */
    record Case(Type schema, Value value) {}

    /**
     * Types with {@code dynamic} only where the wire carries a value's type with it (top level,
     * object attributes, tuple elements), so every value's exact type survives the trip.
     */
    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.longs().map(seed -> {
            Random r = new Random(seed);
            Type schema = type(r, 3, true, false);
            return new Case(schema, value(r, schema, 3, true));
        });
    }

    /**
     * Types with {@code dynamic} anywhere, including as collection elements. An empty collection
     * of a dynamic element type cannot tell its type on the wire (cty loses it too), so the
     * property is that one trip reaches a fixed point.
     */
    @Provide
    Arbitrary<Case> anyCases() {
        return Arbitraries.longs().map(seed -> {
            Random r = new Random(seed);
            Type schema = type(r, 3, true, true);
            return new Case(schema, value(r, schema, 3, true));
        });
    }

    @Property(tries = 300)
    void msgpackTripReachesFixedPoint(@ForAll("anyCases") Case c) {
        Value once = MsgpackValues.decode(MsgpackValues.encode(c.value(), c.schema()), c.schema());
        Value twice = MsgpackValues.decode(MsgpackValues.encode(once, c.schema()), c.schema());
        assertThat(twice).isEqualTo(once);
    }

    @Property(tries = 400)
    void msgpackRoundTripIsIdentity(@ForAll("cases") Case c) {
        byte[] bytes = MsgpackValues.encode(c.value(), c.schema());
        assertThat(MsgpackValues.decode(bytes, c.schema())).isEqualTo(c.value());
    }

    @Property(tries = 400)
    void jsonRoundTripIsIdentityForKnownValues(@ForAll("cases") Case c) {
        Random r = new Random(c.hashCode());
        Value known = value(r, c.schema(), 3, false);
        byte[] bytes = ValueJson.encode(known, c.schema()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ValueJson.decodeExact(bytes, c.schema())).isEqualTo(known);
    }

    @Property(tries = 300)
    void typeJsonRoundTrip(@ForAll("cases") Case c) {
        assertThat(TypeJson.parse(TypeJson.toBytes(c.schema()))).isEqualTo(c.schema());
    }

    static Type type(Random r, int depth, boolean allowDynamic) {
        return type(r, depth, allowDynamic, allowDynamic);
    }

    static Type type(Random r, int depth, boolean allowDynamic, boolean dynamicInCollections) {
        int pick = r.nextInt(depth <= 0 ? 4 : 9);
        return switch (pick) {
            case 0 -> Type.STRING;
            case 1 -> Type.NUMBER;
            case 2 -> Type.BOOL;
            case 3 -> allowDynamic ? Type.DYNAMIC : Type.STRING;
            case 4 -> Type.list(type(r, depth - 1, allowDynamic && dynamicInCollections, dynamicInCollections));
            // Set elements must be comparable by value; cty forbids dynamic set elements in schemas too.
            case 5 -> Type.set(type(r, depth - 1, false, false));
            case 6 -> Type.map(type(r, depth - 1, allowDynamic && dynamicInCollections, dynamicInCollections));
            case 7 -> {
                List<Type> elems = new ArrayList<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    elems.add(type(r, depth - 1, allowDynamic, dynamicInCollections));
                }
                yield Type.tuple(elems);
            }
            default -> {
                Map<String, Type> attrs = new TreeMap<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    attrs.put("a" + r.nextInt(6), type(r, depth - 1, allowDynamic, dynamicInCollections));
                }
                yield Type.object(attrs);
            }
        };
    }

    /** A value cty could hold in a slot of the given schema type. */
    static Value value(Random r, Type t, int depth, boolean allowUnknown) {
        int special = r.nextInt(10);
        if (special == 0) {
            return Value.nullValue(t);
        }
        if (special == 1 && allowUnknown) {
            return Value.unknown(t);
        }
        return switch (t) {
            case DynamicType d -> {
                Type actual = type(r, Math.min(depth, 1), false);
                yield value(r, actual, depth - 1, allowUnknown);
            }
            case PrimitiveType p ->
                switch (p) {
                    case STRING -> Value.string(strings[r.nextInt(strings.length)]);
                    case BOOL -> Value.bool(r.nextBoolean());
                    case NUMBER -> number(r);
                };
            case ListType l -> {
                List<Value> elems = new ArrayList<>();
                Type elemType = concrete(r, l.elem());
                for (int i = r.nextInt(3); i > 0; i--) {
                    elems.add(value(r, elemType, depth - 1, allowUnknown));
                }
                yield Value.list(elems.isEmpty() ? l.elem() : elemType, elems);
            }
            case SetType s -> {
                Set<Value> elems = new HashSet<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    // Unknown set elements are legal but make identity ambiguous; keep them known.
                    elems.add(value(r, s.elem(), depth - 1, false));
                }
                yield Value.set(s.elem(), elems);
            }
            case MapType m -> {
                Map<String, Value> entries = new LinkedHashMap<>();
                Type elemType = concrete(r, m.elem());
                for (int i = r.nextInt(3); i > 0; i--) {
                    entries.put("k" + r.nextInt(5), value(r, elemType, depth - 1, allowUnknown));
                }
                yield Value.map(entries.isEmpty() ? m.elem() : elemType, entries);
            }
            case TupleType tt -> {
                List<Value> elems = new ArrayList<>();
                for (Type et : tt.elems()) {
                    elems.add(value(r, et, depth - 1, allowUnknown));
                }
                yield Value.tuple(elems);
            }
            case ObjectType o -> {
                Map<String, Value> attrs = new TreeMap<>();
                o.attrs().forEach((k, at) -> attrs.put(k, value(r, at, depth - 1, allowUnknown)));
                yield Value.object(attrs);
            }
        };
    }

    /** A known collection has one concrete element type, so a dynamic element slot is fixed first. */
    private static Type concrete(Random r, Type declared) {
        if (!declared.hasDynamic()) {
            return declared;
        }
        return replaceDynamic(r, declared);
    }

    private static Type replaceDynamic(Random r, Type t) {
        return switch (t) {
            case DynamicType d -> type(r, 1, false);
            case PrimitiveType p -> p;
            case ListType l -> Type.list(replaceDynamic(r, l.elem()));
            case SetType s -> Type.set(replaceDynamic(r, s.elem()));
            case MapType m -> Type.map(replaceDynamic(r, m.elem()));
            case TupleType tt ->
                Type.tuple(tt.elems().stream().map(e -> replaceDynamic(r, e)).toList());
            case ObjectType o -> {
                Map<String, Type> attrs = new TreeMap<>();
                o.attrs().forEach((k, v) -> attrs.put(k, replaceDynamic(r, v)));
                yield Type.object(attrs);
            }
        };
    }

    private static final String[] strings = {"", "a", "ünïcødé", "line\nbreak", "😀", "x".repeat(300)};

    private static Value number(Random r) {
        return switch (r.nextInt(7)) {
            case 0 -> Value.number(r.nextInt(1000) - 500);
            case 1 -> Value.number(r.nextLong());
            case 2 -> Value.number(new BigInteger(200, r));
            case 3 -> Value.number(new BigDecimal("0.1"));
            case 4 -> Value.number(new BigDecimal(new BigInteger(100, r), r.nextInt(40)));
            case 5 -> Value.number(r.nextDouble() * 1e6);
            default -> Value.number(0.5);
        };
    }
}
