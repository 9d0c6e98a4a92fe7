package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.cli.command.CommandContext;
import dev.strata.engine.Action;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Texts scripts read, as terraform 1.11 writes them (each checked against the binary; the
 * differential counterparts are in {@code OutputTextsDifferentialTest}).
 */
class TerraformTextsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private CommandContext context() {
        return new CommandContext(
                Path.of("."),
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                false,
                80,
                Map.of(),
                "test");
    }

    private static AbsResourceInstance addr(String s) {
        return Addrs.parseAbsResourceInstance(s).value();
    }

    @Test
    void outputJsonIsIndentedAndEscapedAsGoWritesIt() throws Exception {
        var n = new ObjectMapper()
                .readTree("{\"o\":{\"sensitive\":false,\"type\":[\"tuple\",[]],\"value\":[]},"
                        + "\"p\":{\"value\":{\"a\":[1,\"<b&c>\"],\"e\":{}}}}");
        assertThat(GoJson.indented(n)).isEqualTo("""
                        {
                          "o": {
                            "sensitive": false,
                            "type": [
                              "tuple",
                              []
                            ],
                            "value": []
                          },
                          "p": {
                            "value": {
                              "a": [
                                1,
                                "\\u003cb\\u0026c\\u003e"
                              ],
                              "e": {}
                            }
                          }
                        }""");
        assertThat(GoJson.compact(n.get("p")))
                .isEqualTo("{\"value\":{\"a\":[1,\"\\u003cb\\u0026c\\u003e\"],\"e\":{}}}");
    }

    @Test
    void stillRunningEveryTenSecondsOfEachOperationWithTheIdOfWhatChanges() {
        AtomicLong now = new AtomicLong();
        try (ApplyView v = new ApplyView(context(), now::get, false)) {
            v.applyStart(addr("terraform_data.a"), Action.CREATE, null, null);
            now.addAndGet(Duration.ofSeconds(4).toNanos());
            v.applyStart(addr("terraform_data.b"), Action.UPDATE, null, "b-1");
            v.applyStart(addr("terraform_data.c"), Action.DELETE, null, "c-1");
            now.addAndGet(Duration.ofSeconds(6).toNanos());
            v.tick();
            v.tick(); // twice in the same second: still one line
            now.addAndGet(Duration.ofSeconds(4).toNanos());
            v.tick();
            v.applyComplete(addr("terraform_data.c"), Action.DELETE, null, Duration.ofSeconds(10));
            now.addAndGet(Duration.ofSeconds(56).toNanos());
            v.tick();
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("""
                        terraform_data.a: Creating...
                        terraform_data.b: Modifying... [id=b-1]
                        terraform_data.c: Destroying... [id=c-1]
                        terraform_data.a: Still creating... [10s elapsed]
                        terraform_data.b: Still modifying... [id=b-1, 10s elapsed]
                        terraform_data.c: Still destroying... [id=c-1, 10s elapsed]
                        terraform_data.c: Destruction complete after 10s
                        terraform_data.a: Still creating... [20s elapsed]
                        terraform_data.b: Still modifying... [id=b-1, 20s elapsed]
                        """);
    }

    @Test
    void stateValuesHideOnlyTheSensitivePartsAndTypedObjectsDropTheirNulls() {
        Value dynamic = Value.objectOf(
                "a", Value.nullValue(Type.STRING),
                "s", Value.string("x").mark(Mark.SENSITIVE),
                "m", Value.objectOf("k", Value.string("1"), "a b", Value.string("2")));
        assertThat(ValueDiff.forState(true).plain(dynamic, 4)).isEqualTo("""
                        {
                                a = null
                                m = {
                                    "a b" = "2"
                                    k     = "1"
                                }
                                s = (sensitive value)
                            }""");
        Value typed = Value.objectOf("n", Value.nullValue(Type.STRING), "b", Value.number(2));
        assertThat(ValueDiff.forState(false).plain(typed, 0)).isEqualTo("{\n    b = 2\n}");
    }

    @Test
    void aChangedNestedBlockKeepsItsIdentifyingAttributes() {
        Block rule = Block.builder()
                .attribute("name", Attribute.required(Type.STRING))
                .attribute("port", Attribute.required(Type.NUMBER))
                .attribute("note", Attribute.optional(Type.STRING))
                .build();
        Block schema = Block.builder()
                .attribute("id", Attribute.computed(Type.STRING))
                .block("rule", NestedBlock.of(NestingMode.LIST, rule))
                .build();
        Value before = Value.objectOf(
                "id",
                Value.string("i-1"),
                "rule",
                Value.listOf(List.of(Value.objectOf(
                        "name", Value.string("web"), "port", Value.number(80), "note", Value.string("n")))));
        Value after = Value.objectOf(
                "id",
                Value.string("i-1"),
                "rule",
                Value.listOf(List.of(Value.objectOf(
                        "name", Value.string("web"), "port", Value.number(8080), "note", Value.string("n")))));
        ValueDiff d = ValueDiff.forResource(Set.of(), schema);
        d.objectBody(before, after, 6, "", true, schema);
        assertThat(d.text()).isEqualTo("""
                                id = "i-1"

                              ~ rule {
                                    name = "web"
                                  ~ port = 80 -> 8080
                                    # (1 unchanged attribute hidden)
                                }
                        """);
    }

    @Test
    void aChangedObjectKeepsItsUnchangedTagsAndName() {
        Block schema = Block.builder()
                .attribute("input", Attribute.optional(Type.DYNAMIC))
                .build();
        Value before = Value.objectOf(
                "input",
                Value.objectOf(
                        "name", Value.string("n"),
                        "num", Value.number(3),
                        "tags", Value.listOf(List.of(Value.string("a"))),
                        "v", Value.string("1")));
        Value after = Value.objectOf(
                "input",
                Value.objectOf(
                        "name", Value.string("n"),
                        "num", Value.number(3),
                        "tags", Value.listOf(List.of(Value.string("a"))),
                        "v", Value.string("2")));
        ValueDiff d = ValueDiff.forResource(Set.of(), schema);
        d.objectBody(before, after, 6, "", true, schema);
        assertThat(d.text()).isEqualTo("""
                      ~ input = {
                            name = "n"
                            tags = [
                                "a",
                            ]
                          ~ v    = "1" -> "2"
                            # (1 unchanged attribute hidden)
                        }
                """);
    }
}
