package dev.strata.cli;

import dev.strata.cli.command.CommandContext;
import dev.strata.cli.logging.RunId;
import dev.strata.cli.logging.StrataLogbackProvider;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The training run for the JVM's ahead-of-time cache (JEP 483/514/515): the build runs this class once
 * under {@code -XX:AOTCacheOutput}, and the launcher starts every command with the cache it wrote. It runs
 * the commands people start hundreds of times a day (version, fmt, validate, console) on a small
 * configuration in a scratch folder, so their classes are loaded, linked and profiled ahead of time.
 *
 * <p>Only small commands are trained: classes in the cache are loaded at every start, so training plan
 * or apply would make the small commands slower for a gain that big runs do not notice. For the same
 * reason {@code version} gets a cache of its own ({@code StartupTraining version}, the launcher's
 * {@code strata-version.aot}): it loads 1,260 classes with it against 2,944 with the shared one, whose rest cost
 * it a fifth of its CPU.
 */
public final class StartupTraining {
    private StartupTraining() {}

    /** The commands run, in order; each entry is the arguments and what is fed on standard input. */
    private record Step(List<String> args, String stdin) {}

    private static final String CONFIG = """
            variable "name" {
              type    = string
              default = "world"
            }

            locals {
              greeting = "hello, ${var.name}"
              parts    = [for p in split(",", "a,b,c") : upper(p)]
            }

            output "greeting" {
              value = local.greeting
            }

            output "parts" {
              value = join("-", local.parts)
            }
            """;

    private static final List<Step> STEPS = List.of(
            new Step(List.of("version"), ""),
            new Step(List.of("-version"), ""),
            new Step(List.of("fmt", "-check", "-diff", "main.tf"), ""),
            new Step(List.of("fmt"), ""),
            new Step(List.of("validate"), ""),
            new Step(List.of("validate", "-json"), ""),
            new Step(List.of("console"), "upper(\"x\")\ncidrsubnets(\"10.0.0.0/16\", 4, 8)\n"),
            new Step(List.of("-help"), ""));

    /** The steps of the {@code version} cache: the command and its global-flag spelling. */
    private static final List<Step> VERSION_STEPS = List.of(STEPS.get(0), STEPS.get(1));

    /** {@code StartupTraining [version]}: every step, or only the version steps. */
    public static void main(String[] args) throws IOException {
        List<Step> steps = args.length > 0 && args[0].equals("version") ? VERSION_STEPS : STEPS;
        // Logging starts as in Main.main, so the cache holds the classes real runs load, not Logback's
        // configuration search.
        StrataLogbackProvider.select();
        Path dir = Files.createTempDirectory("strata-training");
        try {
            // Unformatted on purpose: fmt then has work to do.
            Files.writeString(dir.resolve("main.tf"), CONFIG.replace("type    =", "type =  "));
            int failed = 0;
            for (Step step : steps) {
                // The first fmt rewrites main.tf; the second run sees it formatted, as most runs do.
                int code = Main.run(step.args().toArray(String[]::new), context(dir, step.stdin()));
                boolean expected = code == 0 || (step.args().contains("-check") && code == 3);
                if (!expected) {
                    System.err.println("strata training: '" + String.join(" ", step.args()) + "' exited " + code);
                    failed++;
                }
            }
            // A failed step only makes the cache smaller; the build still has a working CLI.
            if (failed > 0) {
                System.err.println("strata training: " + failed + " step(s) failed; the start-up cache is partial");
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static CommandContext context(Path dir, String stdin) {
        InputStream in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return new CommandContext(dir, in, out, out, false, 80, Map.of(), RunId.generate());
    }
}
