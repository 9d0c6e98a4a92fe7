package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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

/**
 * Every case in {@code console-cases.txt} was run through the real {@code terraform console}
 * (v1.11.4); each must give the same rendering, or, for errors, the same summary and detail.
 */
class ConsoleCasesTest {
  static FunctionTable table() {
    FunctionContext ctx = new FunctionContext(Path.of("/nonexistent-strata-test-dir"), Path.of("/home/test"),
        Clock.fixed(Instant.parse("2024-01-02T03:04:05Z"), ZoneOffset.UTC), Optional.empty(),
        () -> UUID.fromString("00000000-0000-4000-8000-000000000000"));
    return Functions.builtins(ctx);
  }

  record Case(String expr, String expected) {}

  static List<Case> cases() throws IOException {
    try (InputStream in = ConsoleCasesTest.class.getResourceAsStream("console-cases.txt")) {
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

  /** Errors print as "Error: summary" and a wrapped detail; compare with the wrapping undone. */
  static String normalize(String expected) {
    if (!expected.startsWith("Error: ")) {
      return expected;
    }
    int nl = expected.indexOf('\n');
    return expected.substring(0, nl) + "\n" + expected.substring(nl + 1).replaceAll("\\s*\n\\s*", " ").trim();
  }

  /** Parses and evaluates like the console: the real parser, the real evaluator, an empty scope. */
  static String run(String expr, FunctionTable table) {
    boolean typeOf = expr.startsWith("type(") && expr.endsWith(")");
    String inner = typeOf ? expr.substring(5, expr.length() - 1) : expr;
    Result<Expr> parsed = NativeSyntax.parseExpression(inner.getBytes(StandardCharsets.UTF_8),
        "<console-input>", SourcePos.START);
    if (parsed.hasErrors()) {
      return error(parsed.diagnostics());
    }
    Result<Value> r = new Evaluator(Scope.empty(table)).evaluate(parsed.value());
    if (r.hasErrors()) {
      return error(r.diagnostics());
    }
    return typeOf ? r.value().type().consoleTypeString() : ConsoleFormat.render(r.value());
  }

  private static String error(Diagnostics ds) {
    Diagnostic d = ds.asList().stream().filter(Diagnostic::isError).findFirst().orElseThrow();
    return "Error: " + d.summary() + "\n" + d.detail();
  }

  @TestFactory
  Stream<DynamicTest> matchesTerraformConsole() throws IOException {
    FunctionTable table = table();
    return cases().stream().map(c -> DynamicTest.dynamicTest(c.expr(),
        () -> assertThat(run(c.expr(), table)).isEqualTo(normalize(c.expected()))));
  }
}
