package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import dev.strata.testing.StrataJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9's crash test, through the packaged CLI: the real AWS provider (from the filesystem mirror)
 * manages {@code aws_ssm_parameter}s in the cloud simulator, and its process is killed with
 * {@code kill -9} in the middle of a plan (while it refreshes, slowed by the simulator's latency)
 * and in the middle of an apply (after some creates completed). Strata must exit with status 1
 * within a bounded time, name the provider and say it crashed, leave a valid state that records
 * exactly what the simulator holds, and release the lock, so that the next plan runs without
 * {@code -lock=false} and the next apply converges without duplicates.
 *
 * <p>Skipped without the provider mirror or the packaged CLI ({@code strata.jar}).
 */
class ProviderCrashIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long a crashed run may take to end: generous for a loaded machine, but never a hang. */
    private static final long EXIT_BOUND_SECONDS = 120;

    private static Path jar;

    @TempDir
    Path dir;

    @BeforeAll
    static void prerequisites() {
        AwsOnSimulator.assumeProvider();
        jar = StrataJar.assumePackaged();
    }

    /**
     * One working directory and simulator for both kills (each run of the AWS provider costs tens of
     * seconds): first mid-apply, after some creates completed; then mid-plan, while refreshing the
     * parameters that apply created; then the plan and apply that must still work.
     */
    @Test
    void providerKilledMidApplyAndMidPlan() throws Exception {
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            // The gate is read (one GetParameter) only after every "first" parameter is created and
            // recorded, and every "second" one waits for it: killing the provider during that read
            // leaves no create half done, so what the state should hold is exact.
            AwsOnSimulator.putParameter(sim, AwsOnSimulator.parameter("/crash/gate", "open", "String"));
            config(sim.url(), """
                    resource "aws_ssm_parameter" "first" {
                      count = 3
                      name  = "/crash/first-${count.index}"
                      type  = "String"
                      value = "v${count.index}"
                      tags  = { run = "crash" }
                    }
                    data "aws_ssm_parameter" "gate" {
                      name       = "/crash/gate"
                      depends_on = [aws_ssm_parameter.first]
                    }
                    resource "aws_ssm_parameter" "second" {
                      count = 3
                      name  = "/crash/second-${count.index}"
                      type  = "String"
                      value = "after-${data.aws_ssm_parameter.gate.version}"
                    }
                    """);
            finish(start("init", "-no-color", "-input=false"), 0);

            // Mid-apply. Every SSM request now waits, so the provider is caught inside the gate's read.
            sim.setKnobs(withLatency(sim.knobs(), 1500));
            Process apply = start("apply", "-auto-approve", "-no-color", "-input=false");
            // Each create reads its parameter back once, so the fourth GetParameter is the gate's.
            ProcessHandle plugin = awaitPlugin(apply, () -> sim.ssmRequests().getOrDefault("GetParameter", 0L) >= 4);
            assertThat(sim.ssmParameters().keySet())
                    .as("creates before the kill")
                    .containsExactly("/crash/first-0", "/crash/first-1", "/crash/first-2", "/crash/gate");
            plugin.destroyForcibly();
            assertNamesTheCrash(finish(apply, 1));
            // The state is valid and records exactly the parameters that exist (the gate is not managed).
            assertThat(stateParameters()).containsExactly("/crash/first-0", "/crash/first-1", "/crash/first-2");
            assertThat(managed(sim)).isEqualTo(stateParameters());

            // Mid-plan: killed while refreshing the three parameters (each read waits for the latency).
            byte[] before = Files.readAllBytes(dir.resolve("terraform.tfstate"));
            long requests = total(sim.ssmRequests());
            Process plan = start("plan", "-no-color", "-input=false");
            plugin = awaitPlugin(plan, () -> total(sim.ssmRequests()) > requests);
            plugin.destroyForcibly();
            assertNamesTheCrash(finish(plan, 1));
            // A plan does not write the state: it is byte for byte what the apply left.
            assertThat(Files.readAllBytes(dir.resolve("terraform.tfstate"))).isEqualTo(before);

            // The lock was released each time: a plain plan runs and proposes the rest, and apply converges.
            sim.setKnobs(withLatency(sim.knobs(), 0));
            String again = finish(start("plan", "-detailed-exitcode", "-no-color", "-input=false"), 2);
            assertThat(again).contains("Plan: 3 to add, 0 to change, 0 to destroy.");
            String converged = finish(start("apply", "-auto-approve", "-no-color", "-input=false"), 0);
            assertThat(converged).contains("Apply complete! Resources: 3 added, 0 changed, 0 destroyed.");
            assertThat(stateParameters()).isEqualTo(managed(sim)).hasSize(6);
            // Nothing was written twice: every parameter is at its first version.
            assertThat(sim.ssmParameters().values()).containsOnly(1L);
        }
    }

    /**
     * A second signal ends the command at once, without the JVM's shutdown hooks: the provider plugin, idle
     * while a slow operation of another provider runs, is stopped with the command rather than left running
     * with parent 1 (a plugin busy in a call dies of its broken pipe, an idle one does not).
     */
    @Test
    void aSecondSignalStopsTheProviderPluginWithTheCommand() throws Exception {
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            config(sim.url(), """
                    resource "aws_ssm_parameter" "first" {
                      name  = "/signal/first"
                      type  = "String"
                      value = "v"
                    }
                    resource "time_sleep" "slow" {
                      create_duration = "60s"
                      triggers        = { v = aws_ssm_parameter.first.version }
                    }
                    """);
            finish(start("init", "-no-color", "-input=false"), 0);
            Process apply = start("apply", "-auto-approve", "-no-color", "-input=false");
            awaitOutput(apply, "time_sleep.slow: Creating...");
            ProcessHandle plugin = awaitPlugin(apply, () -> true);
            signal(apply, "TERM");
            awaitOutput(apply, "Gracefully shutting down...");
            assertThat(apply.isAlive())
                    .as("the first signal waits for the operation in flight")
                    .isTrue();
            signal(apply, "TERM");
            String out = finish(apply, 1);
            assertThat(out).contains("Two interrupts received. Exiting immediately.");
            boolean stopped;
            try {
                plugin.onExit().get(10, TimeUnit.SECONDS);
                stopped = true;
            } catch (java.util.concurrent.TimeoutException e) {
                plugin.destroyForcibly(); // not left behind by a failing run
                stopped = false;
            }
            assertThat(stopped)
                    .as("plugin %d stopped with the command", plugin.pid())
                    .isTrue();
            assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
        }
    }

    private static void signal(Process p, String name) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(p.pid()))
                        .start()
                        .waitFor())
                .isZero();
    }

    private void awaitOutput(Process strata, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EXIT_BOUND_SECONDS);
        while (!Files.readString(dir.resolve(".err"), StandardCharsets.UTF_8).contains(text)
                && !Files.readString(dir.resolve(".out"), StandardCharsets.UTF_8)
                        .contains(text)) {
            assertThat(strata.isAlive())
                    .as("still running, waiting for \"%s\"", text)
                    .isTrue();
            assertThat(System.nanoTime()).as("waiting for \"%s\"", text).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    /** The parameters in the simulator that the configuration manages (all but the gate). */
    private static java.util.Set<String> managed(CloudSim sim) {
        java.util.Set<String> out = new java.util.TreeSet<>(sim.ssmParameters().keySet());
        out.remove("/crash/gate");
        return out;
    }

    // ---- helpers ------------------------------------------------------------------------------------

    /** One error (not one per parameter) names the provider, says it crashed and how; no trace logging. */
    private static void assertNamesTheCrash(String out) {
        String text = out.replaceAll("\\s+", " ");
        assertThat(text)
                .contains("Error: Plugin did not respond")
                .contains("The provider " + AwsOnSimulator.AWS + " crashed")
                .contains("exited with status 137, that is, it was killed by signal 9 (SIGKILL)");
        assertThat(text.split("Error: Plugin did not respond", -1)).as(out).hasSize(2);
        assertThat(out).doesNotContain("\"@level\":\"trace\"");
    }

    private static Knobs withLatency(Knobs k, long ms) {
        return new Knobs(
                k.consistencyDelayMs(),
                k.provisionDelayMs(),
                k.ratePerSecond(),
                k.burst(),
                k.faultRate(),
                ms,
                k.latencyJitterMs(),
                k.timeoutRate(),
                k.timeoutMs());
    }

    private static long total(SortedMap<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private void config(String url, String resources) throws IOException {
        AwsOnSimulator.cliConfig(dir.resolve("cli.tfrc"));
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "~> 5.0" }
                  }
                }
                provider "aws" {
                  region                      = "us-east-1"
                  access_key                  = "mock"
                  secret_key                  = "mock"
                  skip_credentials_validation = true
                  skip_requesting_account_id  = true
                  skip_metadata_api_check     = true
                  max_retries                 = 1
                  endpoints {
                    ssm = "%s"
                  }
                }
                """.formatted(url) + resources);
    }

    private Process start(String... args) throws IOException {
        ProcessBuilder pb = StrataJar.process(jar, dir, List.of(), args);
        pb.environment().keySet().removeIf(k -> k.startsWith("TF_"));
        pb.environment().put("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString());
        pb.redirectOutput(dir.resolve(".out").toFile())
                .redirectError(dir.resolve(".err").toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        return p;
    }

    /** Waits (boundedly) for the run to end with {@code expectedExit}; returns its stdout and stderr. */
    private String finish(Process p, int expectedExit) throws Exception {
        boolean ended = p.waitFor(EXIT_BOUND_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        String out = Files.readString(dir.resolve(".out"), StandardCharsets.UTF_8) + "\n--- stderr\n"
                + Files.readString(dir.resolve(".err"), StandardCharsets.UTF_8);
        assertThat(ended)
                .as("strata ended within " + EXIT_BOUND_SECONDS + " s\n" + out)
                .isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(expectedExit);
        return out;
    }

    /** The AWS plugin started by {@code strata}, once {@code ready} holds; fails if the run ends first. */
    private static ProcessHandle awaitPlugin(Process strata, BooleanSupplier ready) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EXIT_BOUND_SECONDS);
        while (System.nanoTime() < deadline && strata.isAlive()) {
            Optional<ProcessHandle> plugin = strata.descendants()
                    .filter(h -> h.info().command().orElse("").contains("terraform-provider-aws"))
                    .findFirst();
            if (plugin.isPresent() && ready.getAsBoolean()) {
                return plugin.get();
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the provider was not caught mid-call (strata "
                + (strata.isAlive() ? "still running" : "exited with " + strata.exitValue()) + ")");
    }

    /** The names of the SSM parameters the state file records. */
    private java.util.Set<String> stateParameters() throws IOException {
        JsonNode s = JSON.readTree(dir.resolve("terraform.tfstate").toFile());
        assertThat(s.path("version").asInt()).isEqualTo(4);
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (JsonNode r : s.path("resources")) {
            if (r.path("mode").asText().equals("managed")
                    && r.path("type").asText().equals("aws_ssm_parameter")) {
                for (JsonNode i : r.path("instances")) {
                    assertThat(out.add(i.path("attributes").path("name").asText()))
                            .as("recorded once")
                            .isTrue();
                }
            }
        }
        return out;
    }
}
