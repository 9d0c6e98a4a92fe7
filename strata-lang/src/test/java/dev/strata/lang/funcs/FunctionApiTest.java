package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

class FunctionApiTest {
    static final FunctionTable T = ConsoleCasesTest.table();

    static CallResult call(String name, Value... args) {
        return T.lookup(name).orElseThrow().call(args);
    }

    @Test
    void lookupSupportsCorePrefixAndListsNames() {
        assertThat(T.lookup("core::upper")).containsSame(T.lookup("upper").orElseThrow());
        assertThat(T.lookup("nope")).isEmpty();
        assertThat(T.names()).contains("abs", "zipmap", "cidrsubnets").doesNotContain("try", "can");
        assertThat(FunctionTable.SPECIAL_FORMS).containsExactly("can", "try");
        assertThat(T.without("plantimestamp").lookup("plantimestamp")).isEmpty();
    }

    @Test
    void evaluatorCanRegisterMoreFunctions() {
        Function f = Function.builder("try")
                .varParam(Dsl.raw("expressions", Type.DYNAMIC))
                .returns(Type.DYNAMIC)
                .impl((a, t) -> a.get(0))
                .build();
        assertThat(T.with(f).lookup("try")).containsSame(f);
    }

    @Test
    void arityErrors() {
        CallResult.Failure f = (CallResult.Failure) call("abs");
        assertThat(f.summary()).isEqualTo("Not enough function arguments");
        assertThat(f.detail()).isEqualTo("Function \"abs\" expects 1 argument(s). Missing value for \"num\".");
        CallResult.Failure g = (CallResult.Failure) call("abs", Value.number(1), Value.number(2));
        assertThat(g.summary()).isEqualTo("Too many function arguments");
        assertThat(g.argIndex()).isEqualTo(1);
    }

    @Test
    void failuresNameTheArgument() {
        CallResult.Failure f =
                (CallResult.Failure) call("substr", Value.string("a"), Value.string("x"), Value.number(1));
        assertThat(f.argIndex()).isEqualTo(1);
        assertThat(f.detail()).isEqualTo("Invalid value for \"offset\" parameter: a number is required.");
        CallResult.Failure j = (CallResult.Failure) call(
                "join", Value.string(","), Value.tuple(List.of(Value.string("a"))), Value.tuple(List.of(Value.NULL)));
        assertThat(j.argIndex()).isEqualTo(2);
        assertThat(j.message()).isEqualTo("element 0 is null; cannot concatenate null values");
        CallResult.Failure n = (CallResult.Failure) call("upper", Value.nullValue(Type.STRING));
        assertThat(n.argIndex()).isEqualTo(0);
        assertThat(n.message()).isEqualTo("argument must not be null");
    }

    @Test
    void unknownArgumentsGiveTypedUnknowns() {
        assertThat(call("upper", Value.unknown(Type.STRING)).value()).isEqualTo(Value.unknown(Type.STRING));
        assertThat(call("split", Value.string(","), Value.DYNAMIC_UNKNOWN).value())
                .isEqualTo(Value.unknown(Type.list(Type.STRING)));
        // A conversion error is still reported when the value is unknown but its type is wrong.
        assertThat(call("upper", Value.unknown(Type.tuple(List.of()))).isSuccess())
                .isFalse();
        // regex's result type comes from a known pattern even when the string is unknown.
        assertThat(call("regex", Value.string("(?P<a>x)"), Value.unknown(Type.STRING))
                        .value()
                        .type())
                .isEqualTo(Type.object(java.util.Map.of("a", Type.STRING)));
    }

    @Test
    void marksOnArgumentsMoveToTheResult() {
        Value r = call(
                        "join",
                        Value.string(","),
                        Value.tuple(List.of(Value.string("a"), Value.string("b").mark(Mark.SENSITIVE))))
                .value();
        assertThat(r.isSensitive()).isTrue();
        assertThat(r.unmark()).isEqualTo(Value.string("a,b"));
        Value e = call("upper", Value.string("a").mark(Mark.EPHEMERAL)).value();
        assertThat(e.marks()).containsExactly(Mark.EPHEMERAL);
    }

