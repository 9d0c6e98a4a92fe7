package dev.strata.lang.value;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConvertTest {
    static Value ok(Value v, Type t) {
        ConversionResult r = Convert.convert(v, t);
        assertThat(r.isOk()).as(r.toString()).isTrue();
        return r.value();
    }

    static String err(Value v, Type t) {
        ConversionResult r = Convert.convert(v, t);
        assertThat(r).isInstanceOf(ConversionResult.Failed.class);
        return ((ConversionResult.Failed) r).message();
    }

    @Test
    void primitives() {
        assertThat(ok(Value.string("true"), Type.BOOL)).isEqualTo(Value.TRUE);
        assertThat(ok(Value.string("5"), Type.NUMBER)).isEqualTo(Value.number(5));
        assertThat(ok(Value.string("1e3"), Type.NUMBER)).isEqualTo(Value.number(1000));
        assertThat(ok(Value.number(1.5), Type.STRING)).isEqualTo(Value.string("1.5"));
        assertThat(ok(Value.FALSE, Type.STRING)).isEqualTo(Value.string("false"));
        assertThat(err(Value.string("x"), Type.NUMBER)).isEqualTo("a number is required");
        assertThat(err(Value.string("yes"), Type.BOOL)).isEqualTo("a bool is required");
        assertThat(err(Value.TRUE, Type.NUMBER)).isEqualTo("number required");
        assertThat(err(Value.string("0x10"), Type.NUMBER)).isEqualTo("a number is required");
    }

    @Test
    void nullAndUnknownConvertToTheTargetType() {
        assertThat(ok(Value.NULL, Type.list(Type.STRING))).isEqualTo(Value.nullValue(Type.list(Type.STRING)));
        assertThat(ok(Value.unknown(Type.STRING), Type.NUMBER)).isEqualTo(Value.unknown(Type.NUMBER));
        assertThat(err(Value.unknown(Type.tuple(List.of())), Type.NUMBER)).isEqualTo("number required");
    }

    @Test
    void tupleToListUnifies() {
        Value t = Value.tuple(List.of(Value.number(1), Value.string("a"), Value.TRUE));
        Value l = ok(t, Type.list(Type.DYNAMIC));
        assertThat(l.type()).isEqualTo(Type.list(Type.STRING));
        assertThat(l.elements()).extracting(Value::asString).containsExactly("1", "a", "true");
        assertThat(err(Value.tuple(List.of(Value.number(1), Value.TRUE)), Type.list(Type.DYNAMIC)))
                .isEqualTo("all list elements must have the same type");
    }

    @Test
    void elementErrorsNameThePath() {
        Value t = Value.tuple(List.of(Value.string("a"), Value.tuple(List.of(Value.number(1)))));
        assertThat(err(t, Type.list(Type.STRING))).isEqualTo("element 1: string required");
        Value o = Value.objectOf("a", Value.objectOf("b", Value.string("x")));
        assertThat(err(o, Type.object(Map.of("a", Type.object(Map.of("b", Type.NUMBER))))))
                .isEqualTo("attribute \"a\".b: a number is required");
        assertThat(err(Value.objectOf("x", Value.number(1)), Type.object(Map.of("y", Type.NUMBER))))
                .isEqualTo("attribute \"y\" is required");
    }

    @Test
    void objectsAndMaps() {
        Value o = Value.objectOf("a", Value.number(1), "b", Value.string("x"));
        Value m = ok(o, Type.map(Type.DYNAMIC));
        assertThat(m.type()).isEqualTo(Type.map(Type.STRING));
        Value back = ok(m, Type.object(Map.of("a", Type.NUMBER, "b", Type.STRING)));
        assertThat(back).isEqualTo(Value.objectOf("a", Value.number(1), "b", Value.string("x")));
        ObjectType withOptional = ObjectType.builder()
                .attr("a", Type.NUMBER)
                .optionalAttr("c", Type.STRING)
                .build();
        Value filled = ok(Value.objectOf("a", Value.number(1)), withOptional);
        assertThat(filled.attributes().get("c")).isEqualTo(Value.nullValue(Type.STRING));
    }

    @Test
    void listsAndSets() {
        Value l = Value.list(Type.STRING, List.of(Value.string("b"), Value.string("a"), Value.string("b")));
        Value s = ok(l, Type.set(Type.STRING));
        assertThat(s.elements()).extracting(Value::asString).containsExactly("a", "b");
        assertThat(ok(s, Type.list(Type.STRING)).elements())
                .extracting(Value::asString)
                .containsExactly("a", "b");
    }

    @Test
    void marksSurviveConversion() {
        Value v = Value.number(1).mark(Mark.SENSITIVE);
        assertThat(ok(v, Type.STRING).isSensitive()).isTrue();
        Value t = Value.tuple(List.of(v, Value.number(2)));
        Value l = ok(t, Type.list(Type.STRING));
        assertThat(l.isSensitive()).isFalse();
        assertThat(l.elements().get(0).isSensitive()).isTrue();
    }

    @Test
    void unification() {
        assertThat(Unify.unify(List.of(Type.NUMBER, Type.STRING))).contains(Type.STRING);
        assertThat(Unify.unify(List.of(Type.NUMBER, Type.BOOL))).isEmpty();
        assertThat(Unify.unify(List.of(Type.DYNAMIC, Type.NUMBER))).contains(Type.NUMBER);
        assertThat(Unify.unify(List.of(Type.object(Map.of("a", Type.NUMBER)), Type.object(Map.of("b", Type.NUMBER)))))
                .contains(Type.map(Type.NUMBER));
        assertThat(Unify.unify(List.of(Type.tuple(List.of(Type.NUMBER)), Type.tuple(List.of()))))
                .contains(Type.list(Type.NUMBER));
        assertThat(Unify.unify(List.of(Type.object(Map.of("x", Type.NUMBER)), Type.object(Map.of("x", Type.STRING)))))
                .contains(Type.object(Map.of("x", Type.STRING)));
    }

    @Test
    void typeConstraintDefaults() {
        TypeConstraint c = TypeConstraint.object()
                .attr("name", TypeConstraint.of(Type.STRING))
                .optional("port", TypeConstraint.of(Type.NUMBER), Value.number(80))
                .optional("tags", TypeConstraint.of(Type.map(Type.STRING)))
                .optional(
                        "inner",
                        TypeConstraint.object()
                                .optional("x", TypeConstraint.of(Type.BOOL), Value.TRUE)
                                .build(),
                        Value.EMPTY_OBJECT)
                .build();
        assertThat(c.type().typeExpr())
                .isEqualTo(
                        "object({inner=optional(object({x=optional(bool)})),name=string,port=optional(number),tags=optional(map(string))})");
        Value v = c.convert(Value.objectOf("name", Value.string("web"))).value();
        assertThat(v.attributes().get("port")).isEqualTo(Value.number(80));
        assertThat(v.attributes().get("tags")).isEqualTo(Value.nullValue(Type.map(Type.STRING)));
        assertThat(v.attributes().get("inner")).isEqualTo(Value.objectOf("x", Value.TRUE));
        Value explicit = c.convert(Value.objectOf("name", Value.string("web"), "port", Value.string("8080")))
                .value();
        assertThat(explicit.attributes().get("port")).isEqualTo(Value.number(8080));
        TypeConstraint list = TypeConstraint.list(c);
        Value l = list.convert(Value.tuple(List.of(Value.objectOf("name", Value.string("a")))))
                .value();
        assertThat(l.elements().get(0).attributes().get("port")).isEqualTo(Value.number(80));
    }
}
