package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The P7 acceptance tests that need real processes: {@code kill -9} of the packaged CLI at random
 * moments of an apply against the cloud simulator, each followed by a normal apply, must leave every
 * simulator object in state exactly once; and an apply of 500 objects against a simulator limited
 * to 50 requests per second must finish without failures and without a retry storm.
 */
class CrashAndThrottleIT {
    @TempDir
    Path dir;

    private JarRuns cli;

    @BeforeEach
    void jar() {
        cli = JarRuns.in(dir);
    }

    private Process start(String... args) throws IOException {
        return cli.start(args);
    }

    private String finish(Process p, int expectedExit) throws Exception {
        return cli.finish(p, expectedExit);
    }

    private void config(String url, int buckets, int subnets) throws IOException {
        cli.config(url, buckets, subnets, "");
    }

    @Test
    void killNineAtRandomMomentsLosesNothingAndDuplicatesNothing() throws Exception {
        int runs = Integer.getInteger("strata.crash.runs", 50);
        long seed = Long.getLong("strata.crash.seed", System.nanoTime());
        Random rnd = new Random(seed);
        try (CloudSim sim =
                CloudSim.start(0, dir.resolve("sim-state.json"), new Knobs(0, 0, 0, 10, 0, 2, 3, 0, 1000))) {
            for (int i = 0; i < runs; i++) {
                // Alternate between two sizes so that runs both create and destroy.
                int buckets = i % 2 == 0 ? 90 : 45;
                int subnets = i % 2 == 0 ? 9 : 4;
                config(sim.url(), buckets, subnets);
                Process p = start("apply", "-auto-approve", "-no-color");
                Thread.sleep(rnd.nextInt(2500));
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                String out = finish(start("apply", "-auto-approve", "-no-color"), 0);
                cli.assertStateMatchesSimulator(sim, buckets, subnets, "run " + i + " (seed " + seed + ")\n" + out);
            }
            finish(start("plan", "-detailed-exitcode", "-no-color"), 0);
        }
    }

    @Test
    void throttledTo50PerSecondFiveHundredObjectsCompleteWithoutARetryStorm() throws Exception {
        try (CloudSim sim =
                CloudSim.start(0, dir.resolve("sim-state.json"), new Knobs(0, 0, 50, 50, 0, 0, 0, 0, 1000))) {
            // The provider's own retries are off: every 429 reaches the engine's adaptive limiter.
            cli.config(sim.url(), 499, 0, "max_retries = 0");
            long t0 = System.nanoTime();
            String out = finish(start("apply", "-auto-approve", "-no-color", "-parallelism=20"), 0);
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(out).contains("Apply complete! Resources: 500 added, 0 changed, 0 destroyed.");
            JsonNode counters = JarRuns.get(sim.url() + "/admin/counters");
            long throttled = counters.path("throttled").asLong();
            long requests = 0;
            for (JsonNode n : counters.path("requests")) {
                requests += n.asLong();
            }
            Map<String, Object> report = new TreeMap<>();
            report.put("requests", requests);
            report.put("throttled", throttled);
            report.put("seconds", seconds);
            System.out.println("throttling: " + report);
            // A retry storm shows as many more 429s than successful requests; staying near the limit keeps
            // the rejected share small.
            assertThat(throttled).as(report.toString()).isLessThan(requests / 2);
            assertThat(JarRuns.ids(sim, "buckets")).hasSize(499);
        }
    }

    private void sleeps(int count, String duration) throws IOException {
        Files.writeString(dir.resolve("main.tf"), """
                resource "time_sleep" "s" {
                  count           = %d
                  create_duration = "%s"
                }
                """.formatted(count, duration));
    }

    private static void interrupt(Process p) throws Exception {
        JarRuns.signal(p, "INT");
    }

    private void waitForOutput(String text, long timeoutMs) throws Exception {
        cli.waitForOutput(timeoutMs, text);
    }

    @Test
    void firstCtrlCFinishesRunningOperationsSavesStateAndReleasesTheLock() throws Exception {
        sleeps(6, "2s");
        Process p = start("apply", "-auto-approve", "-no-color", "-parallelism=2");
        waitForOutput(": Creating...", 60_000);
        Thread.sleep(500);
        interrupt(p);
        String out = finish(p, 1);
        assertThat(out).contains("Interrupt received.").contains("Apply interrupted.");
        JsonNode state = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("terraform.tfstate").toFile());
        int saved = state.path("resources").isEmpty()
                ? 0
                : state.path("resources").get(0).path("instances").size();
        assertThat(saved).as(out).isBetween(1, 5);
        // The lock is free: a plan that waits for no lock at all succeeds, and finishes the rest.
        String plan = finish(start("plan", "-detailed-exitcode", "-no-color", "-lock-timeout=0s"), 2);
        assertThat(plan).contains((6 - saved) + " to add");
    }

    @Test
    void secondCtrlCExitsAtOnceKeepingWhatCompleted() throws Exception {
        sleeps(4, "30s");
        Process p = start("apply", "-auto-approve", "-no-color", "-parallelism=2");
        waitForOutput(": Creating...", 60_000);
        interrupt(p);
        Thread.sleep(300);
        interrupt(p);
        assertThat(p.waitFor(20, TimeUnit.SECONDS))
                .as("exited without waiting for the 30 s operations")
                .isTrue();
        String err = Files.readString(dir.resolve(".err"));
        assertThat(err).contains("Two interrupts received.");
        // The lock died with the process; the next run takes it over and plans the sleeps again.
        finish(start("plan", "-no-color", "-lock-timeout=5s"), 0);
    }
}
