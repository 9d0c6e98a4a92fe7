package dev.strata.hcl.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.json.JsonValue.JArray;
import dev.strata.hcl.json.JsonValue.JNumber;
import dev.strata.hcl.json.JsonValue.JObject;
import dev.strata.hcl.json.JsonValue.JString;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonParserTest {
    static JsonParser.Parsed parse(String s) {
        return JsonParser.parse(s.getBytes(StandardCharsets.UTF_8), "t.tf.json", SourcePos.START);
    }

    static Diagnostic onlyError(String s) {
        JsonParser.Parsed p = parse(s);
        assertThat(p.diagnostics().asList()).as("diagnostics of %s", s).hasSize(1);
        return p.diagnostics().asList().get(0);
    }

    static String at(SourceRange r) {
        return r.start().line() + ":" + r.start().column() + "@" + r.start().byteOffset() + "-"
                + r.end().line() + ":" + r.end().column() + "@" + r.end().byteOffset();
    }

    @Test
    void everyValueAndNameHasExactPositions() {
        JsonParser.Parsed p = parse("{\n  \"a\": [1, \"é\", true],\n\t\"b\": null\n}");
        assertThat(p.diagnostics().isEmpty()).isTrue();
        JObject o = (JObject) p.value();
        assertThat(at(o.range())).isEqualTo("1:1@0-4:2@38");
        assertThat(at(o.properties().get(0).name().range())).isEqualTo("2:3@4-2:6@7");
        JArray a = (JArray) o.properties().get(0).value();
        assertThat(at(a.range())).isEqualTo("2:8@9-2:22@24");
        JString e = (JString) a.elements().get(1);
        // "é" is two bytes but one column.
        assertThat(at(e.range())).isEqualTo("2:12@13-2:15@17");
        assertThat(at(o.properties().get(1).name().range())).isEqualTo("3:2@27-3:5@30");
    }

    @Test
    void duplicatePropertiesAreKeptInOrder() {
        JObject o = (JObject) parse("{\"a\": 1, \"a\": 2}").value();
        assertThat(o.properties()).extracting(pr -> pr.name().value()).containsExactly("a", "a");
    }

    @Test
    void numbersKeepTheirExactText() {
        JObject o = (JObject)
                parse("{\"n\": 0.10000000000000000000000001, \"m\": -1E+400}").value();
        JNumber n = (JNumber) o.properties().get(0).value();
        assertThat(n.text()).isEqualTo("0.10000000000000000000000001");
        assertThat(n.value().toPlainString()).isEqualTo("0.10000000000000000000000001");
        assertThat(((JNumber) o.properties().get(1).value()).value().toString()).isEqualTo("-1E+400");
    }

    @Test
    void escapesAreDecoded() {
        JString s = (JString) parse("\"a\\n\\u00e9\\ud83d\\ude00\\/\\\"\"").value();
        assertThat(s.value()).isEqualTo("a\né\uD83D\uDE00/\"");
    }

    @Test
    void loneSurrogateEscapeBecomesReplacementCharacter() {
        JsonParser.Parsed p = parse("\"\\ud800x\"");
        assertThat(p.diagnostics().isEmpty()).isTrue();
        assertThat(((JString) p.value()).value()).isEqualTo("\uFFFDx");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"a\": 1,}                | Trailing comma in object          | 1:8@7-1:9@8",
                "[1,]                       | Trailing comma in array           | 1:3@2-1:4@3",
                "{\"a\": 1} x               | Extraneous data after value       | 1:10@9-1:11@10",
                "{\"a\" = 1}                | Missing property value colon      | 1:6@5-1:7@6",
                "{\"a\": 1 \"b\": 2}        | Missing property separator comma  | 1:9@8-1:10@9",
                "{\"a\": 01}                | Invalid JSON number               | 1:7@6-1:9@8",
                "{\"a\": +1}                | Invalid JSON number               | 1:7@6-1:9@8",
                "{\"a\": 1.}                | Invalid JSON number               | 1:7@6-1:9@8",
                "{\"a\": True}              | Invalid JSON keyword              | 1:7@6-1:11@10",
                "{\"a\": 'x'}               | Invalid character                 | 1:7@6-1:8@7",
                "{a: 1}                     | Invalid object property name      | 1:2@1-1:3@2",
                "{\"a\": 1                  | Unclosed object                   | 1:1@0-1:2@1",
                "[1, 2                      | Unclosed array                    | 1:1@0-1:2@1",
                "{\"a\": [1}                | Mismatched brackets               | 1:9@8-1:10@9",
                "{\"a\": 1]                 | Mismatched braces                 | 1:8@7-1:9@8",
                "{\"a\": \"x\\qy\"}         | Invalid escape sequence           | 1:9@8-1:11@10",
                "{\"a\": \"\\u12\"}         | Invalid escape sequence           | 1:8@7-1:12@11",
                "{\"a\":                    | Missing value                     | 1:6@5-1:6@5",
                "{\"a\": \"x                | Unterminated string               | 1:7@6-1:9@8",
            })
    void syntaxErrorsPointAtTheOffendingToken(String src, String summary, String range) {
        Diagnostic d = onlyError(src.strip());
        assertThat(d.summary()).isEqualTo(summary);
        assertThat(at(d.subject())).isEqualTo(range);
    }

    @Test
    void rawNewlineInStringIsAnError() {
        Diagnostic d = onlyError("{\"a\": \"x\ny\"}");
        assertThat(d.summary()).isEqualTo("Unterminated string");
        assertThat(d.subject().start().byteOffset()).isEqualTo(8);
    }

    @Test
    void invalidUtf8IsReportedWithItsRange() {
        byte[] src = {'{', '"', 'a', '"', ':', '"', (byte) 0xff, 'x', '"', '}'};
        JsonParser.Parsed p = JsonParser.parse(src, "t.tf.json", SourcePos.START);
        assertThat(p.diagnostics().asList()).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Invalid character encoding");
            assertThat(at(d.subject())).isEqualTo("1:7@6-1:8@7");
        });
        byte[] outside = {'{', (byte) 0xc3, '}'};
        assertThat(JsonParser.parse(outside, "t", SourcePos.START).diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Invalid character encoding");
    }

    @Test
    void rootMustBeAnObjectOrArray() {
        Result<HclFile> r = JsonSyntax.parse("\"x\"".getBytes(StandardCharsets.UTF_8), "t.tf.json");
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Root value must be object");
        assertThat(JsonSyntax.parse("[{}]".getBytes(StandardCharsets.UTF_8), "t.tf.json")
                        .hasErrors())
                .isFalse();
        assertThat(JsonSyntax.parse("  ".getBytes(StandardCharsets.UTF_8), "t.tf.json")
                        .diagnostics()
                        .asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Missing value");
    }

    @Test
    void byteOrderMarkIsRejected() {
        byte[] src = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '{', '}'};
        assertThat(JsonSyntax.parse(src, "t.tf.json").diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Byte order mark at start of file");
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() {
        String deep = "[".repeat(JsonParser.MAX_DEPTH + 1);
        assertThat(parse(deep).diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Value nested too deeply");
    }

    @Test
    void nestingAsDeepAsTerraformAcceptsParsesOnASmallStack() throws InterruptedException {
        // terraform validate accepts a .tf.json output value nested 30,000 arrays deep (measured).
        int n = 30_000;
        String src = "{\"output\": {\"x\": {\"value\": " + "[".repeat(n) + "]".repeat(n) + "}}}";
        java.util.concurrent.atomic.AtomicReference<Result<HclFile>> out =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = Thread.ofVirtual()
                .start(() -> out.set(JsonSyntax.parse(src.getBytes(StandardCharsets.UTF_8), "t.tf.json")));
        t.join();
        assertThat(out.get().diagnostics().asList()).isEmpty();
    }

    @Test
    void partialTreeSurvivesAnError() {
        JObject o = (JObject) parse("{\"a\": 1, \"b\": {\"c\": 2,}, \"d\": 3}").value();
        assertThat(o.properties()).extracting(pr -> pr.name().value()).containsExactly("a", "b");
    }

    @Test
    void startPositionIsHonoured() {
        JsonParser.Parsed p = JsonParser.parse("[1]".getBytes(StandardCharsets.UTF_8), "v", new SourcePos(3, 5, 40));
        assertThat(at(p.value().range())).isEqualTo("3:5@40-3:8@43");
    }
}
