package dev.strata.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The snippets terraform 1.11 gives ({@code validate -json}) for the same files and ranges. */
class SnippetTest {
    private static SourceRange range(int sl, int sc, int sb, int el, int ec, int eb) {
        return new SourceRange("main.tf", new SourcePos(sl, sc, sb), new SourcePos(el, ec, eb));
    }

    private static Snippet of(String src, SourceRange subject, SourceRange context) {
        return Snippet.of(src.getBytes(StandardCharsets.UTF_8), subject, context);
    }

    /** "Invalid expression" at the newline after {@code input =}: the range ends where line 3 starts. */
    @Test
    void aRangeEndingAtTheStartOfALineShowsThatLine() {
        Snippet s = of("resource \"terraform_data\" \"x\" {\n  input = \n}\n", range(2, 11, 42, 3, 1, 43), null);
        assertThat(s).isEqualTo(new Snippet(2, "  input = \n}", 10, 11));
    }

    /** The same with an empty line 3: not shown, and the highlight's end is clamped to the code. */
    @Test
    void anEmptyLineAfterTheRangeIsNotShown() {
        Snippet s = of("resource \"terraform_data\" \"x\" {\n  input = \n\n}\n", range(2, 11, 42, 3, 1, 43), null);
        assertThat(s).isEqualTo(new Snippet(2, "  input = ", 10, 10));
    }

    /** CRLF line ends: the carriage returns are not part of the lines; offsets stay file bytes. */
    @Test
    void carriageReturnsAreLeftOut() {
        Snippet s = of("resource \"terraform_data\" \"x\" {\r\n  input = \r\n}\r\n", range(2, 11, 43, 3, 1, 45), null);
        assertThat(s).isEqualTo(new Snippet(2, "  input = \n}", 10, 12));
    }

    @Test
    void aRangeOverSeveralLinesShowsThemAll() {
        Snippet s = of(
                "resource \"terraform_data\" \"x\" {\n  input = 1 + {\n    a = 1\n  }\n}\n",
                range(2, 15, 46, 4, 4, 61),
                null);
        assertThat(s).isEqualTo(new Snippet(2, "  input = 1 + {\n    a = 1\n  }", 14, 29));
    }

    /** A range that ends just before a newline (the usual case) shows its line only. */
    @Test
    void aRangeEndingBeforeTheNewlineShowsItsLineOnly() {
        Snippet s = of("locals {\n  a = b\n}\n", range(2, 7, 15, 2, 8, 16), null);
        assertThat(s).isEqualTo(new Snippet(2, "  a = b", 6, 7));
    }

    /** The context widens the lines shown, and the first line's number is the context's. */
    @Test
    void theContextWidensTheSnippet() {
        Snippet s = of("locals {\n  a = b\n}\n", range(2, 7, 15, 2, 8, 16), range(1, 1, 0, 3, 2, 18));
        assertThat(s).isEqualTo(new Snippet(1, "locals {\n  a = b\n}", 15, 16));
    }

    /** An empty subject is taken as one byte long. */
    @Test
    void anEmptySubjectIsOneByteLong() {
        Snippet s = of("locals {\n  a = b\n}\n", range(2, 7, 15, 2, 7, 15), null);
        assertThat(s).isEqualTo(new Snippet(2, "  a = b", 6, 7));
    }

    /**
     * An empty line inside the range is shown, so that the lines after it keep their numbers; terraform 1.11
     * leaves it out ({@code "  input = 1 + {\n    a = 1\n  }"}) and numbers {@code a = 1} as line 3.
     */
    @Test
    void anEmptyLineInsideTheRangeIsShown() {
        Snippet s = of(
                "resource \"terraform_data\" \"x\" {\n  input = 1 + {\n\n    a = 1\n  }\n}\n",
                range(2, 15, 46, 5, 4, 62),
                null);
        assertThat(s).isEqualTo(new Snippet(2, "  input = 1 + {\n\n    a = 1\n  }", 14, 30));
    }
}
