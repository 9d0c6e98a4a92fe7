package dev.strata.bench;

import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Expression evaluation over a representative mix, each over 1,000 elements: a for expression
 * building objects with templates, merge of 1,000 single-key maps, flatten of nested lists, and a
 * splat with a join. Parsing happens once in setup; only evaluation is measured.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EvalBenchmark {
    @Param({
        "{ for i in range(1000) : \"key-${i}\" => { name = \"svc-${i}\", port = 8000 + i, tags = upper(\"t${i % 7}\") } }",
        "merge([for i in range(1000) : { \"k${i}\" = i }]...)",
        "length(flatten([for i in range(100) : [for j in range(10) : [i, j]]]))",
        "join(\",\", [for o in [for i in range(1000) : { id = \"i-${i}\" }] : o.id])",
        "[for i in range(1000) : { id = i }][*].id",
    })
    public String expression;

    private Expr parsed;
    private Evaluator evaluator;

    @Setup(Level.Trial)
    public void setUp() {
        Result<Expr> r =
                NativeSyntax.parseExpression(expression.getBytes(StandardCharsets.UTF_8), "bench", SourcePos.START);
        if (r.hasErrors()) {
            throw new IllegalStateException(r.diagnostics().toString());
        }
        parsed = r.value();
        evaluator = new Evaluator(Scope.empty(TemplateFunctions.builtins(FunctionContext.system(Path.of(".")))));
        Result<Value> check = evaluator.evaluate(parsed);
        if (check.hasErrors()) {
            throw new IllegalStateException(check.diagnostics().toString());
        }
    }

    @Benchmark
    public Value evaluate() {
        return evaluator.evaluate(parsed).value();
    }
}
