package dev.strata.bench;

import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.Validator;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Loading plus static validation of the shape Terraform 0.14 was reported to take 70 s on: a root
 * module calling one child module with for_each over 500 keys, the child declaring 60 variables and
 * 60 outputs, every instance passing all 60 arguments (P3's target: under 2 s). The {@code calls}
 * shape writes the 500 instances out as 500 separate module blocks of 60 arguments each (30,000
 * argument expressions to check), the worst case for a validator that works per configuration object.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ValidateBenchmark {
    private Path dir;

    @Param({"for_each", "calls"})
    public String shape;

    @Setup(Level.Trial)
    public void generate() throws IOException {
        dir = Files.createTempDirectory("strata-validate-bench");
        StringBuilder child = new StringBuilder();
        StringBuilder inputs = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            child.append("variable \"v").append(i).append("\" { type = string }\n");
            child.append("output \"o")
                    .append(i)
                    .append("\" { value = \"${var.v")
                    .append(i)
                    .append("}-x\" }\n");
            inputs.append("  v").append(i).append(" = \"${each.key}-").append(i).append("\"\n");
        }
        StringBuilder keys = new StringBuilder();
        for (int k = 0; k < 500; k++) {
            keys.append(k == 0 ? "" : ", ").append("\"k").append(k).append('"');
        }
        Files.createDirectories(dir.resolve("m"));
        if (shape.equals("for_each")) {
            Files.writeString(
                    dir.resolve("main.tf"),
                    "module \"m\" {\n  source = \"./m\"\n  for_each = toset([" + keys + "])\n" + inputs
                            + "}\noutput \"all\" { value = { for k, m in module.m : k => m.o59 } }\n");
        } else {
            StringBuilder calls = new StringBuilder();
            for (int k = 0; k < 500; k++) {
                calls.append("module \"m")
                        .append(k)
                        .append("\" {\n  source = \"./m\"\n")
                        .append(inputs.toString().replace("${each.key}", "k" + k))
                        .append("}\n");
            }
            calls.append("output \"last\" { value = module.m499.o59 }\n");
            Files.writeString(dir.resolve("main.tf"), calls);
        }
        Files.writeString(dir.resolve("m/main.tf"), child.toString());
        Diagnostics d = run();
        if (!d.isEmpty()) {
            throw new IllegalStateException("the generated configuration does not validate: " + d);
        }
    }

    @Benchmark
    public Diagnostics loadAndValidate() {
        return run();
    }

    private Diagnostics run() {
        Result<ConfigTree> t = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        return t.diagnostics().with(Validator.validate(t.value()));
    }

    @TearDown(Level.Trial)
    public void remove() {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
