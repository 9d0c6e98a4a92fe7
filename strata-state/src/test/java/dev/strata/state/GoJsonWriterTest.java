package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Go's JSON string escaping, and how much memory a large string costs to write. */
class GoJsonWriterTest {
    private static String write(String s) {
        GoJsonWriter w = new GoJsonWriter(16);
        w.string(s);
        return new String(w.toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    void escapesAsGoDoes() {
        assertThat(write("a\"b\\c<d>&e\n\t\u0001\u2028é😀"))
                .isEqualTo("\"a\\\"b\\\\c\\u003cd\\u003e\\u0026e\\n\\t\\u0001\\u2028é😀\"");
        assertThat(write("\ud800x")).isEqualTo("\"\\ufffdx\"");
        assertThat(write("")).isEqualTo("\"\"");
    }

    @Test
    void aLargeStringGrowsTheBufferByLessThanTwiceItsSize() {
        // Reserving the worst case (six bytes per char) for the whole string made a 50 MB value cost a
        // 300 MB buffer, doubled on the next write; the writer now reserves a slice at a time.
        String big = "x".repeat(3_000_000);
        GoJsonWriter w = new GoJsonWriter(16);
        w.string(big);
        assertThat(w.toByteArray()).hasSize(3_000_002);
        assertThat(w.capacity()).isLessThan(2 * 3_000_002);
    }

    @Test
    void surrogatePairsAndEscapesAcrossSliceBoundaries() {
        StringBuilder in = new StringBuilder();
        StringBuilder want = new StringBuilder("\"");
        for (int i = 0; i < 40_000; i++) {
            switch (i % 7) {
                case 0 -> {
                    in.append("😀");
                    want.append("😀");
                }
                case 3 -> {
                    in.append('<');
                    want.append("\\u003c");
                }
                case 5 -> {
                    in.append("é");
                    want.append("é");
                }
                default -> {
                    in.append('a');
                    want.append('a');
                }
            }
        }
        // Pairs straddling the slice boundary at every offset: an odd prefix shifts them by one.
        assertThat(write(in.toString())).isEqualTo(want.append('"').toString());
        assertThat(write("b" + in)).isEqualTo("\"b" + want.substring(1));
        // A lone high surrogate at the very end.
        assertThat(write("y".repeat(8191) + "\ud83d")).isEqualTo("\"" + "y".repeat(8191) + "\\ufffd\"");
    }
}
