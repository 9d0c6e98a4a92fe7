package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class GraphemeCountTest {
    @Test
    void countsClustersAsTerraformDoes() {
        assertThat(Args.graphemeCount("")).isZero();
        assertThat(Args.graphemeCount("k00042-d0-r3")).isEqualTo(12);
        assertThat(Args.graphemeCount("\r\n")).isEqualTo(1);
        assertThat(Args.graphemeCount("a\r\nb\n\r")).isEqualTo(5);
        assertThat(Args.graphemeCount("e\u0301")).isEqualTo(1);
        assertThat(Args.graphemeCount("x\ud83d\udc7e")).isEqualTo(2);
        assertThat(Args.graphemeCount("\ud83c\uddeb\ud83c\uddf7")).isEqualTo(1);
    }

    /** ASCII (control characters included) with now and then a combining mark or an emoji. */
    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.oneOf(
                        Arbitraries.chars().range('\u0000', '\u007f').map(String::valueOf),
                        Arbitraries.of("\r", "\n", "\r\n", "\u0301", "\ud83d\udc7e", "\u200d", "\u00e9"))
                .list()
                .ofMaxSize(12)
                .map(parts -> String.join("", parts));
    }

    @Property
    void theCountIsTheNumberOfClusters(@ForAll("texts") String s) {
        assertThat(Args.graphemeCount(s)).isEqualTo(Args.graphemes(s).size());
    }
}
