package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.eval.ConsoleSession;
import dev.strata.lang.eval.ConsoleTranscripts;
import dev.strata.lang.eval.Scope;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case in {@code console-cases.txt} was run through the real {@code terraform console}
 * (v1.11.4); each must give the same rendering, or, for errors, the same summary and detail.
 */
class ConsoleCasesTest {
    static FunctionTable table() {
        FunctionContext ctx = new FunctionContext(
                Path.of("/nonexistent-strata-test-dir"),
                Path.of("/home/test"),
                Clock.fixed(Instant.parse("2024-01-02T03:04:05Z"), ZoneOffset.UTC),
                Optional.empty(),
                () -> UUID.fromString("00000000-0000-4000-8000-000000000000"));
        return Functions.builtins(ctx);
    }

    @TestFactory
    Stream<DynamicTest> matchesTerraformConsole() throws IOException {
        FunctionTable table = table();
        ConsoleSession session = new ConsoleSession(Scope.empty(table));
        return ConsoleTranscripts.load(ConsoleCasesTest.class, "console-cases.txt").stream()
                .map(c -> DynamicTest.dynamicTest(
                        c.expr(),
                        () -> assertThat(ConsoleTranscripts.normalize(ConsoleTranscripts.run(session, c.expr())))
                                .isEqualTo(ConsoleTranscripts.normalize(c.expected()))));
    }
}
