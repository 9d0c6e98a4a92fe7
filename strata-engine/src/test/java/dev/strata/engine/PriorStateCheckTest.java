package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.lang.types.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PriorStateCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Type RESOURCE = Type.object(Map.of(
            "id", Type.STRING,
            "size", Type.NUMBER,
            "on", Type.BOOL,
            "tags", Type.map(Type.STRING),
            "rules", Type.list(Type.object(Map.of("port", Type.NUMBER))),
            "pair", Type.tuple(List.of(Type.STRING, Type.NUMBER)),
            "input", Type.DYNAMIC));

    private static PriorStateCheck.Mismatch check(String json) throws Exception {
        JsonNode n = JSON.readTree(json);
        return PriorStateCheck.mismatch(n, RESOURCE);
    }

    @Test
    void whatTerraformAcceptsFits() throws Exception {
        assertThat(check("{}")).as("missing attributes are null").isNull();
        assertThat(check("{\"gone\": [1, 2]}"))
                .as("attributes the schema no longer has are ignored")
                .isNull();
        assertThat(
                        check(
                                "{\"id\": 5, \"size\": \"12.5\", \"on\": \"true\", \"tags\": {\"a\": true}, "
                                        + "\"rules\": [{\"port\": 80}], \"pair\": [\"a\", 1], \"input\": {\"value\": [\"x\"], \"type\": [\"tuple\", [\"string\"]]}}"))
                .isNull();
        assertThat(check("{\"input\": null, \"rules\": null}")).isNull();
    }

    @Test
    void aMismatchNamesThePlaceInsideTheAttributes() throws Exception {
        assertThat(check("\"garbage\""))
                .isEqualTo(new PriorStateCheck.Mismatch("", "object required, but it is a string"));
        assertThat(check("{\"id\": [1]}"))
                .isEqualTo(new PriorStateCheck.Mismatch(".id", "string required, but it is an array"));
        assertThat(check("{\"size\": \"big\"}").path()).isEqualTo(".size");
        assertThat(check("{\"on\": 1}").why()).isEqualTo("bool required, but it is a number");
        assertThat(check("{\"tags\": {\"a\": {}}}").path()).isEqualTo(".tags[\"a\"]");
        assertThat(check("{\"rules\": [{\"port\": 1}, {\"port\": []}]}").path()).isEqualTo(".rules[1].port");
        assertThat(check("{\"pair\": [\"a\"]}").why()).startsWith("tuple of 2 elements required");
        assertThat(check("{\"input\": \"x\"}").why()).contains("\"value\" and \"type\"");
        assertThat(check("{\"input\": {\"value\": 1, \"type\": \"nope\"}}").why())
                .contains("not a valid type");
        assertThat(check("{\"input\": {\"value\": [], \"type\": [\"tuple\", [\"string\"]]}}")
                        .path())
                .isEqualTo(".input.value");
    }
}
