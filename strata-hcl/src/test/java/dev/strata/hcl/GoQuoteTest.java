package dev.strata.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class GoQuoteTest {
    @Test
    void stringsAreQuotedAsGoPrintsThemWithPercentQ() {
        assertThat(GoQuote.quote("a\"b\\c\td\u0001é")).isEqualTo("\"a\\\"b\\\\c\\td\\x01é\"");
        assertThat(GoQuote.quote("\u0007\b\f\u000b\n\r\u007f")).isEqualTo("\"\\a\\b\\f\\v\\n\\r\\x7f\"");
        assertThat(GoQuote.quote("")).isEqualTo("\"\"");
        // Characters Go does not print (format and control characters beyond ASCII) in its u and U escapes.
        assertThat(GoQuote.quote("a\u200bb\u0085")).isEqualTo("\"a\\u200bb\\u0085\"");
        assertThat(GoQuote.quote(new String(Character.toChars(0xE0001)))).isEqualTo("\"\\U000e0001\"");
    }

    @Test
    void aListIsQuotedAsGoPrintsAStringSlice() {
        assertThat(GoQuote.list(List.of("sh", "-c", "echo \"hi\""))).isEqualTo("[\"sh\" \"-c\" \"echo \\\"hi\\\"\"]");
        assertThat(GoQuote.list(List.of())).isEqualTo("[]");
    }
}
