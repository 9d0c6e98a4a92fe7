package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every case of {@code eval-cases.txt} (operators, conditionals, for expressions, splats, templates,
 * indexing, try/can, template functions, errors) was run through the real {@code terraform console};
 * our parser, evaluator and console rendering must print the same, or the same error summary and
 * detail.
 */
class EvalCasesTest {
    @TempDir
    static Path dir;

    record Case(String expr, String expected) {}

    static List<Case> cases() throws IOException {
        try (InputStream in = EvalCasesTest.class.getResourceAsStream("eval-cases.txt")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<Case> out = new ArrayList<>();
            for (String block : text.split("(?m)^### ")) {
                if (block.startsWith("#") || block.isBlank()) {
                    continue;
                }
                int nl = block.indexOf('\n');
                out.add(new Case(block.substring(0, nl), block.substring(nl + 1).stripTrailing()));
            }
            return out;
        }
    }

    static String normalize(String text) {
        if (!text.startsWith("Error: ")) {
            return text;
        }
        int nl = text.indexOf('\n');
        return text.substring(0, nl) + "\n" + text.substring(nl + 1).replaceAll("\\s*\n\\s*", " ").trim();
    }

    static String run(String expr, FunctionTable table) {
        Result<Expr> parsed = NativeSyntax.parseExpression(expr.getBytes(StandardCharsets.UTF_8), "<console-input>",
                SourcePos.START);
        if (parsed.hasErrors()) {
            return error(parsed.diagnostics().asList());
        }
        Result<Value> r = new Evaluator(Scope.empty(table)).evaluate(parsed.value());
        if (r.hasErrors()) {
            return error(r.diagnostics().asList());
        }
        return ConsoleFormat.render(r.value());
    }

    /** Every error, in order, as the console prints them. */
    private static String error(List<Diagnostic> ds) {
        return String.join("\n", ds.stream().filter(Diagnostic::isError)
                .map(d -> "Error: " + d.summary() + "\n" + d.detail()).toList());
    }

    @TestFactory
    Stream<DynamicTest> matchesTerraformConsole() throws IOException {
        Files.writeString(dir.resolve("t.tpl"), "Hello ${name}!\n%{ for x in items ~}\n- ${x}\n%{ endfor ~}\n");
        Files.writeString(dir.resolve("j.tpl"), "${jsonencode({a = n})}");
        FunctionContext ctx = new FunctionContext(dir, Path.of("/home/test"),
                Clock.fixed(Instant.parse("2024-01-02T03:04:05Z"), ZoneOffset.UTC), Optional.empty(),
                () -> UUID.fromString("00000000-0000-4000-8000-000000000000"));
        FunctionTable table = TemplateFunctions.builtins(ctx);
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.expr(),
                () -> assertThat(normalize(run(c.expr(), table))).isEqualTo(normalize(c.expected()))));
    }
}
