package dev.strata.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaTest {

    private static final Block INNER =
            Block.builder().attribute("x", Attribute.required(Type.NUMBER)).build();
    private static final Block SCHEMA = Block.builder()
            .attribute("name", Attribute.required(Type.STRING))
            .attribute("id", Attribute.computed(Type.STRING))
            .attribute("old", Attribute.optional(Type.STRING).withDeprecated())
            .attribute("pw", Attribute.optional(Type.STRING).withSensitive())
            .block("one", NestedBlock.of(NestingMode.SINGLE, INNER))
            .block("many", new NestedBlock(NestingMode.LIST, INNER, 1, 2))
            .block("set", NestedBlock.of(NestingMode.SET, INNER))
            .block("byname", NestedBlock.of(NestingMode.MAP, INNER))
            .build();

    @Test
    void impliedTypeFollowsNestingModes() {
        Type inner = Type.object(Map.of("x", Type.NUMBER));
        assertThat(SCHEMA.impliedType())
                .isEqualTo(Type.object(Map.of(
                        "name",
                        Type.STRING,
                        "id",
                        Type.STRING,
                        "old",
                        Type.STRING,
                        "pw",
                        Type.STRING,
                        "one",
                        inner,
                        "many",
                        Type.list(inner),
                        "set",
                        Type.set(inner),
                        "byname",
                        Type.map(inner))));
    }

    @Test
    void attributeFlagsMustBeLegal() {
        assertThatThrownBy(() -> new Attribute(Type.STRING, true, false, true, false, "", false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Attribute(Type.STRING, false, false, false, false, "", false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Block.builder()
                        .attribute("a", Attribute.required(Type.STRING))
                        .block("a", NestedBlock.of(NestingMode.SINGLE, INNER))
                        .build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void coerceFillsAndConverts() {
        SchemaValues.Coerced c = SchemaValues.coerce(
                SCHEMA,
                Value.objectOf(
                        "name", Value.number(5), "many", Value.tuple(List.of(Value.objectOf("x", Value.string("1"))))));
        assertThat(c.diagnostics().hasErrors()).isFalse();
        assertThat(c.value().type()).isEqualTo(SCHEMA.impliedType());
        assertThat(c.value().attributes().get("name")).isEqualTo(Value.string("5"));
        assertThat(c.value().attributes().get("set")).isEqualTo(Value.set(INNER.impliedType(), List.of()));
        SchemaValues.Coerced bad = SchemaValues.coerce(SCHEMA, Value.objectOf("nmae", Value.string("x")));
        assertThat(bad.diagnostics().asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Unsupported argument");
    }

    @Test
    void checkConfigReportsRequiredComputedLimitsAndDeprecation() {
        Value cfg = SchemaValues.coerce(SCHEMA, Value.objectOf("id", Value.string("x"), "old", Value.string("y")))
                .value();
        ProviderDiagnostics d = SchemaValues.checkConfig(SCHEMA, cfg);
        assertThat(d.asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactlyInAnyOrder(
                        "Missing required argument",
                        "Invalid configuration",
                        "Argument is deprecated",
                        "Missing required block");
        assertThat(d.asList())
                .filteredOn(x -> x.summary().equals("Missing required argument"))
                .extracting(x -> x.attribute().toString())
                .containsExactly("name");
    }

    @Test
    void markSensitiveMarksDeclaredAttributes() {
        Value v = SchemaValues.coerce(SCHEMA, Value.objectOf("name", Value.string("n"), "pw", Value.string("s3cret")))
                .value();
        Value marked = SchemaValues.markSensitive(SCHEMA, v);
        assertThat(marked.attributes().get("pw").isSensitive()).isTrue();
        assertThat(marked.attributes().get("name").isSensitive()).isFalse();
        assertThat(marked.toString()).doesNotContain("s3cret");
    }

    @Test
    void markSensitiveLeavesAValueWhoseSchemaHasNoSensitiveAttributeAsItIs() {
        Block plain = Block.builder()
                .attribute("name", Attribute.optional(Type.STRING))
                .block(
                        "tags",
                        NestedBlock.of(
                                NestingMode.LIST,
                                Block.builder()
                                        .attribute("key", Attribute.optional(Type.STRING))
                                        .build()))
                .build();
        Value v = SchemaValues.coerce(plain, Value.objectOf("name", Value.string("n")))
                .value();
        assertThat(plain.hasSensitive()).isFalse();
        assertThat(SchemaValues.markSensitive(plain, v)).isSameAs(v);
        assertThat(SCHEMA.hasSensitive()).isTrue();
    }

    @Test
    void markSensitiveMarksDeclaredAttributesInEveryNestingMode() {
        Block inner = Block.builder()
                .attribute("key", Attribute.optional(Type.STRING).withSensitive())
                .attribute("label", Attribute.optional(Type.STRING))
                .build();
        Block schema = Block.builder()
                .block("one", NestedBlock.of(NestingMode.SINGLE, inner))
                .block("many", NestedBlock.of(NestingMode.LIST, inner))
                .block("set", NestedBlock.of(NestingMode.SET, inner))
                .block("byname", NestedBlock.of(NestingMode.MAP, inner))
                .build();
        Value obj = Value.objectOf("key", Value.string("k1"), "label", Value.string("l"));
        Value marked = SchemaValues.markSensitive(
                schema,
                Value.objectOf(
                        "one",
                        obj,
                        "many",
                        Value.list(inner.impliedType(), List.of(obj)),
                        "set",
                        Value.set(inner.impliedType(), List.of(obj)),
                        "byname",
                        Value.map(inner.impliedType(), Map.of("a", obj))));
        List<Value> objects = List.of(
                marked.attributes().get("one"),
                marked.attributes().get("many").elements().getFirst(),
                marked.attributes().get("byname").attributes().get("a"));
        for (Value o : objects) {
            assertThat(o.attributes().get("key").isSensitive()).isTrue();
            assertThat(o.attributes().get("label").isSensitive()).isFalse();
        }
        // A set holds no marked elements: an element's mark is lifted onto the set.
        assertThat(marked.attributes().get("set").isSensitive()).isTrue();
        assertThat(marked.toString()).doesNotContain("k1");
    }

    @Test
    void attributePathsRenderAndNavigate() {
        Value v = Value.objectOf(
                "tags",
                Value.map(Type.STRING, Map.of("env", Value.string("prod"))),
                "rules",
                Value.list(Type.STRING, List.of(Value.string("a"))));
        assertThat(AttributePath.of("tags").key("env").toString()).isEqualTo("tags[\"env\"]");
        assertThat(AttributePaths.valueIn(AttributePath.of("tags").key("env"), v))
                .contains(Value.string("prod"));
        assertThat(AttributePaths.valueIn(AttributePath.of("rules").index(0), v))
                .contains(Value.string("a"));
        assertThat(AttributePaths.valueIn(AttributePath.of("rules").index(3), v))
                .isEmpty();
        assertThat(AttributePath.of("a", "b").startsWith(AttributePath.of("a"))).isTrue();
    }
}
