package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonMembersTest {
    static JsonValue.ObjectValue parse(String json) {
        return (JsonValue.ObjectValue) JsonValue.parse(json, "x.json").value();
    }

    @Test
    void aNameGivenTwiceKeepsItsFirstPlaceAndItsLastValue() {
        JsonValue.ObjectValue o = parse("{\"a\": 1, \"b\": 2, \"a\": 3}");
        assertThat(o.members().keySet()).containsExactly("a", "b");
        assertThat(o.get("a")).isEqualTo(new JsonValue.NumberValue("3"));
        assertThat(o.members()).hasSize(2);
    }

    @Test
    void largeObjectsFindEveryMemberInOrderAndEqualTheirMapCopies() {
        StringBuilder json = new StringBuilder("{");
        Map<String, JsonValue> expected = new LinkedHashMap<>();
        for (int i = 0; i < 300; i++) {
            String name = "m" + (i * 7919 % 1000);
            json.append(i == 0 ? "" : ",")
                    .append('"')
                    .append(name)
                    .append("\": ")
                    .append(i);
            expected.put(name, new JsonValue.NumberValue(Integer.toString(i)));
        }
        // A name repeated far from its first place, past the linear search's size.
        json.append(", \"m0\": \"again\"}");
        expected.put("m0", JsonValue.of("again"));
        JsonValue.ObjectValue o = parse(json.toString());
        assertThat(new ArrayList<>(o.members().keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
        expected.forEach((k, v) -> assertThat(o.get(k)).as(k).isEqualTo(v));
        assertThat(o.get("absent")).isNull();
        assertThat(o.members().containsKey("m919")).isTrue();
        assertThat(o.members().containsKey("m1000")).isFalse();
        assertThat(o.members()).isEqualTo(expected);
        assertThat(o.members().hashCode()).isEqualTo(expected.hashCode());
        assertThat(o).isEqualTo(new JsonValue.ObjectValue(expected));
    }

    @Test
    void objectsBuiltFromMapsKeepTheirOrderAndAreCompactedOnce() {
        Map<String, JsonValue> m = new LinkedHashMap<>();
        m.put("z", JsonValue.TRUE);
        m.put("a", JsonValue.NULL);
        JsonValue.ObjectValue o = new JsonValue.ObjectValue(m);
        assertThat(o.members()).isInstanceOf(JsonMembers.class);
        assertThat(o.members().keySet()).containsExactly("z", "a");
        assertThat(new JsonValue.ObjectValue(o.members()).members()).isSameAs(o.members());
        assertThat(new JsonValue.ObjectValue(Map.of()).members()).isSameAs(JsonMembers.EMPTY);
    }

    @Test
    void repeatedShortStringsAndNumbersOfADocumentAreOneValue() {
        JsonValue.ArrayValue a = (JsonValue.ArrayValue) JsonValue.parse(
                        "[\"string\", {\"type\": \"string\", \"n\": 0}, 0, \"" + "x".repeat(100) + "\", \""
                                + "x".repeat(100) + "\"]",
                        "x.json")
                .value();
        JsonValue.ObjectValue o = (JsonValue.ObjectValue) a.items().get(1);
        assertThat(o.get("type")).isSameAs(a.items().get(0));
        assertThat(o.get("n")).isSameAs(a.items().get(2));
        // Long strings are not looked up (mostly unique), but read all the same.
        assertThat(a.items().get(3)).isEqualTo(a.items().get(4));
    }

    @Test
    void manyDistinctShortStringsReadBackExactly() {
        // More distinct texts than the cache has slots: collisions must never hand back another text.
        StringBuilder json = new StringBuilder("[");
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            String t = Integer.toString(i, 36) + (i % 3 == 0 ? "é" : "");
            texts.add(t);
            json.append(i == 0 ? "" : ",").append('"').append(t).append("\",").append(i);
        }
        JsonValue.ArrayValue a = (JsonValue.ArrayValue)
                JsonValue.parse(json.append(']').toString(), "x.json").value();
        for (int i = 0; i < texts.size(); i++) {
            assertThat(a.items().get(2 * i)).isEqualTo(JsonValue.of(texts.get(i)));
            assertThat(a.items().get(2 * i + 1)).isEqualTo(new JsonValue.NumberValue(Integer.toString(i)));
        }
    }
}
