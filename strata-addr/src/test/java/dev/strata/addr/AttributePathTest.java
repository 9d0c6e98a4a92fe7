package dev.strata.addr;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class AttributePathTest {

    @Test
    void rendersProviderStyle() {
        assertThat(AttributePath.of("rule").index(0).attr("cidr").toString()).isEqualTo("rule[0].cidr");
        assertThat(AttributePath.of("tags").key("a\"b\\c").toString()).isEqualTo("tags[\"a\\\"b\\\\c\"]");
        assertThat(AttributePath.ROOT.toString()).isEmpty();
    }

    @Test
    void rendersStateStyleWithGoEscaping() {
        AttributePath p = new AttributePath(List.of(
                new AttributePath.Attr("tags"),
                new AttributePath.IndexString("<a&b>\n"),
                new AttributePath.IndexNumber(new BigDecimal("1.50"))));
        assertThat(p.stateText()).isEqualTo(".tags[\"\\u003ca\\u0026b\\u003e\\n\"][1.50]");
    }

    @Test
    void prefixesAndEquality() {
        assertThat(AttributePath.of("a", "b").startsWith(AttributePath.of("a"))).isTrue();
        assertThat(AttributePath.of("a").startsWith(AttributePath.of("a", "b"))).isFalse();
        assertThat(AttributePath.of("a").index(2))
                .isEqualTo(AttributePath.of("a").index(BigDecimal.valueOf(2)));
    }
}
