package dev.strata.lang.value;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Set elements in the order Terraform (cty) lists them, each expectation taken from
 * {@code terraform console} 1.11: primitives by value with unknowns and then nulls last, every
 * other type by the bytes of cty's set-hash serialization; unknown elements never collapse.
 */
class SetOrderTest {
    record Case(String name, List<Value> given, List<Value> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Value s(String x) {
        return Value.string(x);
    }

    private static Value n(String x) {
        return Value.number(new BigDecimal(x));
    }

    private static Value obj(Value a) {
        return Value.objectOf("a", a);
    }

    private static Value strs(String... xs) {
        List<Value> l = new ArrayList<>();
        for (String x : xs) {
            l.add(s(x));
        }
        return Value.list(Type.STRING, l);
    }

    static List<Case> cases() {
        Value u = Value.unknown(Type.STRING);
        Value nullString = Value.nullValue(Type.STRING);
        return List.of(
                new Case(
                        "strings, unknowns after, nulls last",
                        List.of(u, nullString, s("b"), s("a")),
                        List.of(s("a"), s("b"), u, nullString)),
                new Case("two unknowns stay two", List.of(u, u, s("a"), s("a")), List.of(s("a"), u, u)),
                new Case(
                        "numbers by value",
                        List.of(n("12345678901"), n("1.5"), n("-3"), n("0.1")),
                        List.of(n("-3"), n("0.1"), n("1.5"), n("12345678901"))),
                new Case("bools", List.of(Value.TRUE, Value.FALSE), List.of(Value.FALSE, Value.TRUE)),
                new Case(
                        "objects by serialization: 10 before 9",
                        List.of(obj(n("9")), obj(n("10"))),
                        List.of(obj(n("10")), obj(n("9")))),
                new Case(
                        "objects: %g with 10 digits",
                        List.of(obj(n("1.3")), obj(n("12345678901"))), List.of(obj(n("12345678901")), obj(n("1.3")))),
                new Case(
                        "objects: 10 digits stay plain",
                        List.of(obj(n("1234567890")), obj(n("1.3"))),
                        List.of(obj(n("1.3")), obj(n("1234567890")))),
                new Case(
                        "objects: small numbers in exponent form",
                        List.of(obj(n("0.000012345")), obj(n("0.0001"))),
                        List.of(obj(n("0.0001")), obj(n("0.000012345")))),
                new Case(
                        "objects: Go quoting of control characters",
                        List.of(obj(s("\u0001")), obj(s("Z"))),
                        List.of(obj(s("Z")), obj(s("\u0001")))),
                new Case(
                        "objects: non-printable spaces escaped",
                        List.of(obj(s("a")), obj(s("\u00a0"))),
                        List.of(obj(s("\u00a0")), obj(s("a")))),
                new Case(
                        "objects: quotes escaped",
                        List.of(obj(s("a\"b")), obj(s("a#"))),
                        List.of(obj(s("a#")), obj(s("a\"b")))),
                new Case(
                        "objects: null attribute last",
                        List.of(obj(nullString), obj(s("a"))),
                        List.of(obj(s("a")), obj(nullString))),
                new Case(
                        "objects: unknown attribute after known",
                        List.of(obj(u), obj(s("r")), obj(s("q"))),
                        List.of(obj(s("q")), obj(s("r")), obj(u))),
                new Case("objects holding unknowns stay distinct", List.of(obj(u), obj(u)), List.of(obj(u), obj(u))),
                new Case(
                        "lists",
                        List.of(strs("b", "a"), strs("a"), strs("a", "b")),
                        List.of(strs("a", "b"), strs("a"), strs("b", "a"))),
                new Case(
                        "maps by key then value",
                        List.of(
                                Value.map(Type.STRING, java.util.Map.of("b", s("1"))),
                                Value.map(Type.STRING, java.util.Map.of("a", s("2"), "c", s("0")))),
                        List.of(
                                Value.map(Type.STRING, java.util.Map.of("a", s("2"), "c", s("0"))),
                                Value.map(Type.STRING, java.util.Map.of("b", s("1"))))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void inCtyOrder(Case c) {
        Type elem = c.given().get(0).type();
        assertThat(Value.set(elem, c.given()).elements()).isEqualTo(c.expected());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "0|0",
                "1|1",
                "-1|-1",
                "100|100",
                "1.3|1.3",
                "0.1|0.1",
                "0.0001|0.0001",
                "0.000012345|1.2345e-05",
                "1234567890|1234567890",
                "12345678901|1.23456789e+10",
                "1e20|1e+20",
                "1.5e-7|1.5e-07",
                "123456.5|123456.5",
                "3.14159265358979|3.141592654",
                "-12345678901234|-1.23456789e+13"
            })
    void numbersAsGoBigFloatPrintsThem(String given, String printed) {
        assertThat(SetHashBytes.number(n(given))).isEqualTo(printed);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serializations")
    void serialization(Value v, String bytes) {
        assertThat(new String(SetHashBytes.of(v), StandardCharsets.UTF_8)).isEqualTo(bytes);
    }

    static List<org.junit.jupiter.params.provider.Arguments> serializations() {
        return List.of(
                org.junit.jupiter.params.provider.Arguments.of(
                        Value.objectOf(
                                "a",
                                s("x\ty"),
                                "b",
                                Value.TRUE,
                                "c",
                                Value.nullValue(Type.NUMBER),
                                "d",
                                Value.unknown(Type.STRING)),
                        "<\"x\\ty\";T;~;?;>"),
                org.junit.jupiter.params.provider.Arguments.of(strs("a", "é"), "[\"a\";\"é\";]"),
                org.junit.jupiter.params.provider.Arguments.of(
                        Value.map(Type.NUMBER, java.util.Map.of("k", n("2"))), "{\"k\":2;}"));
    }
}
