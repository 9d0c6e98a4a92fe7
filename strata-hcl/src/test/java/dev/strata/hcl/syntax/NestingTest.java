package dev.strata.hcl.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Nesting;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.Traversal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Nesting at and beyond {@link Nesting#MAX_DEPTH}: deep input parses on any thread, including
 * a virtual thread with its small stack, and deeper input is one diagnostic, never a throw.
 */
class NestingTest {
    private static Result<Expr> expr(String src) {
        return NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t.tf", SourcePos.START);
    }

    private static List<String> summaries(Result<?> r) {
        return r.diagnostics().asList().stream().map(Diagnostic::summary).toList();
    }

    /** Runs on a virtual thread, whose stack holds only a few hundred parser levels by itself. */
    private static <T> T onVirtualThread(java.util.function.Supplier<T> work) throws InterruptedException {
        AtomicReference<T> out = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                out.set(work.get());
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join();
        assertThat(failure.get()).as("thrown").isNull();
        return out.get();
    }

    @Test
    void nestedCallsParseFarBeyondWhatTerraformNeeds() throws InterruptedException {
        // 500 nested calls used to overflow the stack; Terraform accepts about 60,000.
        int n = 60_000;
        Result<Expr> r = onVirtualThread(() -> expr("upper(".repeat(n) + "var.a" + ")".repeat(n)));
        assertThat(r.diagnostics().asList()).isEmpty();
        Expr e = r.value();
        int depth = 0;
        while (e instanceof Expr.FunctionCall f) {
            depth++;
            e = f.args().get(0);
        }
        assertThat(depth).isEqualTo(n);
        List<Traversal> refs = onVirtualThread(() -> r.value().variables());
        assertThat(refs).hasSize(1);
    }

    @Test
    void nestingBeyondTheLimitIsOneDiagnosticAtTheDeepestLevel() throws InterruptedException {
        int n = Nesting.MAX_DEPTH + 1;
        for (String src : List.of(
                "upper(".repeat(n) + "1" + ")".repeat(n),
                "(".repeat(n) + "1" + ")".repeat(n),
                "[".repeat(n) + "]".repeat(n),
                "{a = ".repeat(n) + "1" + "}".repeat(n),
                "-".repeat(n) + "1",
                "true ? ".repeat(n) + "1" + " : 2".repeat(n),
                "\"${".repeat(n) + "1" + "}\"".repeat(n))) {
            Result<Expr> r = onVirtualThread(() -> expr(src));
            assertThat(summaries(r)).as(src.substring(0, 10)).containsExactly("Expression nested too deeply");
            Diagnostic d = r.diagnostics().asList().get(0);
            assertThat(d.detail()).contains("more than 100000 levels");
            assertThat(d.subject().start().byteOffset())
                    .as(src.substring(0, 10))
                    .isGreaterThan(n - 10);
        }
    }

    @Test
    void templateDirectivesAndBlocksAreBoundedToo() throws InterruptedException {
        int n = Nesting.MAX_DEPTH + 1;
        String directives = "%{ if true }".repeat(n) + "x" + "%{ endif }".repeat(n);
        Result<Expr> t = onVirtualThread(() ->
                NativeSyntax.parseTemplate(directives.getBytes(StandardCharsets.UTF_8), "t.tpl", SourcePos.START));
        assertThat(summaries(t)).containsExactly("Template directive nested too deeply");

        String blocks = "a {\n".repeat(n) + "}\n".repeat(n) + "b = 1\n";
        Result<HclFile> f =
                onVirtualThread(() -> NativeSyntax.parseConfig(blocks.getBytes(StandardCharsets.UTF_8), "t.tf"));
        assertThat(summaries(f)).containsExactly("Block nested too deeply");
        assertThat(((SyntaxBody) f.value().body()).attributes())
                .extracting(a -> a.name())
                .containsExactly("b");
    }

    @Test
    void deepTemplatesParseBelowTheLimit() throws InterruptedException {
        int n = 20_000;
        String directives = "%{ if true }".repeat(n) + "x" + "%{ endif }".repeat(n);
        Result<Expr> t = onVirtualThread(() ->
                NativeSyntax.parseTemplate(directives.getBytes(StandardCharsets.UTF_8), "t.tpl", SourcePos.START));
        assertThat(t.diagnostics().asList()).isEmpty();
    }
}
