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
 * The training runs for the JVM's ahead-of-time caches (JEP 483/514/515): the build runs this class under
 * {@code -XX:AOTCacheOutput} once per cache, and the launcher starts each command with the cache trained
 * for its kind. Classes in a cache are loaded at every start, so each cache holds what its commands need
 * and no more:
 *
 * <ul>
 *   <li>{@code strata.aot} (no argument): the commands people start hundreds of times a day (fmt, validate,
 *       console, help) on a small configuration in a scratch folder.
 *   <li>{@code strata-version.aot} ({@code version}): {@code version} alone; it loads 1,260 classes with
 *       it against 2,944 with the shared one, whose rest cost it a fifth of its CPU.
 *   <li>{@code strata-run.aot} ({@code run}): the plan and apply family (plan, apply, destroy, show,
 *       output, state, with a saved plan and {@code -json} variants) on a {@code terraform_data}
 *       configuration of a few hundred instances in and outside a module, against the local state. These
 *       commands load twice the classes of the small ones and run the engine's walks, the journal and the
 *       views thousands of times while the JVM is still cold; the cache has them loaded, linked and their
 *       constant pools resolved. Only generic code is trained (the built-in {@code terraform_data}, the
 *       engine, the local state), never a benchmark's provider.
 * </ul>
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

    /**
     * The configuration of the {@code run} cache: counted and keyed instances, a local module called with
     * for_each, references between instances (so the walks wait on dependencies), functions, and outputs
     * (one sensitive, as real configurations have).
     */
    private static final String RUN_CONFIG = """
            variable "n" {
              type    = number
              default = 150
            }

            variable "prefix" {
              type    = string
              default = "app"
            }

            locals {
              keys = toset([for i in range(8) : format("k%02d", i)])
              tags = { env = "training", owner = upper(var.prefix) }
            }

            resource "terraform_data" "base" {
              input = { name = "${var.prefix}-base", tags = local.tags }
            }

            resource "terraform_data" "item" {
              count = var.n
              input = "${var.prefix}-${count.index}-${terraform_data.base.output.name}"
            }

            resource "terraform_data" "keyed" {
              for_each         = local.keys
              input            = { key = each.key, first = terraform_data.item[0].output }
              triggers_replace = [each.value]
            }

            module "unit" {
              source   = "./modules/unit"
              for_each = local.keys
              key      = each.key
              prefix   = var.prefix
            }

            output "names" {
              value = [for d in terraform_data.item : d.output]
            }

            output "units" {
              value = { for k, m in module.unit : k => m.last }
            }

            output "secret" {
              value     = sha256(terraform_data.base.id)
              sensitive = true
            }
            """;

    private static final String RUN_MODULE = """
            variable "key" {
              type = string
            }

            variable "prefix" {
              type = string
            }

            resource "terraform_data" "r" {
              count = 5
              input = "${var.prefix}-${var.key}-${count.index}"
            }

            resource "terraform_data" "last" {
              input = join(",", terraform_data.r[*].output)
            }

            output "last" {
              value = terraform_data.last.output
            }
            """;

    /**
     * The steps of the {@code run} cache, in the order a user goes: plan, a saved plan shown and applied,
     * the state read back, a plan with no changes, an apply of changes (creates, updates, deletes), plans
     * and applies as JSON, and a destroy.
     */
    private static final List<Step> RUN_STEPS = List.of(
            new Step(List.of("plan", "-input=false"), ""),
            new Step(List.of("plan", "-input=false", "-out=training.tfplan"), ""),
            new Step(List.of("show", "training.tfplan"), ""),
            new Step(List.of("show", "-json", "training.tfplan"), ""),
            new Step(List.of("apply", "-input=false", "training.tfplan"), ""),
            new Step(List.of("show"), ""),
            new Step(List.of("show", "-json"), ""),
            new Step(List.of("output"), ""),
            new Step(List.of("output", "-json"), ""),
            new Step(List.of("output", "-raw", "secret"), ""),
            new Step(List.of("state", "list"), ""),
            new Step(List.of("state", "show", "terraform_data.base"), ""),
            new Step(List.of("plan", "-input=false"), ""),
            new Step(List.of("plan", "-input=false", "-json", "-var", "n=120"), ""),
            new Step(List.of("apply", "-input=false", "-auto-approve", "-var", "n=120", "-var", "prefix=web"), ""),
            new Step(List.of("apply", "-input=false", "-auto-approve", "-json", "-var", "n=180"), ""),
            new Step(List.of("plan", "-input=false", "-destroy"), ""),
            new Step(List.of("destroy", "-input=false", "-auto-approve"), ""));

    /** {@code StartupTraining [version|run]}: the small commands, the version steps or the run steps. */
    public static void main(String[] args) throws IOException {
        String kind = args.length > 0 ? args[0] : "";
        List<Step> steps = switch (kind) {
            case "" -> STEPS;
            case "version" -> VERSION_STEPS;
            case "run" -> RUN_STEPS;
            default -> throw new IllegalArgumentException("unknown training: " + kind);
        };
        // Logging starts as in Main.main, so the cache holds the classes real runs load, not Logback's
        // configuration search.
        StrataLogbackProvider.select();
        Path dir = Files.createTempDirectory("strata-training");
        try {
            if (kind.equals("run")) {
                Files.writeString(dir.resolve("main.tf"), RUN_CONFIG);
                Path module = Files.createDirectories(dir.resolve("modules/unit"));
                Files.writeString(module.resolve("main.tf"), RUN_MODULE);
            } else {
                // Unformatted on purpose: fmt then has work to do.
                Files.writeString(dir.resolve("main.tf"), CONFIG.replace("type    =", "type =  "));
            }
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
