package dev.strata.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueJsonTest {

    @Test
    void roundTripsAgainstTheType() {
        Type t = Type.object(Map.of(
                "s",
                Type.STRING,
                "n",
                Type.NUMBER,
                "l",
                Type.list(Type.BOOL),
                "m",
                Type.map(Type.STRING),
                "d",
                Type.DYNAMIC,
                "z",
                Type.set(Type.STRING)));
        Value v = Value.objectOf(
                "s",
                Value.string("x"),
                "n",
                Value.number(new java.math.BigDecimal("1.5")),
                "l",
                Value.list(Type.BOOL, List.of(Value.TRUE)),
                "m",
                Value.map(Type.STRING, Map.of("k", Value.string("v"))),
                "d",
                Value.tuple(List.of(Value.string("a"), Value.number(1))),
                "z",
                Value.set(Type.STRING, List.of()));
        String json = ValueJson.encode(v, t);
        assertThat(json).contains("\"d\":{\"value\":[\"a\",1],\"type\":[\"tuple\",[\"string\",\"number\"]]}");
        assertThat(ValueJson.decode(json, t)).isEqualTo(v);
    }

    @Test
    void nullsAndMissingAttributesDecodeAsNull() {
        Type t = Type.object(Map.of("a", Type.STRING, "b", Type.DYNAMIC));
        Value v = ValueJson.decode("{\"a\":null}", t);
        assertThat(v.attributes().get("a")).isEqualTo(Value.nullValue(Type.STRING));
        assertThat(v.attributes().get("b").isNull()).isTrue();
        assertThat(ValueJson.encode(v, t)).isEqualTo("{\"a\":null,\"b\":null}");
    }

    @Test
    void numbersAreWrittenAsPlainDecimals() {
        assertThat(ValueJson.encode(Value.number(new java.math.BigDecimal("0.000001")), Type.NUMBER))
                .isEqualTo("0.000001");
        assertThat(ValueJson.encode(Value.number(new java.math.BigDecimal("1E+21")), Type.NUMBER))
                .isEqualTo("1000000000000000000000");
    }

    @Test
    void typesUseCtyNotation() {
        assertThat(ValueJson.typeJson(Type.map(Type.list(Type.STRING)))).isEqualTo("[\"map\",[\"list\",\"string\"]]");
        assertThat(ValueJson.parseType(ValueJson.typeNode(Type.object(Map.of("a", Type.set(Type.NUMBER))))))
                .isEqualTo(Type.object(Map.of("a", Type.set(Type.NUMBER))));
    }
}
