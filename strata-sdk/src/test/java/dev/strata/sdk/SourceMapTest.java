package dev.strata.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceMapTest {
    @TempDir
    Path dir;

    private static int nextLine() {
        return StackWalker.getInstance()
                        .walk(s -> s.skip(1).findFirst())
                        .orElseThrow()
                        .getLineNumber()
                + 1;
    }

    /** The line of {@code json} (1-based) that holds {@code text}. */
    private static int lineOf(String json, String text) {
        List<String> lines = json.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError(text + " not in " + json);
    }

    /** The smallest span covering {@code line}, as file:line. */
    private static String siteOf(JsonNode map, int line) {
        JsonNode best = null;
        for (JsonNode s : map.get("sites")) {
            if (s.get("from").asInt() <= line
                    && line <= s.get("to").asInt()
                    && (best == null
                            || s.get("to").asInt() - s.get("from").asInt()
                                    < best.get("to").asInt() - best.get("from").asInt())) {
                best = s;
            }
        }
        return best == null
                ? null
                : best.get("file").asText() + ":" + best.get("line").asInt();
    }

    @Test
    void everyArgumentAndBlockMapsToTheProgramLineThatSetIt() throws Exception {
        Stack stack = new Stack();
        int resourceLine = nextLine();
        Resource vpc = stack.resource("aws_vpc", "main");
        int argLine = nextLine();
        vpc.arg("cidr_block", "10.0.0.0/16");
        int blockLine = nextLine();
        vpc.block("ingress", b -> b.arg("from_port", 443));
        int outputLine = nextLine();
        stack.output("vpc_id", vpc.attr("id"));

        Synthesis s = stack.synthesize();
        JsonNode map = new ObjectMapper().readTree(s.sourceMap());
        String file = "SourceMapTest.java:";
        assertThat(siteOf(map, lineOf(s.json(), "\"cidr_block\""))).isEqualTo(file + argLine);
        assertThat(siteOf(map, lineOf(s.json(), "\"from_port\""))).isEqualTo(file + blockLine);
        assertThat(siteOf(map, lineOf(s.json(), "\"main\""))).isEqualTo(file + resourceLine);
        assertThat(siteOf(map, lineOf(s.json(), "\"vpc_id\""))).isEqualTo(file + outputLine);
        assertThat(map.get("sites").get(0).get("method").asText())
                .isEqualTo("SourceMapTest.everyArgumentAndBlockMapsToTheProgramLineThatSetIt");
    }

    @Test
    void writeToWritesTheMapBesideTheConfigurationAndItIsDeterministic() throws Exception {
        Path file = Stacks.basic().writeTo(dir);
        Path map = dir.resolve("main.tf.json.sites");
        assertThat(map).exists();
        assertThat(Files.readString(map)).isEqualTo(Stacks.basic().synthesize().sourceMap());
        assertThat(new ObjectMapper().readTree(map.toFile()).get("sites").size())
                .isGreaterThan(5);
        assertThat(file).exists();
    }
}
