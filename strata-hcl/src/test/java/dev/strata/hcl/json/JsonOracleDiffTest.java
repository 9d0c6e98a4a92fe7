package dev.strata.hcl.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.HclOracle;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
    private static HclOracle oracle;

    @BeforeAll
    static void startOracle() throws IOException {
        if (HclOracle.available()) {
            oracle = HclOracle.start();
        }
    }

    @AfterAll
    static void stopOracle() {
        if (oracle != null) {
            oracle.close();
        }
    }

    private static boolean oracleAccepts(String text) {
        return oracle.jsonExpression(text).ok();
    }

    private static Diagnostics ours(String text) {
        Result<JsonExpression> r =
                JsonSyntax.parseExpression(text.getBytes(StandardCharsets.UTF_8), "x.tf.json", SourcePos.START);
        return r.hasErrors()
                ? r.diagnostics()
                : r.diagnostics().with(r.value().syntax().diagnostics());
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
        assertThat(mismatches)
                .as("documents judged differently (shortest first)")
                .isEmpty();
        // Both kinds must be well represented, or the comparison proves little.
        assertThat(accepted).isBetween(docs.size() / 5, docs.size() - docs.size() / 5);
    }

    private static List<String> sample(Arbitrary<String> arb, int n) {
        return arb.sampleStream().limit(n).toList();
    }

    @Test
    void jsonGrammarMatchesHashiCorp() throws IOException {
        assumeTrue(oracle != null, "node or tools/oracle/node_modules missing (run npm ci in tools/oracle)");
        compare(sample(JsonDocs.validOrBroken(false), 2000));
    }

    @Test
    void templatesInStringsMatchHashiCorp() throws IOException {
        assumeTrue(oracle != null, "node or tools/oracle/node_modules missing (run npm ci in tools/oracle)");
        compare(sample(JsonDocs.validOrBroken(true), 1000));
    }

    @Test
    void edgeCasesMatchHashiCorp() throws IOException {
        assumeTrue(oracle != null, "node or tools/oracle/node_modules missing (run npm ci in tools/oracle)");
        List<String> docs = List.of(
                "{}",
                "[]",
                "1",
                "-0",
                "-",
                "0.5e-3",
                "1E400",
                "00",
                "0x1",
                ".5",
                "1.e3",
                "\"\\u00\"",
                "\"\\ud800\"",
                "\"\\udc00\\ud800\"",
                "\"a\\u0000b\"",
                "\"\u007f\"",
                "\"\u2028\"",
                "true",
                "True",
                "nul",
                "null1",
                "undefined",
                "NaN",
                "[1,,2]",
                "[,]",
                "{,}",
                "{\"a\":}",
                "{\"a\" 1}",
                "{\"a\"}",
                "{1: 2}",
                "{\"a\": 1}}",
                "[1]]",
                " \t\r\n{}\r\n",
                "{} {}",
                "{\"a\": 1, \"a\": 1}",
                "{\"a\": {\"b\": 1, \"b\": 2}}",
                "[{\"a\": 1}, {\"a\": 2}]",
                "{\"\\u0061\": 1, \"a\": 2}",
                "{\"a\": \"${\"}",
                "{\"a\": \"$${\"}",
                "{\"${\": 1}",
                "\"%{ if true }x%{ endif }\"",
                "\"%{ if true }x\"",
                "\"\\t${a}\"",
                "\"'\"",
                "'a'",
                "\"\\/\"",
                "\"\\a\"",
                "\"x\\\"",
                "\"é😀日本\"");
        List<String> mismatches = new ArrayList<>();
        for (String doc : docs) {
            boolean theirs = oracleAccepts(doc);
            Diagnostics mine = ours(doc);
            if (theirs == mine.hasErrors()) {
                mismatches.add(
                        JSON.writeValueAsString(doc) + (theirs ? " rejected by us: " + mine : " accepted by us"));
            }
        }
        assertThat(mismatches).isEmpty();
    }
}
