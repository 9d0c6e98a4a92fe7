package dev.strata.cli.tftest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The comparison {@code terraform test} 1.12+ shows under a failed comparison: JSON lines and their diff. */
class AssertionComparisonTest {

    @Test
    void rendersIndentedJsonWithSortedKeysAndHiddenMarkedParts() {
        Value v = Value.objectOf(
                "b", Value.tuple(List.of(Value.number(1), Value.string("x\"y"))),
                "a", Value.string("s").mark(Mark.SENSITIVE),
                "c", Value.EMPTY_OBJECT,
                "d", Value.string("e").mark(Mark.EPHEMERAL),
                "n", Value.NULL);
        assertEquals(
                List.of(
                        "{",
                        "  \"a\": \"(sensitive value)\",",
                        "  \"b\": [",
                        "    1,",
                        "    \"x\\\"y\"",
                        "  ],",
                        "  \"c\": {},",
                        "  \"d\": \"(ephemeral value)\",",
                        "  \"n\": null",
                        "}"),
                AssertionComparison.render(v));
    }

    @Test
    void diffPutsRemovedLinesBeforeAddedOnesBetweenCommonLines() {
        assertEquals(
                List.of("  {", "-   a1,", "-   b1", "+   a2,", "+   b2", "  }"),
                AssertionComparison.diff(List.of("{", "  a1,", "  b1", "}"), List.of("{", "  a2,", "  b2", "}")));
        assertEquals(List.of("- 10", "+ 0"), AssertionComparison.diff(List.of("10"), List.of("0")));
        assertEquals(List.of("  same"), AssertionComparison.diff(List.of("same"), List.of("same")));
    }
}
