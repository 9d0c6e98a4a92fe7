package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonValueTest {
    @Test
    void parsedObjectsKeepTheSourceOrderAndCannotBeChanged() {
        JsonValue.ObjectValue o = (JsonValue.ObjectValue)
                JsonValue.parse("{\"b\": 1, \"a\": {\"z\": true, \"y\": null}, \"c\": []}", "x.json")
                        .value();
        assertThat(o.members().keySet()).containsExactly("b", "a", "c");
        JsonValue.ObjectValue inner = (JsonValue.ObjectValue) o.get("a");
        assertThat(inner.members().keySet()).containsExactly("z", "y");
        assertThat(inner.get("z")).isEqualTo(JsonValue.TRUE);
        assertThatThrownBy(() -> o.members().put("d", JsonValue.NULL))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> o.members().remove("b")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> o.members().entrySet().iterator().next().setValue(JsonValue.NULL))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> o.members().keySet().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> o.members().values().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(o.members()).hasSize(3);
    }

    @Test
    void anObjectBuiltFromAMapCopiesIt() {
        Map<String, JsonValue> source = new LinkedHashMap<>();
        source.put("k", JsonValue.TRUE);
        JsonValue.ObjectValue o = new JsonValue.ObjectValue(source);
        source.put("later", JsonValue.FALSE);
        assertThat(o.members()).containsOnlyKeys("k");
    }

    @Test
    void parsedAndBuiltObjectsWithTheSameMembersAreEqual() {
        JsonValue parsed = JsonValue.parse("{\"a\": \"x\", \"b\": 2}", "x.json").value();
        Map<String, JsonValue> m = new LinkedHashMap<>();
        m.put("a", new JsonValue.StringValue("x"));
        m.put("b", new JsonValue.NumberValue("2"));
        JsonValue.ObjectValue built = new JsonValue.ObjectValue(m);
        assertThat(parsed).isEqualTo(built);
        assertThat(parsed.hashCode()).isEqualTo(built.hashCode());
        assertThat(new JsonValue.ObjectValue(((JsonValue.ObjectValue) parsed).members()))
                .isEqualTo(parsed);
    }
}
