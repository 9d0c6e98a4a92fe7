package dev.strata.tfplugin.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.ValueJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Byte-level facts of cty's encodings, so a round trip cannot hide a symmetric mistake. */
class WireFormatTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void unknownIsExtensionZero() {
        assertThat(MsgpackValues.encode(Value.unknown(Type.STRING), Type.STRING))
                .isEqualTo(hex("d40000"));
        assertThat(MsgpackValues.decode(hex("d40000"), Type.STRING)).isEqualTo(Value.unknown(Type.STRING));
    }

    @Test
    void refinedUnknownDecodesAsUnknown() {
        // ext 12 carrying {1: false}: "definitely not null" in cty's refinement encoding.
        byte[] refined = hex("c7030c8101c2");
        assertThat(MsgpackValues.decode(refined, Type.list(Type.STRING)))
                .isEqualTo(Value.unknown(Type.list(Type.STRING)));
    }

    @Test
    void numbersKeepTheirPrecision() {
        Value big = Value.number(new BigDecimal("123456789012345678901234567890.000000000000000000001"));
        byte[] bytes = MsgpackValues.encode(big, Type.NUMBER);
        assertThat(bytes[0] & 0xff).as("sent as text").isBetween(0xa0, 0xdb);
        assertThat(MsgpackValues.decode(bytes, Type.NUMBER)).isEqualTo(big);
        assertThat(MsgpackValues.encode(Value.number(42), Type.NUMBER)).isEqualTo(hex("2a"));
        assertThat(MsgpackValues.encode(Value.number(0.5), Type.NUMBER)).isEqualTo(hex("cb3fe0000000000000"));
    }

    @Test
    void dynamicSlotCarriesTypeAndValue() {
        byte[] bytes = MsgpackValues.encode(Value.string("hi"), Type.DYNAMIC);
        // [bin("\"string\""), "hi"]
        assertThat(bytes).isEqualTo(hex("92c40822737472696e6722a26869"));
        assertThat(MsgpackValues.decode(bytes, Type.DYNAMIC)).isEqualTo(Value.string("hi"));
    }

    @Test
    void missingObjectAttributesDecodeAsNull() {
        Type t = Type.object(Map.of("a", Type.STRING, "b", Type.NUMBER));
        byte[] onlyA = hex("81a161a178");
        assertThat(MsgpackValues.decode(onlyA, t))
                .isEqualTo(Value.object(Map.of("a", Value.string("x"), "b", Value.nullValue(Type.NUMBER))));
        assertThatThrownBy(() -> MsgpackValues.decode(hex("81a163a178"), t))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("\"c\"");
    }

    @Test
    void typeJsonReadsOptionalAttributes() {
        Type t = TypeJson.parse("[\"object\",{\"a\":[\"list\",\"string\"],\"b\":\"dynamic\"},[\"b\"]]"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(t.typeExpr()).isEqualTo("object({a=list(string),b=optional(any)})");
        assertThatThrownBy(() -> TypeJson.parse("[\"bag\",\"string\"]".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(WireFormatException.class);
    }

    @Test
    void jsonFallbackWrapsDynamicValues() {
        Value v = Value.tuple(List.of(Value.number(1), Value.bool(true)));
        String json = ValueJson.encode(v, Type.DYNAMIC);
        assertThat(json).isEqualTo("{\"value\":[1,true],\"type\":[\"tuple\",[\"number\",\"bool\"]]}");
        assertThat(ValueJson.decodeExact(json.getBytes(StandardCharsets.UTF_8), Type.DYNAMIC))
                .isEqualTo(v);
    }

    @Test
    void providerJsonIsReadStrictlyAndExactly() {
        Type t = Type.object(java.util.Map.of("n", Type.NUMBER, "flag", Type.BOOL, "l", Type.list(Type.DYNAMIC)));
        Value v = ValueJson.decodeExact(
                "{\"n\":3.14159265358979323846264338327950288,\"flag\":null,\"l\":[{\"value\":\"a\",\"type\":\"string\"}]}"
                        .getBytes(StandardCharsets.UTF_8),
                t);
        assertThat(v.attributes().get("n"))
                .isEqualTo(Value.number(new java.math.BigDecimal("3.14159265358979323846264338327950288")));
        // Elements of a dynamic collection get the type they share, as cty gives them.
        assertThat(v.attributes().get("l")).isEqualTo(Value.list(Type.STRING, List.of(Value.string("a"))));
        assertThatThrownBy(() -> ValueJson.decodeExact("{\"other\":1}".getBytes(StandardCharsets.UTF_8), t))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unsupported attribute \"other\"");
        assertThatThrownBy(() -> ValueJson.decodeExact("{\"flag\":\"true\"}".getBytes(StandardCharsets.UTF_8), t))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
