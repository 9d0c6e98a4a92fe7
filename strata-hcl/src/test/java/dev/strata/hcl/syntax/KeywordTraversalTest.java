package dev.strata.hcl.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Traversal syntax has no keywords: {@code null.alt} read statically is a reference rooted at {@code null}. */
class KeywordTraversalTest {
    private static Result<Optional<Traversal>> traversal(String src) {
        return NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t.tf", SourcePos.START)
                .value()
                .asTraversal();
    }

    @Test
    void aKeywordRootsAStaticReference() {
        Result<Optional<Traversal>> t = traversal("null.alt");
        assertThat(t.hasErrors()).isFalse();
        assertThat(t.value().orElseThrow().steps())
                .extracting(s -> switch (s) {
                    case Traverser.Root r -> r.name();
                    case Traverser.Attr a -> a.name();
                    default -> s.toString();
                })
                .containsExactly("null", "alt");
        assertThat(traversal("true").value().orElseThrow().steps()).hasSize(1);
    }

    @Test
    void otherLiteralsAreStillNoReference() {
        assertThat(traversal("1").hasErrors()).isTrue();
        assertThat(traversal("\"x\".y").hasErrors()).isTrue();
    }
}
