package dev.strata.hcl.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitrary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Differential test against HashiCorp's JSON parser (hcl/v2/json, compiled to WASM in the npm
 * oracle): generated documents, valid and broken, must be accepted or rejected exactly alike. The
 * oracle's {@code jsonexpr} op parses the text as a JSON value, takes its value (which rejects
 * repeated property names in an object) and parses every string as a template; the counterpart here
 * is {@link JsonSyntax#parseExpression} followed by {@link JsonExpression#syntax()}.
 * Skipped when node or the oracle's node_modules are missing.
 */
class JsonOracleDiffTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Process node;
    private static BufferedWriter toNode;
    private static BufferedReader fromNode;

    @BeforeAll
    static void startOracle() {
        Path dir = Path.of(System.getProperty("strata.repo.dir", "..")).resolve("tools").resolve("oracle");
        if (!Files.isDirectory(dir.resolve("node_modules").resolve("@cdktf").resolve("hcl2json"))) {
            return;
        }
        try {
            node = new ProcessBuilder("node", "oracle.js").directory(dir.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            toNode = new BufferedWriter(new OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8));
            fromNode = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
            if (oracleAccepts("{}") != Boolean.TRUE) {
                stopOracle();
            }
        } catch (IOException e) {
            node = null;
        }
    }

    @AfterAll
    static void stopOracle() {
        if (node == null) {
            return;
        }
        try {
            toNode.close();
            if (!node.waitFor(10, TimeUnit.SECONDS)) {
                node.destroy();
            }
        } catch (IOException | InterruptedException e) {
            node.destroy();
        }
        node = null;
    }

    /** The oracle's verdict, or null if it did not answer. */
    private static Boolean oracleAccepts(String text) throws IOException {
        ObjectNode req = JSON.createObjectNode().put("op", "jsonexpr").put("name", "x.tf.json").put("text", text);
        toNode.write(JSON.writeValueAsString(req));
        toNode.write('\n');
        toNode.flush();
        String line = fromNode.readLine();
        if (line == null) {
            return null;
        }
        JsonNode reply = JSON.readTree(line);
        return reply.get("ok").asBoolean();
    }

    private static Diagnostics ours(String text) {
        Result<JsonExpression> r = JsonSyntax.parseExpression(text.getBytes(StandardCharsets.UTF_8), "x.tf.json",
                SourcePos.START);
        return r.hasErrors() ? r.diagnostics() : r.diagnostics().with(r.value().syntax().diagnostics());
    }

    private static void compare(List<String> docs) throws IOException {
        List<String> mismatches = new ArrayList<>();
        int accepted = 0;
        for (String doc : docs) {
            Boolean theirs = oracleAccepts(doc);
            assertThat(theirs).as("oracle answered for %s", doc).isNotNull();
            Diagnostics mine = ours(doc);
            if (theirs) {
                accepted++;
            }
            if (theirs == mine.hasErrors()) {
                mismatches.add((theirs ? "HashiCorp accepts, we reject: " + mine : "HashiCorp rejects, we accept:")
                        + "\n    " + JSON.writeValueAsString(doc));
            }
        }
        mismatches.sort(Comparator.comparingInt(String::length));
        assertThat(mismatches).as("documents judged differently (shortest first)").isEmpty();
        // Both kinds must be well represented, or the comparison proves little.
        assertThat(accepted).isBetween(docs.size() / 5, docs.size() - docs.size() / 5);
    }

    private static List<String> sample(Arbitrary<String> arb, int n) {
        return arb.sampleStream().limit(n).toList();
    }

    @Test
    void jsonGrammarMatchesHashiCorp() throws IOException {
        assumeTrue(node != null, "node or tools/oracle/node_modules missing (run npm ci in tools/oracle)");
        compare(sample(JsonDocs.validOrBroken(false), 2000));
    }

    @Test
    void templatesInStringsMatchHashiCorp() throws IOException {
        assumeTrue(node != null, "node or tools/oracle/node_modules missing (run npm ci in tools/oracle)");
        compare(sample(JsonDocs.validOrBroken(true), 1000));
    }

    @Test
    void edgeCasesMatchHashiCorp() throws IOException {
        assumeTrue(node != null, "node or tools/oracle/node_modules missing (run npm ci in tools/oracle)");
        List<String> docs = List.of("{}", "[]", "1", "-0", "-", "0.5e-3", "1E400", "00", "0x1", ".5", "1.e3",
                "\"\\u00\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"a\\u0000b\"", "\"\u007f\"", "\"\u2028\"",
                "true", "True", "nul", "null1", "undefined", "NaN", "[1,,2]", "[,]", "{,}", "{\"a\":}",
                "{\"a\" 1}", "{\"a\"}", "{1: 2}", "{\"a\": 1}}", "[1]]", " \t\r\n{}\r\n", "{} {}",
                "{\"a\": 1, \"a\": 1}", "{\"a\": {\"b\": 1, \"b\": 2}}", "[{\"a\": 1}, {\"a\": 2}]",
                "{\"\\u0061\": 1, \"a\": 2}", "{\"a\": \"${\"}", "{\"a\": \"$${\"}", "{\"${\": 1}",
                "\"%{ if true }x%{ endif }\"", "\"%{ if true }x\"", "\"\\t${a}\"", "\"'\"", "'a'",
                "\"\\/\"", "\"\\a\"", "\"x\\\"", "\"é😀日本\"");
        List<String> mismatches = new ArrayList<>();
        for (String doc : docs) {
            boolean theirs = oracleAccepts(doc);
            Diagnostics mine = ours(doc);
            if (theirs == mine.hasErrors()) {
                mismatches.add(JSON.writeValueAsString(doc) + (theirs ? " rejected by us: " + mine : " accepted by us"));
            }
        }
        assertThat(mismatches).isEmpty();
    }
}
