package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
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

    @TestFactory
    Stream<DynamicTest> matchesTerraformConsole() throws IOException {
        Files.writeString(dir.resolve("t.tpl"), "Hello ${name}!\n%{ for x in items ~}\n- ${x}\n%{ endfor ~}\n");
        Files.writeString(dir.resolve("j.tpl"), "${jsonencode({a = n})}");
        FunctionContext ctx = new FunctionContext(
                dir,
                Path.of("/home/test"),
                Clock.fixed(Instant.parse("2024-01-02T03:04:05Z"), ZoneOffset.UTC),
                Optional.empty(),
                () -> UUID.fromString("00000000-0000-4000-8000-000000000000"));
        FunctionTable table = TemplateFunctions.builtins(ctx);
        ConsoleSession session = new ConsoleSession(Scope.empty(table));
        return ConsoleTranscripts.load(EvalCasesTest.class, "eval-cases.txt").stream()
                .map(c -> DynamicTest.dynamicTest(
                        c.expr(),
                        () -> assertThat(ConsoleTranscripts.normalize(ConsoleTranscripts.run(session, c.expr())))
                                .isEqualTo(ConsoleTranscripts.normalize(c.expected()))));
    }
}
