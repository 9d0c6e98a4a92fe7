package dev.strata.lang.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Values written as Terraform writes them (encode_expr, encode_tfvars, -generate-config-out). */
class ValueSyntaxTest {

    static Stream<Arguments> expressions() {
        return Stream.of(
                Arguments.of(Value.NULL, "null"),
                Arguments.of(Value.unknown(dev.strata.lang.types.Type.STRING), "null"),
                Arguments.of(Value.TRUE, "true"),
                Arguments.of(Value.number(new BigDecimal("-1.50")), "-1.5"),
                Arguments.of(Value.number(new BigDecimal("1E+23")), "100000000000000000000000"),
                Arguments.of(Value.string(""), "\"\""),
                Arguments.of(Value.string("a\nb\r\t\"\\"), "\"a\\nb\\r\\t\\\"\\\\\""),
                Arguments.of(Value.string("${x} %{y} $ % $$ {"), "\"$${x} %%{y} $ % $$ {\""),
                Arguments.of(Value.string("\u0001\u007f\u00a0\u200b é😀"), "\"\\u0001\\u007f\\u00a0\\u200b é😀\""),
                Arguments.of(Value.string("\uDB80\uDC00"), "\"\\U000f0000\""),
                Arguments.of(Value.tuple(List.of()), "[]"),
                Arguments.of(Value.objectOf(), "{}"),
                Arguments.of(Value.tuple(List.of(Value.number(1), Value.string("a"), Value.NULL)), "[1, \"a\", null]"),
                Arguments.of(
                        Value.objectOf("bb", Value.number(2), "a", Value.number(1), "a b", Value.number(3)),
                        "{\n  a     = 1\n  \"a b\" = 3\n  bb    = 2\n}"),
                Arguments.of(
                        Value.objectOf("x", Value.tuple(List.of(Value.objectOf("y", Value.TRUE)))),
                        "{\n  x = [{\n    y = true\n  }]\n}"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("expressions")
    void expression(Value v, String text) {
        assertThat(ValueSyntax.expression(v)).isEqualTo(text);
    }

    @Test
    void attributesAreOneLinePerNameSortedAndAligned() {
        Map<String, Value> attrs = Map.of(
                "region", Value.string("eu"),
                "n", Value.number(3),
                "tags", Value.objectOf("Name", Value.string("x")),
                "zz", Value.FALSE);
        assertThat(ValueSyntax.attributes(attrs))
                .isEqualTo("n      = 3\nregion = \"eu\"\ntags = {\n  Name = \"x\"\n}\nzz = false\n");
        assertThat(ValueSyntax.attributes(Map.of())).isEmpty();
    }

    @Test
    void identifiersAreTheNamesHclScansAsOne() {
        assertThat(List.of("a", "_a", "a-b", "a1", "é", "ünï-x"))
                .allSatisfy(n -> assertThat(ValueSyntax.isIdentifier(n)).as(n).isTrue());
        assertThat(List.of("", "1a", "-a", "a b", "a.b", "\"a\"", "a\u200b"))
                .allSatisfy(n -> assertThat(ValueSyntax.isIdentifier(n)).as(n).isFalse());
    }
}
