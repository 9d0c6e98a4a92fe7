package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one decision on {@code count} and {@code for_each} values, table-driven: each row is a value
 * and what must come of it. Error texts are Terraform 1.11's (checked with {@code terraform plan}
 * on {@code terraform_data}), except the count limit, where Terraform runs out of memory.
 */
class RepetitionTest {
    private static final SourceRange AT =
            new SourceRange("main.tf", new SourcePos(3, 11, 40), new SourcePos(3, 13, 42));
    private static final String WHOLE = "The given \"count\" argument value is unsuitable: value must be a whole "
            + "number, between -9223372036854775808 and 9223372036854775807.";
    private static final String SENSITIVE_KEYS = "Sensitive values, or values derived from sensitive values, cannot be "
            + "used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.";

    /** What a row expects: a count, for_each keys, unknown (deferred), or an error. */
    private sealed interface Want {}

    private record Count(int n) implements Want {}

    private record Keys(List<String> keys) implements Want {}

    private record Unknown() implements Want {}

    private record Error(String summary, String detail) implements Want {}

    private static Arguments row(String name, Value in, Want want) {
        return Arguments.of(name, in, want);
    }

    static Stream<Arguments> counts() {
        return Stream.of(
                row("zero", Value.number(0), new Count(0)),
                row("three", Value.number(3), new Count(3)),
                row("whole with a fraction part of zero", Value.number(new BigDecimal("2.0")), new Count(2)),
                row("string of digits", Value.string("5"), new Count(5)),
                row("largest int", Value.number(Integer.MAX_VALUE), new Count(Integer.MAX_VALUE)),
                row("sensitive, as Terraform allows", Value.number(2).mark(Mark.SENSITIVE), new Count(2)),
                row("unknown number", Value.unknown(Type.NUMBER), new Unknown()),
                row("unknown of any type", Value.unknown(Type.DYNAMIC), new Unknown()),
                row("unknown string", Value.unknown(Type.STRING), new Unknown()),
                row(
                        "null",
                        Value.nullValue(Type.NUMBER),
                        new Error(
                                "Invalid count argument",
                                "The given \"count\" argument value is null. An integer is required.")),
                row(
                        "negative",
                        Value.number(-1),
                        new Error(
                                "Invalid count argument",
                                "The given \"count\" argument value is unsuitable: must be greater than or equal to zero.")),
                row("fraction", Value.number(new BigDecimal("1.5")), new Error("Invalid count argument", WHOLE)),
                row(
                        "above int64",
                        Value.number(new BigDecimal("9223372036854775808")),
                        new Error("Invalid count argument", WHOLE)),
                row("infinity", Value.POSITIVE_INFINITY, new Error("Invalid count argument", WHOLE)),
                row("negative infinity", Value.NEGATIVE_INFINITY, new Error("Invalid count argument", WHOLE)),
                row(
                        "above the largest int",
                        Value.number(3_000_000_000L),
                        new Error(
                                "Invalid count argument",
                                "The given \"count\" argument value is unsuitable: Strata supports at most 2147483647 "
                                        + "instances of one resource or module.")),
                row(
                        "bool",
                        Value.bool(true),
                        new Error("Incorrect value type", "Invalid expression value: number required.")),
                row(
                        "unknown bool",
                        Value.unknown(Type.BOOL),
                        new Error("Incorrect value type", "Invalid expression value: number required.")),
                row(
                        "letters",
                        Value.string("abc"),
                        new Error("Incorrect value type", "Invalid expression value: a number is required.")),
                row(
                        "tuple",
                        Value.tuple(List.of(Value.number(1))),
                        new Error("Incorrect value type", "Invalid expression value: number required.")));
    }

