package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.testing.StrataJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launches the packaged {@code strata.jar} as its own process, as users do, so that the manifest,
 * the copied libraries, the Logback service file and the real exit code are all tested. Runs in
 * {@code mvn verify} (failsafe, after {@code package}); skipped when the jar has not been built.
 */
class JarIT {
    static Path jar;

    @TempDir
    Path dir;

    @BeforeAll
    static void findJar() {
        jar = StrataJar.assumePackaged();
    }

    record Run(int exitCode, String stdout, String stderr) {}

    private Run strata(Map<String, String> env, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = StrataJar.process(jar, dir, List.of(), args);
        pb.environment().putAll(env);
        Path out = dir.resolve(".out");
        Path err = dir.resolve(".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
        Process p = pb.start();
        p.getOutputStream().close();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("strata finished").isTrue();
        return new Run(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void versionRunsFromThePackagedJar() throws Exception {
        Run r = strata(Map.of(), "version");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).matches("Strata v\\S+\non [a-z0-9]+_[a-z0-9]+\n");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void exitCodesReachTheShell() throws Exception {
        assertThat(strata(Map.of(), "no-such-command").exitCode()).isEqualTo(1);
        assertThat(strata(Map.of(), "-help").exitCode()).isZero();
        assertThat(strata(Map.of()).exitCode()).isEqualTo(127);
        Run missing = strata(Map.of(), "-chdir=missing", "version");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.stderr())
                .isEqualTo("Error handling -chdir option: chdir missing: no such file or directory\n");
    }

    /**
     * Without a locale (no {@code LANG}, as in many containers) the JVM would write its output in ASCII, every
     * other character a "?"; Strata writes UTF-8 whatever the locale, as Terraform does.
     */
    @Test
    void outputIsUtf8WithoutALocale() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "x" {
                  input = "h\u00e9llo \u2713"
                }
                """);
        Map<String, String> noLocale = new java.util.HashMap<>();
        for (String k : List.of("LANG", "LC_ALL", "LC_CTYPE", "LANGUAGE")) {
            noLocale.put(k, "");
        }
        Run plan = strata(noLocale, "plan", "-no-color");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout()).contains("+ input  = \"h\u00e9llo \u2713\"");
        Files.writeString(dir.resolve("main.tf"), """
                locals {
                  s = "h\u00e9llo"
                }
                resource "terraform_data" "x" {
                  input = 1 + local.s
                }
                """);
        Run bad = strata(noLocale, "plan", "-no-color");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(1);
        assertThat(bad.stderr()).contains("\u2502 local.s is \"h\u00e9llo\"");
        // java -jar cannot name a non-ASCII file without a locale: a diagnostic that says how to fix it.
        Files.writeString(dir.resolve("main.tf"), "module \"m\" { source = \"./m\u00f6dule\" }\n");
        Run name = strata(noLocale, "validate", "-no-color");
        assertThat(name.exitCode()).as(name.toString()).isEqualTo(1);
        assertThat(name.stderr())
                .contains("Error: Invalid file name")
                .contains("the file name \"./m\u00f6dule\" cannot be used")
                .contains("LC_ALL=C.UTF-8")
                .doesNotContain("Internal error")
                .doesNotContain("Exception");
    }

    @Test
    void pipedOutputHasNoColour() throws Exception {
        Run r = strata(Map.of(), "version", "-bogus");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Unknown option -bogus").doesNotContain("\u001b[");
    }

    @Test
    void jsonLogLinesShareOneRunIdAndNoLogbackConfigNoise() throws Exception {
        Files.createDirectories(dir.resolve("work"));
        Run r = strata(
                Map.of("STRATA_LOG", "debug", "STRATA_LOG_PATH", "run.log", "STRATA_LOG_FORMAT", "json"),
                "-chdir=work",
                "version",
                "-json");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stderr()).isEmpty();
        ObjectMapper mapper = new ObjectMapper();
        assertThat(mapper.readTree(r.stdout()).get("strata_version").asText()).isNotEmpty();
        List<String> lines = Files.readAllLines(dir.resolve("run.log"));
        assertThat(lines).isNotEmpty();
        String runId = mapper.readTree(lines.get(0)).get("run_id").asText();
        assertThat(runId).matches("[0-9a-f]{12}");
        for (String line : lines) {
            JsonNode n = mapper.readTree(line);
            assertThat(n.get("run_id").asText()).isEqualTo(runId);
            assertThat(n.has("timestamp") && n.has("level") && n.has("logger") && n.has("message") && n.has("thread"))
                    .isTrue();
        }
        Run second = strata(
                Map.of("STRATA_LOG", "debug", "STRATA_LOG_PATH", "run.log", "STRATA_LOG_FORMAT", "json"), "version");
        assertThat(second.exitCode()).isZero();
        List<String> all = Files.readAllLines(dir.resolve("run.log"));
        assertThat(all).hasSizeGreaterThan(lines.size());
        assertThat(mapper.readTree(all.get(all.size() - 1)).get("run_id").asText())
                .isNotEqualTo(runId);
    }

    @Test
    void aSuccessfulSmallCommandSearchesNoServiceAcrossTheClassPath() throws Exception {
        // Each search for a service (SLF4J's providers, Logback's configurators, the System.Logger that
        // Runtime.exit asks for) opens every jar of the class path, a large part of a small command's start.
        Path classes = dir.resolve("classes.log");
        ProcessBuilder pb = StrataJar.process(jar, dir, List.of("-Xlog:class+load=info:file=" + classes), "version");
        pb.redirectOutput(dir.resolve(".out").toFile())
                .redirectError(dir.resolve(".err").toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(Files.readString(dir.resolve(".out"))).startsWith("Strata v");
        assertThat(Files.readString(classes))
                .contains("dev.strata.cli.logging.StrataLogbackProvider")
                .doesNotContain("ch.qos.logback.classic.util.ContextInitializer")
                .doesNotContain("jdk.internal.logger.BootstrapLogger$DetectBackend");
    }

    @Test
    void validateAndConsoleWithoutProvidersLoadNoProvider() throws Exception {
        // The provider registry is a service search over every jar too: a configuration that needs no
        // provider must not pay it.
        Files.writeString(
                dir.resolve("main.tf"),
                "variable \"name\" {\n  default = \"world\"\n}\n\noutput \"greeting\" {\n"
                        + "  value = \"hello, ${var.name}\"\n}\n");
        Files.writeString(dir.resolve("expr.txt"), "upper(var.name)\n");
        for (List<String> command : List.of(List.of("validate"), List.of("console"))) {
            Path classes = dir.resolve("classes-" + command.get(0) + ".log");
            ProcessBuilder pb = StrataJar.process(
                    jar, dir, List.of("-Xlog:class+load=info:file=" + classes), command.toArray(String[]::new));
            pb.redirectInput(dir.resolve("expr.txt").toFile())
                    .redirectOutput(dir.resolve(".out").toFile())
                    .redirectError(dir.resolve(".err").toFile());
            Process p = pb.start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(Files.readString(dir.resolve(".err"))).isZero();
            assertThat(Files.readString(dir.resolve(".out")))
                    .containsAnyOf("Success! The configuration is valid.", "\"WORLD\"");
            assertThat(Files.readString(classes))
                    .doesNotContain("dev.strata.providers.terraform.TerraformProviderFactory");
        }
    }

    @Test
    void theMergedJarRunsAloneFromItsStartupCache() throws Exception {
        // What the launcher runs: strata-all.jar, strata.jar and lib/ merged, with the cache trained on it.
        Path all = jar.resolveSibling("strata-all.jar");
        assumeTrue(Files.isRegularFile(all), "strata-all.jar not built: " + all);
        // A built-in provider: its factory is found through the merged service files.
        Files.writeString(dir.resolve("main.tf"), "resource \"random_id\" \"x\" {\n  byte_length = 4\n}\n");
        Path classes = dir.resolve("classes.log");
        List<String> options = new ArrayList<>(List.of(
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xss1g",
                "--sun-misc-unsafe-memory-access=allow",
                "-Xlog:class+load=info:file=" + classes));
        Path aot = jar.resolveSibling("strata.aot");
        boolean cached = Runtime.version().feature() >= 25 && Files.isRegularFile(aot);
        if (cached) {
            options.add("-XX:AOTCache=" + aot);
        }
        ProcessBuilder pb = StrataJar.process(all, dir, options, "validate");
        pb.redirectOutput(dir.resolve(".out").toFile())
                .redirectError(dir.resolve(".err").toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve(".err"))).isZero();
        assertThat(Files.readString(dir.resolve(".out"))).contains("Success! The configuration is valid.");
        assertThat(Files.readString(dir.resolve(".err"))).isEmpty();
        List<String> loaded = Files.readAllLines(classes);
        // One jar: nothing from lib/ (strata.jar's Class-Path must not have come along into the merged manifest).
        assertThat(loaded).noneMatch(l -> l.contains("/lib/"));
        assertThat(loaded).anyMatch(l -> l.contains("dev.strata.providers.random.RandomProviderFactory"));
        if (cached) {
            // The cache matched the merged jar's class path: the CLI's own classes came from it.
            assertThat(loaded).anyMatch(l -> l.contains(" dev.strata.cli.Main source: shared objects file"));
        }
        Path versionAot = jar.resolveSibling("strata-version.aot");
        if (Runtime.version().feature() >= 25 && Files.isRegularFile(versionAot)) {
            // version's own cache: fewer classes than the shared one, and the same answer.
            List<String> versionOptions = new ArrayList<>(options);
            versionOptions.removeIf(o -> o.startsWith("-XX:AOTCache="));
            versionOptions.add("-XX:AOTCache=" + versionAot);
            Files.delete(classes);
            ProcessBuilder version = StrataJar.process(all, dir, versionOptions, "version");
            version.redirectOutput(dir.resolve(".out").toFile())
                    .redirectError(dir.resolve(".err").toFile());
            Process v = version.start();
            assertThat(v.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(v.exitValue()).as(Files.readString(dir.resolve(".err"))).isZero();
            assertThat(Files.readString(dir.resolve(".out"))).startsWith("Strata v");
            assertThat(Files.readString(dir.resolve(".err"))).isEmpty();
            List<String> versionLoaded = Files.readAllLines(classes);
            assertThat(versionLoaded)
                    .anyMatch(l -> l.contains(" dev.strata.cli.Main source: shared objects file"))
                    .hasSizeLessThan(loaded.size());
        }
        Path runAot = jar.resolveSibling("strata-run.aot");
        if (Runtime.version().feature() >= 25 && Files.isRegularFile(runAot)) {
            // The plan and apply family's cache: a plan starts with the engine's classes loaded from it.
            List<String> runOptions = new ArrayList<>(options);
            runOptions.removeIf(o -> o.startsWith("-XX:AOTCache="));
            runOptions.add("-XX:AOTCache=" + runAot);
            Files.delete(classes);
            ProcessBuilder plan = StrataJar.process(all, dir, runOptions, "plan", "-input=false");
            plan.redirectOutput(dir.resolve(".out").toFile())
                    .redirectError(dir.resolve(".err").toFile());
            Process p2 = plan.start();
            assertThat(p2.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p2.exitValue()).as(Files.readString(dir.resolve(".err"))).isZero();
            assertThat(Files.readString(dir.resolve(".out"))).contains("Plan: 1 to add, 0 to change, 0 to destroy.");
            assertThat(Files.readString(dir.resolve(".err"))).isEmpty();
            assertThat(Files.readAllLines(classes))
                    .anyMatch(l -> l.contains(" dev.strata.cli.Main source: shared objects file"))
                    .anyMatch(l -> l.contains(" dev.strata.engine.Walk source: shared objects file"));
        }
    }

    @Test
    void silentWithoutStrataLog() throws Exception {
        Run r = strata(Map.of(), "version");
        assertThat(r.stderr()).isEmpty();
    }
}
