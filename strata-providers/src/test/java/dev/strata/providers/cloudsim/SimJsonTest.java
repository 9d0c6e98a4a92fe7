package dev.strata.providers.cloudsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The provider's streaming JSON gives the same text and the same trees as Jackson's databind did. */
class SimJsonTest {

    private static final ObjectMapper DATABIND = new ObjectMapper();

    private static final String[] TEXTS = {
        "{}",
        "[]",
        "null",
        "{\"name\":\"w0-1\",\"tags\":{\"a\":\"b\",\"é\":\"\\u0001\\\"\\\\/\"},\"n\":[1,-2,3000000000,"
                + "123456789012345678901234567890,1.5,-0.0,1e300,2.50E-3],\"ok\":true,\"no\":false,\"x\":null,"
                + "\"nested\":{\"rules\":[{\"from\":1,\"to\":2,\"cidr\":[\"10.0.0.0/8\"]},{}],\"empty\":[]}}",
        "{\"dup\":1,\"dup\":2}",
        "  {\"error\":{\"message\":\"no such bucket\",\"code\":\"NotFound\"}}  ",
    };

    @Test
    void readsTheTreesDatabindRead() throws IOException {
        for (String t : TEXTS) {
            JsonNode ours = SimJson.read(t.getBytes(StandardCharsets.UTF_8));
            JsonNode theirs = DATABIND.readTree(t);
            assertThat(ours).as(t).isEqualTo(theirs);
            // Node for node, number kinds included (ints stay ints, big ones big, fractions doubles).
            assertThat(ours.toString()).as(t).isEqualTo(theirs.toString());
        }
        assertThat(SimJson.read(new byte[0]).isNull()).isTrue();
    }

    @Test
    void writesTheTextDatabindWrote() throws IOException {
        for (String t : TEXTS) {
            JsonNode tree = DATABIND.readTree(t);
            assertThat(new String(SimJson.write(tree), StandardCharsets.UTF_8))
                    .as(t)
                    .isEqualTo(new String(DATABIND.writeValueAsBytes(tree), StandardCharsets.UTF_8));
        }
        // The provider's bodies carry numbers as decimals (ValueJson), and big integers.
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        o.put("size", new BigDecimal("100"));
        o.put("fraction", new BigDecimal("0.000001"));
        o.put("exp", new BigDecimal("1E+3"));
        o.put("big", new BigInteger("123456789012345678901234567890"));
        o.put("f", 1.25f);
        o.put("l", 1L << 40);
        o.putNull("gone");
        o.putArray("list").add("a").add(f.numberNode(new BigDecimal("2")));
        assertThat(new String(SimJson.write(o), StandardCharsets.UTF_8)).isEqualTo(DATABIND.writeValueAsString(o));
    }

    @Test
    void aMalformedAnswerIsAnIoFailure() {
        assertThatThrownBy(() -> SimJson.read("{\"a\":".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> SimJson.read("<html>".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class);
    }
}
