package dev.strata.tfplugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.tfplugin.ProviderSchema.Attribute;
import dev.strata.tfplugin.ProviderSchema.Block;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LogRedactorTest {
    private static Attribute attr(String name, boolean sensitive, boolean writeOnly) {
        return new Attribute(name, Type.STRING, Optional.empty(), "", false, true, false, sensitive, false, writeOnly);
    }

    private static final Block SCHEMA = new Block(
            new TreeMap<>(Map.of(
                    "name", attr("name", false, false),
                    "value", attr("value", true, false),
                    "value_wo", attr("value_wo", false, true),
                    "note", attr("note", false, false))),
            new TreeMap<>(),
            "",
            false);

    @Test
    void writeOnlySensitiveAndEphemeralStringsAreReplacedInEveryQuoting() {
        LogRedactor r = new LogRedactor();
        r.remember(
                Value.object(Map.of(
                        "name", Value.string("/params/visible"),
                        "value", Value.string("sensitive-one"),
                        "value_wo", Value.string("write\"only"),
                        "note", Value.string("ephemeral-two").mark(Mark.EPHEMERAL))),
                SCHEMA);
        String line = "{\"body\":\"{\\\"Name\\\":\\\"/params/visible\\\",\\\"Value\\\":\\\"write\\\\\\\"only\\\"}\"}"
                + " sensitive-one ephemeral-two write\"only";
        String out = r.redact(line);
        assertThat(out)
                .contains("/params/visible")
                .doesNotContain("sensitive-one")
                .doesNotContain("ephemeral-two")
                .doesNotContain("write\"only")
                .doesNotContain("write\\\\\\\"only")
                .contains(LogRedactor.REPLACEMENT);
    }

    @Test
    void nothingRememberedLeavesLinesAloneAndShortStringsAreKept() {
        LogRedactor r = new LogRedactor();
        assertThat(r.redact("plain line")).isEqualTo("plain line");
        r.remember(Value.object(Map.of("value_wo", Value.string("abc"))), SCHEMA);
        assertThat(r.redact("abc abcd")).isEqualTo("abc abcd");
    }
}
