package dev.strata.lang.value;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected outputs come from terraform v1.11.4's console. */
class OperationsTest {
    static Value n(String s) {
        return Value.number(new BigDecimal(s));
    }

    static String text(OpResult r) {
        return r.value().asNumber().toPlainString();
    }

    @Test
    void divisionRoundsLikeA512BitFloat() {
        assertThat(text(Operations.divide(n("1"), n("3")))).isEqualTo("0." + "3".repeat(154) + "5");
        assertThat(text(Operations.divide(n("2"), n("3")))).isEqualTo("0." + "6".repeat(153) + "7");
        assertThat(text(Operations.divide(n("100"), n("3")))).isEqualTo("33." + "3".repeat(152));
        assertThat(text(Operations.divide(n("10"), n("4")))).isEqualTo("2.5");
        Value third = Operations.divide(n("1"), n("3")).value();
        assertThat(text(Operations.multiply(third, n("3")))).isEqualTo("1");
        Value twoThirds = Operations.divide(n("2"), n("3")).value();
        assertThat(text(Operations.add(twoThirds, third))).isEqualTo("1");
        assertThat(Operations.divide(n("1"), n("0")).value()).isEqualTo(Value.POSITIVE_INFINITY);
        assertThat(Operations.divide(n("-1"), n("0")).value().numberText()).isEqualTo("-Inf");
        assertThat(Operations.divide(n("0"), n("0"))).isInstanceOf(OpResult.Failed.class);
        assertThat(Operations.negate(n("0")).value().numberText()).isEqualTo("-0");
        assertThat(Operations.equal(Value.NEGATIVE_ZERO, n("0"))).isEqualTo(Value.TRUE);
        assertThat(Operations.lessThan(Value.NEGATIVE_INFINITY, n("-1e300")).value())
                .isEqualTo(Value.TRUE);
        assertThat(Operations.add(Value.POSITIVE_INFINITY, n("1")).value()).isEqualTo(Value.POSITIVE_INFINITY);
    }

    @Test
    void arithmetic() {
        assertThat(text(Operations.add(n("0.1"), n("0.2")))).isEqualTo("0.3");
        assertThat(text(Operations.multiply(n("0.1"), n("3")))).isEqualTo("0.3");
        assertThat(text(Operations.multiply(n("12345678901234567890"), n("98765432109876543210"))))
                .isEqualTo("1219326311370217952237463801111263526900");
        assertThat(text(Operations.multiply(n("1e300"), n("1e300")))).isEqualTo("1" + "0".repeat(600));
        assertThat(text(Operations.subtract(n("3"), n("10")))).isEqualTo("-7");
        assertThat(text(Operations.negate(n("-1")))).isEqualTo("1");
        assertThat(text(Operations.add(n("1"), Value.string("2")))).isEqualTo("3");
        assertThat(Operations.add(Value.string("a"), n("1"))).isEqualTo(new OpResult.Failed(0, "a number is required"));
    }

    @Test
    void modulo() {
        assertThat(text(Operations.modulo(n("-5"), n("3")))).isEqualTo("-2");
        assertThat(text(Operations.modulo(n("5"), n("-3")))).isEqualTo("2");
        assertThat(text(Operations.modulo(n("5.5"), n("2")))).isEqualTo("1.5");
        assertThat(text(Operations.modulo(n("7"), n("0")))).isEqualTo("7");
        assertThat(text(Operations.modulo(n("10"), n("3.5")))).isEqualTo("3");
        assertThat(text(Operations.modulo(n("-7"), n("2")))).isEqualTo("-1");
    }

    @Test
    void equalityIsTypeSensitive() {
        assertThat(Operations.equal(n("1"), n("1.0"))).isEqualTo(Value.TRUE);
        assertThat(Operations.equal(Value.string("1"), n("1"))).isEqualTo(Value.FALSE);
        Value tuple = Value.tuple(List.of(n("1")));
        assertThat(Operations.equal(tuple, Value.tuple(List.of(n("1"))))).isEqualTo(Value.TRUE);
        assertThat(Operations.equal(Value.list(Type.NUMBER, List.of(n("1"))), tuple))
                .isEqualTo(Value.FALSE);
        assertThat(Operations.equal(Value.NULL, Value.NULL)).isEqualTo(Value.TRUE);
        assertThat(Operations.equal(Value.unknown(Type.NUMBER), n("1")).isKnown())
                .isFalse();
        assertThat(Operations.equal(Value.unknown(Type.STRING), Value.NULL).isKnown())
                .isFalse();
        assertThat(Operations.notEqual(Value.NULL, Value.DYNAMIC_UNKNOWN).isKnown())
                .isFalse();
        assertThat(Operations.equal(Value.tuple(java.util.List.of(Value.unknown(Type.STRING))), Value.NULL))
                .isEqualTo(Value.FALSE);
        assertThat(Operations.equal(n("1").mark(Mark.SENSITIVE), n("1")).isSensitive())
                .isTrue();
        assertThat(Operations.notEqual(n("1"), n("2"))).isEqualTo(Value.TRUE);
    }

    @Test
    void comparisonAndLogic() {
        assertThat(Operations.lessThan(n("1"), n("2")).value()).isEqualTo(Value.TRUE);
        assertThat(Operations.lessThan(Value.string("a"), Value.string("b")))
                .isEqualTo(new OpResult.Failed(0, "a number is required"));
        assertThat(Operations.and(Value.TRUE, Value.FALSE).value()).isEqualTo(Value.FALSE);
        assertThat(Operations.or(Value.TRUE, Value.FALSE).value()).isEqualTo(Value.TRUE);
        assertThat(Operations.not(Value.TRUE).value()).isEqualTo(Value.FALSE);
        assertThat(Operations.greaterThanOrEqual(Value.unknown(Type.NUMBER), n("1"))
                        .value())
                .isEqualTo(Value.unknown(Type.BOOL));
        assertThat(Operations.add(n("1").mark(Mark.SENSITIVE), n("1")).value().isSensitive())
                .isTrue();
    }

    @Test
    void conditionalResultsUnify() {
        assertThat(Operations.conditionalType(Type.NUMBER, Type.STRING)).contains(Type.STRING);
        assertThat(Operations.conditionalType(Type.tuple(List.of(Type.NUMBER)), Type.tuple(List.of(Type.STRING))))
                .contains(Type.tuple(List.of(Type.STRING)));
        assertThat(Operations.conditionalType(
                        Type.object(java.util.Map.of("a", Type.NUMBER)),
                        Type.object(java.util.Map.of("b", Type.NUMBER))))
                .contains(Type.map(Type.NUMBER));
    }
}
