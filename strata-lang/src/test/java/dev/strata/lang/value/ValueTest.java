package dev.strata.lang.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.lang.types.Type;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueTest {
    @Test
    void numbersAreExactAndNormalised() {
        assertThat(Value.number(new BigDecimal("1.50"))).isEqualTo(Value.number(new BigDecimal("1.5")));
        assertThat(Value.number(new BigDecimal("1E+3")).asNumber().toPlainString())
                .isEqualTo("1000");
        assertThat(Value.number(new BigDecimal("12345678901234567890.000000000001"))
                        .asNumber()
                        .toPlainString())
                .isEqualTo("12345678901234567890.000000000001");
        assertThat(Value.number(0.1).asNumber().toPlainString()).isEqualTo("0.1");
    }

    @Test
    void stringsAreNfcNormalised() {
        assertThat(Value.string("e\u0301")).isEqualTo(Value.string("\u00e9"));
    }

    @Test
    void nullsAndUnknownsOfEveryType() {
        Value n = Value.nullValue(Type.list(Type.STRING));
        assertThat(n.isNull()).isTrue();
        assertThat(n.isKnown()).isTrue();
        assertThat(n.type()).isEqualTo(Type.list(Type.STRING));
        Value u = Value.unknown(Type.NUMBER);
        assertThat(u.isKnown()).isFalse();
        assertThat(u.isNull()).isFalse();
        assertThat(u).isNotEqualTo(Value.nullValue(Type.NUMBER));
        assertThatThrownBy(u::asNumber).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void partiallyKnownCollections() {
        Value l = Value.list(Type.STRING, List.of(Value.string("a"), Value.unknown(Type.STRING)));
        assertThat(l.isKnown()).isTrue();
        assertThat(l.isWhollyKnown()).isFalse();
        assertThat(l.length()).isEqualTo(2);
    }

    @Test
    void setsAreSortedAndDeduplicated() {
        Value s = Value.set(
                Type.STRING,
                List.of(
                        Value.string("b"),
                        Value.string("a"),
                        Value.string("b"),
                        Value.string("10"),
                        Value.string("9"),
                        Value.string("B")));
        assertThat(s.elements()).extracting(Value::asString).containsExactly("10", "9", "B", "a", "b");
        Value n =
                Value.set(Type.NUMBER, List.of(Value.number(10), Value.number(9), Value.number(-1), Value.number(1.5)));
        assertThat(n.elements()).extracting(v -> v.asNumber().toPlainString()).containsExactly("-1", "1.5", "9", "10");
        Value b = Value.set(Type.BOOL, List.of(Value.TRUE, Value.FALSE));
        assertThat(b.elements()).containsExactly(Value.FALSE, Value.TRUE);
    }

    @Test
    void stringOrderIsByCodePointNotUtf16() {
        // U+FF5E sorts before U+1F47E in UTF-8 byte order; UTF-16 code units would say the opposite.
        assertThat(ValueOrder.compareStrings("\uff5e", "\ud83d\udc7e")).isNegative();
    }

    @Test
    void setElementMarksMoveToTheSet() {
        Value s = Value.set(Type.NUMBER, List.of(Value.number(1).mark(Mark.SENSITIVE), Value.number(2)));
        assertThat(s.isSensitive()).isTrue();
        assertThat(s.elements()).allMatch(e -> !e.isMarked());
    }

    @Test
    void mapKeysAreSorted() {
        Value m = Value.map(Type.NUMBER, Map.of("b", Value.number(1), "a", Value.number(2), "A", Value.number(3)));
        assertThat(m.attributes().keySet()).containsExactly("A", "a", "b");
    }

    @Test
    void marksAreASetAndCanBeRemovedDeeply() {
        Value v = Value.string("x").mark(Mark.SENSITIVE).mark(Mark.EPHEMERAL);
        assertThat(v.marks()).containsExactlyInAnyOrder(Mark.SENSITIVE, Mark.EPHEMERAL);
        Value t = Value.tuple(List.of(v, Value.number(1)));
        assertThat(t.isMarked()).isFalse();
        assertThat(t.deepMarks()).containsExactlyInAnyOrder(Mark.SENSITIVE, Mark.EPHEMERAL);
        assertThat(t.unmarkDeep().deepMarks()).isEmpty();
        assertThat(v.withoutMark(Mark.SENSITIVE).marks()).containsExactly(Mark.EPHEMERAL);
    }

    @Test
    void toStringNeverShowsSensitiveValues() {
        Value t = Value.objectOf("password", Value.string("hunter2").mark(Mark.SENSITIVE), "user", Value.string("bob"));
        assertThat(t.toString())
                .doesNotContain("hunter2")
                .contains("(sensitive value)")
                .contains("bob");
        assertThat(Value.string("hunter2").mark(Mark.SENSITIVE).toString()).doesNotContain("hunter2");
    }

    @Test
    void collectionsRejectElementsOfTheWrongType() {
        assertThatThrownBy(() -> Value.list(Type.STRING, List.of(Value.number(1))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void quoteFollowsGo() {
        assertThat(Quote.quote("a\tb\"\\\u0001\u007f é")).isEqualTo("\"a\\tb\\\"\\\\\\x01\\x7f é\"");
        // Text with nothing to escape takes the short path; each kind of escape still takes the long one.
        assertThat(Quote.quote("plain ascii ~ text")).isEqualTo("\"plain ascii ~ text\"");
        assertThat(Quote.quote("")).isEqualTo("\"\"");
        assertThat(Quote.quote("a\"")).isEqualTo("\"a\\\"\"");
        assertThat(Quote.quote("a\\")).isEqualTo("\"a\\\\\"");
        assertThat(Quote.quote("\u007f")).isEqualTo("\"\\x7f\"");
        assertThat(Quote.quote("\u00a0")).isEqualTo("\"\\u00a0\"");
    }
}