    static Stream<Arguments> forEaches() {
        Value a = Value.string("a");
        Value b = Value.string("b");
        return Stream.of(
                row(
                        "map",
                        Value.map(Type.NUMBER, Map.of("b", Value.number(2), "a", Value.number(1))),
                        new Keys(List.of("a", "b"))),
                row("object", Value.objectOf("x", Value.bool(true)), new Keys(List.of("x"))),
                row("empty map", Value.map(Type.STRING, Map.of()), new Keys(List.of())),
                row("set of strings", Value.set(Type.STRING, List.of(b, a)), new Keys(List.of("a", "b"))),
                row(
                        "map with unknown values: the keys are known",
                        Value.map(Type.STRING, Map.of("k", Value.unknown(Type.STRING))),
                        new Keys(List.of("k"))),
                row(
                        "map with sensitive values, as Terraform allows",
                        Value.map(Type.STRING, Map.of("k", a.mark(Mark.SENSITIVE))),
                        new Keys(List.of("k"))),
                row("unknown", Value.unknown(Type.map(Type.STRING)), new Unknown()),
                row(
                        "set with an unknown element",
                        Value.set(Type.STRING, List.of(a, Value.unknown(Type.STRING))),
                        new Unknown()),
                row(
                        "null",
                        Value.nullValue(Type.map(Type.STRING)),
                        new Error(
                                "Invalid for_each argument",
                                "The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value "
                                        + "is null. A map, or set of strings is allowed.")),
                row(
                        "sensitive map",
                        Value.map(Type.NUMBER, Map.of("a", Value.number(1))).mark(Mark.SENSITIVE),
                        new Error("Invalid for_each argument", SENSITIVE_KEYS)),
                row(
                        "set with a sensitive element",
                        Value.set(Type.STRING, List.of(a.mark(Mark.SENSITIVE))),
                        new Error("Invalid for_each argument", SENSITIVE_KEYS)),
                row(
                        "set with a null element",
                        Value.set(Type.STRING, List.of(a, Value.nullValue(Type.STRING))),
                        new Error(
                                "Invalid for_each set argument",
                                "The given \"for_each\" argument value is "
                                        + "unsuitable: \"for_each\" sets must not contain null values.")),
                row(
                        "set of numbers",
                        Value.set(Type.NUMBER, List.of(Value.number(1))),
                        new Error(
                                "Invalid for_each set argument",
                                "The given \"for_each\" argument value is "
                                        + "unsuitable: \"for_each\" supports maps and sets of strings, but you have provided "
                                        + "a set containing type number.")),
                row(
                        "tuple",
                        Value.tuple(List.of(a)),
                        new Error(
                                "Invalid for_each argument",
                                "The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a "
                                        + "map, or set of strings, and you have provided a value of type tuple.")),
                row(
                        "list",
                        Value.list(Type.STRING, List.of(a)),
                        new Error(
                                "Invalid for_each argument",
                                "The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a "
                                        + "map, or set of strings, and you have provided a value of type list of string.")),
                row(
                        "number",
                        Value.number(5),
                        new Error(
                                "Invalid for_each argument",
                                "The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a "
                                        + "map, or set of strings, and you have provided a value of type number.")));
    }

    @ParameterizedTest(name = "count: {0}")
    @MethodSource("counts")
    void count(String name, Value in, Want want) {
        check(Repetition.checkCount(in, AT), want);
    }

    @ParameterizedTest(name = "for_each: {0}")
    @MethodSource("forEaches")
    void forEach(String name, Value in, Want want) {
        check(Repetition.checkForEach(in, AT), want);
    }

    private static void check(Repetition got, Want want) {
        switch (want) {
            case Count c -> assertThat(got).isEqualTo(new Repetition.Count(c.n()));
            case Keys k ->
                assertThat(got)
                        .isInstanceOfSatisfying(
                                Repetition.ForEach.class,
                                f -> assertThat(f.each().keySet()).containsExactlyElementsOf(k.keys()));
            case Unknown u -> assertThat(got).isEqualTo(new Repetition.Unknown());
            case Error e ->
                assertThat(got).isInstanceOfSatisfying(Repetition.Invalid.class, i -> {
                    Diagnostic d = i.error();
                    assertThat(d.isError()).isTrue();
                    assertThat(d.summary()).isEqualTo(e.summary());
                    assertThat(d.detail()).isEqualTo(e.detail());
                    assertThat(d.subject()).isEqualTo(AT);
                });
        }
    }
}
