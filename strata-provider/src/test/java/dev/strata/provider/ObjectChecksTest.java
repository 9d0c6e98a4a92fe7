package dev.strata.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectChecksTest {

    private static final Block SCHEMA = Block.builder()
            .attribute("name", Attribute.required(Type.STRING))
            .attribute("size", Attribute.optionalComputed(Type.NUMBER))
            .attribute("id", Attribute.computed(Type.STRING))
            .attribute("secret", Attribute.optional(Type.STRING).withSensitive())
            .build();

    private static Value obj(Map<String, Value> m) {
        return SchemaValues.coerce(SCHEMA, Value.object(m)).value();
    }

    @Test
    void planMayChooseOnlyComputedValuesLeftNull() {
        Value config = obj(Map.of("name", Value.string("a")));
        assertThat(ObjectChecks.checkPlanValid(
                        SCHEMA,
                        config,
                        obj(Map.of(
                                "name", Value.string("a"), "size", Value.number(2), "id", Value.unknown(Type.STRING)))))
                .isEmpty();
        assertThat(ObjectChecks.checkPlanValid(SCHEMA, config, obj(Map.of("name", Value.string("b")))))
                .containsExactly(".name: planned value does not match the configuration's value");
        assertThat(ObjectChecks.checkPlanValid(
                        SCHEMA, config, obj(Map.of("name", Value.string("a"), "secret", Value.string("hunter2")))))
                .hasSize(1)
                .allSatisfy(m -> assertThat(m).doesNotContain("hunter2"));
    }

    @Test
    void unknownConfigNeedsUnknownPlan() {
        Value config = obj(Map.of("name", Value.unknown(Type.STRING)));
        assertThat(ObjectChecks.checkPlanValid(SCHEMA, config, obj(Map.of("name", Value.string("x")))))
                .hasSize(1);
        assertThat(ObjectChecks.checkPlanValid(SCHEMA, config, obj(Map.of("name", Value.unknown(Type.STRING)))))
                .isEmpty();
    }

    @Test
    void appliedMustMatchKnownPlannedValues() {
        Value planned = obj(Map.of("name", Value.string("a"), "id", Value.unknown(Type.STRING)));
        assertThat(ObjectChecks.checkCompatible(
                        planned, obj(Map.of("name", Value.string("a"), "id", Value.string("i")))))
                .isEmpty();
        assertThat(ObjectChecks.checkCompatible(
                        planned, obj(Map.of("name", Value.string("z"), "id", Value.string("i")))))
                .containsExactly(".name: was a different value in the plan, but now a different value");
        assertThat(ObjectChecks.checkCompatible(planned.mark(Mark.SENSITIVE).unmark(), planned))
                .isEmpty();
    }

    @Test
    void unknownPathsAreFound() {
        Value v = Value.objectOf(
                "a",
                Value.list(Type.STRING, List.of(Value.string("x"), Value.unknown(Type.STRING))),
                "b",
                Value.unknown(Type.NUMBER));
        assertThat(ObjectChecks.unknownPaths(v))
                .extracting(AttributePath::toString)
                .containsExactly("a[1]", "b");
    }
}
