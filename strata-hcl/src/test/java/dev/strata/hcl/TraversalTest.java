package dev.strata.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.syntax.NativeSyntax;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The steps of a static path: attribute names by position, and the range up to a step. */
class TraversalTest {
    private static Traversal parse(String text) {
        Result<Traversal> r =
                NativeSyntax.parseTraversal(text.getBytes(StandardCharsets.UTF_8), "main.tf", SourcePos.START);
        assertThat(r.diagnostics().asList()).isEmpty();
        return r.value();
    }

    @Test
    void attrNameIsTheNameOfAnAttributeStepOnly() {
        Traversal t = parse("component.web[\"a\"].name");
        assertThat(t.attrName(0)).as("the root is no attribute step").isNull();
        assertThat(t.attrName(1)).isEqualTo("web");
        assertThat(t.attrName(2)).as("an index step").isNull();
        assertThat(t.attrName(3)).isEqualTo("name");
        assertThat(t.attrName(4)).as("past the end").isNull();
    }

    @Test
    void rangeToCoversTheRootThroughTheStepOrTheWholePathWhenShorter() {
        Traversal t = parse("var.x.y");
        assertThat(t.rangeTo(0)).isEqualTo(t.rootRange());
        assertThat(t.rangeTo(1).start().column()).isEqualTo(1);
        assertThat(t.rangeTo(1).end().column()).isEqualTo(6);
        assertThat(t.rangeTo(2)).isEqualTo(t.range());
        assertThat(t.rangeTo(9)).isEqualTo(t.range());
    }
}