    @Test
    void tolistKeepsInnerMarksWhileTosetLiftsThem() {
        Value t = Value.tuple(List.of(Value.number(1).mark(Mark.SENSITIVE), Value.number(2)));
        Value l = call("tolist", t).value();
        assertThat(l.isSensitive()).isFalse();
        assertThat(l.elements().get(0).isSensitive()).isTrue();
        assertThat(call("toset", t).value().isSensitive()).isTrue();
    }

    @Test
    void plantimestampIsUnknownWithoutAPlanAndFixedWithOne() {
        assertThat(call("plantimestamp").value()).isEqualTo(Value.unknown(Type.STRING));
        FunctionContext ctx = new FunctionContext(
                        java.nio.file.Path.of("."),
                        java.nio.file.Path.of("/h"),
                        java.time.Clock.systemUTC(),
                        java.util.Optional.empty(),
                        java.util.UUID::randomUUID)
                .withPlanTimestamp(java.time.Instant.parse("2020-05-06T07:08:09.5Z"));
        assertThat(Functions.builtins(ctx)
                        .lookup("plantimestamp")
                        .orElseThrow()
                        .call()
                        .value())
                .isEqualTo(Value.string("2020-05-06T07:08:09Z"));
    }

    @Test
    void timestampAndUuidComeFromTheContext() {
        assertThat(call("timestamp").value()).isEqualTo(Value.string("2024-01-02T03:04:05Z"));
        assertThat(call("uuid").value()).isEqualTo(Value.string("00000000-0000-4000-8000-000000000000"));
    }

    @Test
    void structuralFunctionsKeepUnknownElementsInKnownResults() {
        Value id = Value.unknown(Type.STRING);
        Value merged = call("merge", Value.objectOf("env", Value.string("prod")), Value.objectOf("Name", id))
                .value();
        assertThat(merged.isKnown()).isTrue();
        assertThat(merged.attributes().get("Name")).isEqualTo(id);
        assertThat(merged.attributes().get("env")).isEqualTo(Value.string("prod"));
        Value cat = call("concat", Value.tuple(List.of(id)), Value.tuple(List.of(Value.number(1))))
                .value();
        assertThat(cat.isKnown()).isTrue();
        assertThat(cat.length()).isEqualTo(2);
        Value el = call("element", Value.tuple(List.of(id, Value.string("b"))), Value.number(1))
                .value();
        assertThat(el).isEqualTo(Value.string("b"));
        Value look = call("lookup", Value.objectOf("a", id, "b", Value.number(1)), Value.string("b"))
                .value();
        assertThat(look).isEqualTo(Value.number(1));
        assertThat(call("flatten", Value.tuple(List.of(Value.DYNAMIC_UNKNOWN)))
                        .value()
                        .isKnown())
                .isFalse();
        assertThat(call("flatten", Value.tuple(List.of(Value.tuple(List.of(id)))))
                        .value())
                .isEqualTo(Value.tuple(List.of(id)));
        // join must see every element, so one unknown element makes the whole result unknown.
        assertThat(call("join", Value.string(","), Value.tuple(List.of(id))).value())
                .isEqualTo(Value.unknown(Type.STRING));
    }

    @Test
    void typeCheckGivesTheResultTypeWithoutValues() {
        Function split = T.lookup("split").orElseThrow();
        assertThat(split.typeCheck(List.of(Value.string(","), Value.string("a,b")))
                        .value())
                .isEqualTo(Value.unknown(Type.list(Type.STRING)));
        Function abs = T.lookup("abs").orElseThrow();
        CallResult.Failure f = (CallResult.Failure) abs.typeCheck(List.of(Value.tuple(List.of())));
        assertThat(f.argIndex()).isZero();
        assertThat(f.message()).isEqualTo("number required");
        Function tolist = T.lookup("tolist").orElseThrow();
        assertThat(tolist.typeCheck(List.of(Value.string("x"))).isSuccess()).isFalse();
    }
}
