package dev.strata.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteOnlyTest {
    private static final Block NESTED = Block.builder()
            .attribute("secret_wo", Attribute.optional(Type.STRING).withWriteOnly())
            .attribute("label", Attribute.optional(Type.STRING))
            .build();
    private static final Block SCHEMA = Block.builder()
            .attribute("value_wo", Attribute.optional(Type.STRING).withWriteOnly())
            .attribute("value_wo_version", Attribute.optional(Type.NUMBER))
            .block("item", new NestedBlock(NestingMode.LIST, NESTED, 0, 0))
            .build();

    private static Value config() {
        return Value.object(Map.of(
                "value_wo",
                Value.string("s3cret"),
                "value_wo_version",
                Value.number(1),
                "item",
                Value.list(
                        NESTED.impliedType(),
                        List.of(Value.object(
                                Map.of("secret_wo", Value.string("inner"), "label", Value.string("a")))))));
    }

    @Test
    void writeOnlyAttributesAreNulledAtEveryDepth() {
        assertThat(SCHEMA.hasWriteOnly()).isTrue();
        Value out = SchemaValues.nullWriteOnly(SCHEMA, config());
        assertThat(out.attributes().get("value_wo").isNull()).isTrue();
        assertThat(out.attributes().get("value_wo_version")).isEqualTo(Value.number(1));
        Value item = out.attributes().get("item").elements().getFirst();
        assertThat(item.attributes().get("secret_wo").isNull()).isTrue();
        assertThat(item.attributes().get("label")).isEqualTo(Value.string("a"));
    }

    @Test
    void aPlanMustNotKeepAWriteOnlyValueAndNeedNotMatchTheConfiguration() {
        Value planned = SchemaValues.nullWriteOnly(SCHEMA, config());
        assertThat(ObjectChecks.checkPlanValid(SCHEMA, config(), planned)).isEmpty();
        assertThat(ObjectChecks.checkPlanValid(SCHEMA, config(), config())).anyMatch(p -> p.contains("write-only"));
    }

    @Test
    void aWriteOnlyAttributeCannotBeComputed() {
        assertThatThrownBy(() -> Attribute.optionalComputed(Type.STRING).withWriteOnly())
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Attribute.optional(Type.STRING)
                        .withWriteOnly()
                        .withSensitive()
                        .writeOnly())
                .isTrue();
    }
}
