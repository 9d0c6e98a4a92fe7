package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
    @Test
    void typosAndTranspositionsAreClose() {
        List<String> names = List.of("validate", "version", "fmt", "plan", "apply");
        assertThat(Suggestions.closest("valdate", names)).containsExactly("validate");
        assertThat(Suggestions.closest("versoin", names)).containsExactly("version");
        assertThat(Suggestions.closest("fmr", names)).containsExactly("fmt");
        assertThat(Suggestions.closest("destroy", names)).isEmpty();
    }

    @Test
    void distanceCountsATranspositionAsOneEdit() {
        assertThat(Suggestions.distance("ab", "ba")).isEqualTo(1);
        assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(Suggestions.distance("", "abc")).isEqualTo(3);
    }
}
