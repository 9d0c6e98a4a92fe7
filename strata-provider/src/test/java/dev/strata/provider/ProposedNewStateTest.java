package dev.strata.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProposedNewStateTest {

    private static final Block RULE = Block.builder()
            .attribute("cidr", Attribute.required(Type.STRING))
            .attribute("rule_id", Attribute.computed(Type.STRING))
            .build();

    private static final Block SCHEMA = Block.builder()
            .attribute("name", Attribute.required(Type.STRING))
            .attribute("size", Attribute.optionalComputed(Type.NUMBER))
            .attribute("id", Attribute.computed(Type.STRING))
            .attribute("note", Attribute.optional(Type.STRING))
            .block("rule", NestedBlock.of(NestingMode.LIST, RULE))
            .block("tag", NestedBlock.of(NestingMode.SET, RULE))
            .block("opts", NestedBlock.of(NestingMode.SINGLE, RULE))
            .build();

    private static Value obj(Map<String, Value> m) {
        return SchemaValues.coerce(SCHEMA, Value.object(m)).value();
    }

    private static Value rule(String cidr, String id) {
        return Value.objectOf(
                "cidr", Value.string(cidr), "rule_id", id == null ? Value.nullValue(Type.STRING) : Value.string(id));
    }

    @Test
    void configWinsForConfigurableAndPriorForComputedLeftNull() {
        Value prior = obj(Map.of(
                "name",
                Value.string("a"),
                "size",
                Value.number(3),
                "id",
                Value.string("i-1"),
                "note",
                Value.string("old")));
        Value config = obj(Map.of("name", Value.string("b")));
        Value p = ProposedNewState.of(SCHEMA, prior, config);
        assertThat(p.attributes().get("name")).isEqualTo(Value.string("b"));
        assertThat(p.attributes().get("size")).isEqualTo(Value.number(3));
        assertThat(p.attributes().get("id")).isEqualTo(Value.string("i-1"));
        assertThat(p.attributes().get("note").isNull()).isTrue();
    }

    @Test
    void createProposesConfigWithNullComputed() {
        Value config = obj(Map.of("name", Value.string("b"), "size", Value.number(1)));
        Value p = ProposedNewState.of(SCHEMA, SCHEMA.nullValue(), config);
        assertThat(p.attributes().get("size")).isEqualTo(Value.number(1));
        assertThat(p.attributes().get("id").isNull()).isTrue();
        assertThat(p.attributes().get("opts").isNull()).isTrue();
    }

    @Test
    void destroyProposesNull() {
        assertThat(ProposedNewState.of(SCHEMA, obj(Map.of("name", Value.string("a"))), SCHEMA.nullValue())
                        .isNull())
                .isTrue();
    }

    @Test
    void nestedListBlocksKeepComputedValuesByIndex() {
        Value prior = obj(Map.of(
                "name", Value.string("a"), "rule", Value.list(RULE.impliedType(), List.of(rule("10.0.0.0/8", "r-1")))));
        Value config = obj(Map.of(
                "name",
                Value.string("a"),
                "rule",
                Value.list(RULE.impliedType(), List.of(rule("10.0.0.0/8", null), rule("10.1.0.0/16", null)))));
        Value rules = ProposedNewState.of(SCHEMA, prior, config).attributes().get("rule");
        assertThat(rules.elements().get(0).attributes().get("rule_id")).isEqualTo(Value.string("r-1"));
        assertThat(rules.elements().get(1).attributes().get("rule_id").isNull()).isTrue();
    }

    @Test
    void nestedSetBlocksMatchByConfigurableContent() {
        Value prior = obj(Map.of(
                "name",
                Value.string("a"),
                "tag",
                Value.set(RULE.impliedType(), List.of(rule("a", "r-a"), rule("b", "r-b")))));
        Value config = obj(Map.of(
                "name",
                Value.string("a"),
                "tag",
                Value.set(RULE.impliedType(), List.of(rule("b", null), rule("c", null)))));
        Value tags = ProposedNewState.of(SCHEMA, prior, config).attributes().get("tag");
        assertThat(tags.elements()).contains(rule("b", "r-b"), rule("c", null)).hasSize(2);
    }

    @Test
    void singleBlockMergesWithPrior() {
        Value prior = obj(Map.of("name", Value.string("a"), "opts", rule("x", "r-x")));
        Value config = obj(Map.of("name", Value.string("a"), "opts", rule("x", null)));
        assertThat(ProposedNewState.of(SCHEMA, prior, config).attributes().get("opts"))
                .isEqualTo(rule("x", "r-x"));
    }

    @Test
    void unknownConfigStaysUnknown() {
        Value prior = obj(Map.of("name", Value.string("a"), "id", Value.string("i")));
        Value config = obj(Map.of("name", Value.unknown(Type.STRING)));
        Value p = ProposedNewState.of(SCHEMA, prior, config);
        assertThat(p.attributes().get("name").isKnown()).isFalse();
        assertThat(p.attributes().get("id")).isEqualTo(Value.string("i"));
    }
}
