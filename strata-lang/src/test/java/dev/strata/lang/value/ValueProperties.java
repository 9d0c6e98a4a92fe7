package dev.strata.lang.value;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class ValueProperties {
    @Provide
    Arbitrary<Value> primitives() {
        return Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(6).map(Value::string),
                Arbitraries.bigDecimals()
                        .between(new BigDecimal("-1e6"), new BigDecimal("1e6"))
                        .ofScale(3)
                        .map(Value::number),
                Arbitraries.of(true, false).map(Value::bool));
    }

    @Provide
    Arbitrary<List<Value>> primitiveLists() {
        return primitives().list().ofMaxSize(8);
    }

    @Provide
    Arbitrary<List<String>> strings() {
        return Arbitraries.strings().ofMaxLength(5).list().ofMaxSize(10);
    }

    /**
     * Text from a few units that order differently by code unit and by code point: ASCII, a unit above
     * the surrogates, a surrogate pair, lone high and low surrogates.
     */
    @Provide
    Arbitrary<String> trickyTexts() {
        return Arbitraries.of("a", "b", "\u00e9", "\uff5e", "\ud83d\udc7e", "\ud83d", "\udc7e", "\r")
                .list()
                .ofMaxSize(4)
                .map(parts -> String.join("", parts));
    }

    @Property
    void stringOrderIsTheCodePointOrder(@ForAll("trickyTexts") String a, @ForAll("trickyTexts") String b) {
        assertThat(Integer.signum(ValueOrder.compareStrings(a, b)))
                .isEqualTo(Integer.signum(ValueOrder.compareCodePoints(a, b)));
        if (wellFormed(a) && wellFormed(b)) {
            // Well-formed text: the byte order of the UTF-8 encodings, as Terraform orders.
            assertThat(Integer.signum(ValueOrder.compareStrings(a, b)))
                    .isEqualTo(Integer.signum(java.util.Arrays.compareUnsigned(
                            a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            b.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        }
    }

    /** Small nested values (objects, lists, maps of a few strings), some parts marked sensitive. */
    @Provide
    Arbitrary<Value> markedValues() {
        return nested(2);
    }

    private static Arbitrary<Value> nested(int depth) {
        Arbitrary<Value> leaf = Arbitraries.of("a", "b", "\u00e9").map(Value::string);
        Arbitrary<Value> inner = depth == 0 ? leaf : Arbitraries.oneOf(leaf, nested(depth - 1));
        Arbitrary<Value> shaped = depth == 0
                ? leaf
                : Arbitraries.oneOf(
                        leaf,
                        Arbitraries.maps(Arbitraries.of("x", "y", "z"), inner)
                                .ofMaxSize(3)
                                .map(Value::object),
                        Arbitraries.maps(Arbitraries.of("x", "y"), leaf)
                                .ofMaxSize(2)
                                .map(m -> Value.map(Type.STRING, m)),
                        leaf.list().ofMaxSize(3).map(l -> Value.list(Type.STRING, l)));
        return Arbitraries.oneOf(shaped, shaped.map(v -> v.mark(Mark.SENSITIVE)));
    }

    @Property
    void equalityIgnoringMarksIsEqualityOfTheUnmarkedValues(
            @ForAll("markedValues") Value a, @ForAll("markedValues") Value b) {
        assertThat(a.equalsIgnoringMarks(b)).isEqualTo(a.unmarkDeep().equals(b.unmarkDeep()));
        assertThat(a.equalsIgnoringMarks(a.unmarkDeep())).isTrue();
        Value u = a.unmarkDeep();
        assertThat(u.deepMarks()).isEmpty();
        // An unmarked value is its own unmarked copy: nothing is rebuilt.
        assertThat(u.unmarkDeep()).isSameAs(u);
    }

    private static boolean wellFormed(String s) {
        return s.codePoints().noneMatch(cp -> cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE);
    }

    @Property
    void setOrderDoesNotDependOnInsertionOrder(@ForAll("strings") List<String> items) {
        List<Value> vs = new ArrayList<>();
        items.forEach(s -> vs.add(Value.string(s)));
        List<Value> shuffled = new ArrayList<>(vs);
        Collections.shuffle(shuffled);
        Value a = Value.set(Type.STRING, vs);
        Value b = Value.set(Type.STRING, shuffled);
        assertThat(a).isEqualTo(b);
        assertThat(a.elements()).isEqualTo(b.elements());
        for (int i = 1; i < a.elements().size(); i++) {
            assertThat(ValueOrder.compareStrings(
                            a.elements().get(i - 1).asString(),
                            a.elements().get(i).asString()))
                    .isNegative();
        }
    }

    @Property
    void mapKeyOrderDoesNotDependOnInsertionOrder(@ForAll("strings") List<String> keys) {
        Map<String, Value> m1 = new LinkedHashMap<>();
        keys.forEach(k -> m1.put(k, Value.string(k)));
        List<String> rev = new ArrayList<>(keys);
        Collections.reverse(rev);
        Map<String, Value> m2 = new LinkedHashMap<>();
        rev.forEach(k -> m2.put(k, Value.string(k)));
        Value a = Value.map(Type.STRING, m1);
        Value b = Value.map(Type.STRING, m2);
        assertThat(a).isEqualTo(b);
        assertThat(List.copyOf(a.attributes().keySet()))
                .isEqualTo(List.copyOf(b.attributes().keySet()));
    }

    @Property
    void tupleToListConvertsWhenTypesUnify(@ForAll("primitiveLists") List<Value> elems) {
        Value t = Value.tuple(elems);
        List<Type> types = new ArrayList<>();
        elems.forEach(e -> types.add(e.type()));
        ConversionResult r = Convert.convert(t, Type.list(Type.DYNAMIC));
        var u = Unify.unify(types);
        assertThat(r.isOk()).isEqualTo(u.isPresent());
        if (r.isOk()) {
            Value l = r.value();
            assertThat(l.length()).isEqualTo(elems.size());
            if (!elems.isEmpty()) {
                assertThat(l.type()).isEqualTo(Type.list(u.get()));
            }
            // Converting back to the tuple's type restores the original values.
            assertThat(Convert.convert(l, t.type()).value()).isEqualTo(t);
        }
    }

    @Property
    void unifiedTypeAcceptsEveryInput(@ForAll("primitiveLists") List<Value> elems) {
        List<Type> types = new ArrayList<>();
        elems.forEach(e -> types.add(e.type()));
        Unify.unify(types)
                .ifPresent(u -> elems.forEach(
                        e -> assertThat(Convert.convert(e, u).isOk()).isTrue()));
    }

    @Property
    void conversionKeepsMarks(@ForAll("primitives") Value v) {
        Value s = v.mark(Mark.SENSITIVE);
        assertThat(Convert.convert(s, Type.STRING).value().isSensitive()).isTrue();
        assertThat(Convert.convert(s, Type.DYNAMIC).value().isSensitive()).isTrue();
    }

    @Property
    void nullAndUnknownConvertToAnyReachableType(@ForAll("primitives") Value v) {
        Type target = Type.STRING;
        assertThat(Convert.convert(Value.nullValue(v.type()), target).value()).isEqualTo(Value.nullValue(target));
        assertThat(Convert.convert(Value.unknown(v.type()), target).value()).isEqualTo(Value.unknown(target));
    }

    @Property
    void setOfMixedPrimitivesIsDeterministic(@ForAll("primitiveLists") List<Value> elems) {
        List<Value> strings = new ArrayList<>();
        elems.forEach(e -> strings.add(Convert.convert(e, Type.STRING).value()));
        List<Value> shuffled = new ArrayList<>(strings);
        Collections.shuffle(shuffled);
        assertThat(Value.set(Type.STRING, strings).elements())
                .isEqualTo(Value.set(Type.STRING, shuffled).elements());
    }
}
