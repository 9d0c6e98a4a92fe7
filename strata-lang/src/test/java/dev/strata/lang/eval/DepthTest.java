package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Nesting;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Evaluation and decoding of deeply nested input: as deep as Terraform goes, on any thread, and a
 * diagnostic beyond the limits, never a throw.
 */
class DepthTest {
    private static final FunctionContext CTX = new FunctionContext(
            Path.of("."), Path.of("/home/test"), Clock.systemUTC(), Optional.empty(), UUID::randomUUID);
    private static final Scope SCOPE = Scope.empty(TemplateFunctions.builtins(CTX));

    /** Runs on a virtual thread: a small stack, as the engine's walk has. */
    private static <T> T onVirtualThread(Supplier<T> work) throws InterruptedException {
        AtomicReference<T> out = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread.ofVirtual()
                .start(() -> {
                    try {
                        out.set(work.get());
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                })
                .join();
        assertThat(failure.get()).as("thrown").isNull();
        return out.get();
    }

    private static Result<Value> eval(String src) {
        Result<Expr> e = NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t", SourcePos.START);
        assertThat(e.diagnostics().asList()).isEmpty();
        return new Evaluator(SCOPE).evaluate(e.value());
    }

    private static List<String> errors(Result<?> r) {
        return r.diagnostics().asList().stream()
                .map(d -> d.summary() + ": " + d.detail().replaceAll("\\s+", " "))
                .toList();
    }

    @Test
    void deeplyNestedCallsEvaluateOnASmallStack() throws InterruptedException {
        int n = 60_000;
        Result<Value> r = onVirtualThread(() -> eval("upper(".repeat(n) + "\"a\"" + ")".repeat(n)));
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value()).isEqualTo(Value.string("A"));
    }

    @Test
    void aChainOfOperatorsBeyondTheLimitIsADiagnostic() throws InterruptedException {
        // The parser reads a + b + c iteratively, but the tree it builds nests once per operator.
        Result<Value> ok = onVirtualThread(() -> eval("1" + " + 1".repeat(50_000)));
        assertThat(ok.value()).isEqualTo(Value.number(50_001));
        Result<Value> r = onVirtualThread(() -> eval("1" + " + 1".repeat(Nesting.MAX_DEPTH + 1)));
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Expression nested too deeply");
        assertThat(r.value().isKnown()).isFalse();
        // A conditional evaluates its results separately; they still count from the enclosing depth.
        Result<Value> inConditional = onVirtualThread(() -> eval("(" + "(".repeat(100) + "true ? 1"
                + " + 1".repeat(Nesting.MAX_DEPTH - 50) + " : 0" + ")".repeat(100) + ")"));
        assertThat(inConditional.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Expression nested too deeply");
    }

    @Test
    void jsondecodeAcceptsTerraformsDepthAndFailsBeyondItWithTerraformsMessage() throws InterruptedException {
        int max = 10_001; // terraform console: 10,001 nested arrays decode, 10,002 do not
        Result<Value> ok =
                onVirtualThread(() -> eval("length(jsondecode(\"" + "[".repeat(max) + "]".repeat(max) + "\"))"));
        assertThat(ok.diagnostics().asList()).isEmpty();
        assertThat(ok.value()).isEqualTo(Value.number(1));
        Result<Value> deep =
                onVirtualThread(() -> eval("jsondecode(\"" + "[".repeat(20_000) + "]".repeat(20_000) + "\")"));
        assertThat(errors(deep))
                .containsExactly("Error in function call: Call to function \"jsondecode\" failed: "
                        + "failed to read tuple value: invalid character '[' exceeded max depth.");
        String objects = "{\\\"a\\\":".repeat(20_000) + "1" + "}".repeat(20_000);
        Result<Value> deepObjects = onVirtualThread(() -> eval("jsondecode(\"" + objects + "\")"));
        assertThat(errors(deepObjects)).singleElement().asString().contains("exceeded max depth");
    }

    @Test
    void yamldecodeBoundsItsDepth() throws InterruptedException {
        Result<Value> ok =
                onVirtualThread(() -> eval("length(yamldecode(\"" + "[".repeat(1_000) + "]".repeat(1_000) + "\"))"));
        assertThat(ok.diagnostics().asList()).isEmpty();
        assertThat(ok.value()).isEqualTo(Value.number(1));
        Result<Value> deep =
                onVirtualThread(() -> eval("yamldecode(\"" + "[".repeat(20_000) + "]".repeat(20_000) + "\")"));
        assertThat(errors(deep))
                .containsExactly("Error in function call: Call to function \"yamldecode\" failed: "
                        + "on line 1, column 10002: exceeded max depth of 10001 nested sequences and mappings.");
    }

    @Test
    void consoleRendersDeepValues() throws InterruptedException {
        ConsoleSession console = new ConsoleSession(SCOPE);
        int n = 5_000;
        Result<String> r =
                onVirtualThread(() -> console.evaluate("jsondecode(\"" + "[".repeat(n) + "]".repeat(n) + "\")"));
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value()).startsWith("[\n  [\n    [");
    }
}
