package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
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
 * SIGTERM (CI cancellation, {@code timeout}) and SIGHUP behave like Ctrl-C (issue Q1 item 5): the
 * first stops starting operations, lets running ones finish, persists the state, releases the lock
 * and prints the "interrupted" summary, with exit status 1 as Terraform's; the second exits at once
 * with the lock released. Runs the packaged CLI against the cloud simulator, whose latency makes an
 * apply of 200 objects last a few seconds, so signals land in the middle of it.
 */
class SignalsIT {
    /** Per request; with the default parallelism of 10 an apply of 200 objects takes a couple of seconds. */
    private static final long LATENCY_MS = 40;

    @TempDir
    Path dir;

    private JarRuns cli;

    @BeforeEach
    void jar() {
        cli = JarRuns.in(dir);
    }

    @Test
    void sigtermAndSigintAtRandomMomentsOfA200ObjectApplyAreGracefulAndTheNextApplyConverges() throws Exception {
        int perSignal = Integer.getInteger("strata.signal.runs", 20);
        long seed = Long.getLong("strata.signal.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Map<String, Integer> interrupted = new TreeMap<>(Map.of("INT", 0, "TERM", 0));
        long started = System.nanoTime();
        try (CloudSim sim = CloudSim.start(
                0, dir.resolve("sim-state.json"), new Knobs(0, 0, 0, 10, 0, LATENCY_MS, LATENCY_MS / 2, 0, 1000))) {
            for (int i = 0; i < 2 * perSignal; i++) {
                String signal = (i / 2) % 2 == 0 ? "TERM" : "INT";
                // Every apply is 199 operations (plus the network once): all buckets created, then all destroyed.
                int buckets = i % 2 == 0 ? 199 : 0;
                cli.config(sim.url(), buckets, 0, "");
                String where = "run " + i + " (SIG" + signal + ", seed " + seed + ")";

                long t0 = System.nanoTime();
                Process p = cli.start("apply", "-auto-approve", "-no-color");
                cli.waitForOutput(120_000, ": Creating...", ": Destroying...");
                Thread.sleep(rnd.nextInt(1000));
                JarRuns.signal(p, signal);
                assertThat(p.waitFor(120, TimeUnit.SECONDS))
                        .as(where + ": exited")
                        .isTrue();
                String out = cli.output();
                if (p.exitValue() == 0 && out.contains("Apply complete!")) {
                    continue; // the apply won the race with the signal; nothing to check
                }
                assertThat(p.exitValue()).as(where + "\n" + out).isEqualTo(1);
                assertThat(out)
                        .as(where)
                        .contains("Interrupt received.")
                        .contains("Gracefully shutting down...")
                        .contains("Apply interrupted. Resources: ")
                        .doesNotContain("Two interrupts")
                        .doesNotContain("Exception");
                assertThat(dir.resolve(".terraform.tfstate.lock.info"))
                        .as(where + ": lock released")
                        .doesNotExist();
                interrupted.merge(signal, 1, Integer::sum);

                // The lock is free (no waiting allowed) and the next apply finishes the work exactly once.
                long t1 = System.nanoTime();
                String next = cli.finish(cli.start("apply", "-auto-approve", "-no-color", "-lock-timeout=0s"), 0);
                cli.assertStateMatchesSimulator(sim, buckets, 0, where + "\n" + next);
                System.out.printf(
                        "%s: interrupted apply %d ms, converging apply %d ms%n",
                        where,
                        TimeUnit.NANOSECONDS.toMillis(t1 - t0),
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1));
            }
            cli.finish(cli.start("plan", "-detailed-exitcode", "-no-color"), 0);
        }
        System.out.println("signals: " + interrupted + " interrupted of " + perSignal + " runs each in "
                + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + " s (seed " + seed + ")");
        // Signals come within 1 s of the first operation of a ~2 s apply: nearly every run is interrupted.
        assertThat(interrupted.get("TERM"))
                .as("SIGTERM runs that interrupted an apply")
                .isGreaterThanOrEqualTo(perSignal / 2);
        assertThat(interrupted.get("INT"))
                .as("SIGINT runs that interrupted an apply")
                .isGreaterThanOrEqualTo(perSignal / 2);
    }

    private void sleeps(int count, String duration) throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "time_sleep" "s" {
                  count           = %d
                  create_duration = "%s"
                }
                """.formatted(count, duration));
    }

    @Test
    void sighupIsAFirstCtrlCAndASecondSignalOfAnyKindExitsAtOnceReleasingTheLock() throws Exception {
        sleeps(4, "30s");
        Process p = cli.start("apply", "-auto-approve", "-no-color", "-parallelism=2");
        cli.waitForOutput(60_000, ": Creating...");
        JarRuns.signal(p, "HUP");
        cli.waitForOutput(10_000, "Gracefully shutting down...");
        assertThat(p.isAlive())
                .as("a first signal waits for the running operations")
                .isTrue();
        JarRuns.signal(p, "TERM");
        assertThat(p.waitFor(20, TimeUnit.SECONDS))
                .as("exited without waiting for the 30 s operations")
                .isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(cli.output()).contains("Two interrupts received. Exiting immediately.");
        assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
        cli.finish(cli.start("plan", "-no-color", "-lock-timeout=0s"), 0);
    }

    @Test
    void sigtermDuringPlanningStopsBeforeAnyChange() throws Exception {
        try (CloudSim sim =
                CloudSim.start(0, dir.resolve("sim-state.json"), new Knobs(0, 0, 0, 10, 0, 200, 0, 0, 1000))) {
            cli.config(sim.url(), 40, 0, "");
            cli.finish(cli.start("apply", "-auto-approve", "-no-color", "-parallelism=20"), 0);
            cli.config(sim.url(), 80, 0, "");
            Process p = cli.start("apply", "-auto-approve", "-no-color", "-parallelism=2");
            cli.waitForOutput(60_000, "Refreshing state...");
            JarRuns.signal(p, "TERM");
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String out = cli.output();
            assertThat(p.exitValue()).as(out).isEqualTo(1);
            assertThat(out)
                    .contains("Interrupt received.")
                    .contains("Planning interrupted")
                    .doesNotContain("Creating...");
            assertThat(JarRuns.ids(sim, "buckets")).hasSize(40);
            assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
        }
    }

    /**
     * A signal during {@code init} lets the step in progress (a module download) finish, then stops before the
     * next, saying what it canceled with Terraform's error and exit status; the lock file is not written. A
     * second signal exits at once, even while a download is still in progress.
     */
    @Test
    void aSignalDuringInitStopsAfterTheStepInProgressAndASecondExitsAtOnce() throws Exception {
        java.util.concurrent.atomic.AtomicReference<java.util.concurrent.CountDownLatch> asked =
                new java.util.concurrent.atomic.AtomicReference<>(new java.util.concurrent.CountDownLatch(1));
        java.util.concurrent.atomic.AtomicLong delayMs = new java.util.concurrent.atomic.AtomicLong(2000);
        byte[] zip = zipOf("main.tf", "output \"x\" {\n  value = 1\n}\n");
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        java.util.concurrent.ExecutorService handlers = java.util.concurrent.Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        // The module's archive, after a delay long enough for a signal to land while init waits for it.
        server.createContext("/m.zip", ex -> {
            asked.get().countDown();
            try {
                Thread.sleep(delayMs.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.getResponseHeaders().add("Content-Type", "application/zip");
            ex.sendResponseHeaders(200, zip.length);
            try (var body = ex.getResponseBody()) {
                body.write(zip);
            }
        });
        server.start();
        try {
            Files.writeString(
                    dir.resolve("main.tf"), """
                    module "m" {
                      source = "http://127.0.0.1:%d/m.zip"
                    }
                    resource "random_id" "r" {
                      byte_length = 2
                    }
                    """.formatted(server.getAddress().getPort()));
            Process p = cli.start("init", "-no-color");
            assertThat(asked.get().await(60, TimeUnit.SECONDS))
                    .as("the module was asked for")
                    .isTrue();
            JarRuns.signal(p, "INT");
            String out = cli.finish(p, 1);
            assertThat(out)
                    .contains("Interrupt received.")
                    .contains("Error: Module installation was canceled by an interrupt signal.")
                    .doesNotContain("Initializing provider plugins")
                    .doesNotContain("successfully initialized");
            assertThat(dir.resolve(".terraform.lock.hcl")).doesNotExist();

            // Two signals while the download is still waiting: out at once.
            delayMs.set(60_000);
            asked.set(new java.util.concurrent.CountDownLatch(1));
            Process q = cli.start("init", "-no-color", "-upgrade");
            assertThat(asked.get().await(60, TimeUnit.SECONDS)).isTrue();
            JarRuns.signal(q, "TERM");
            cli.waitForOutput(10_000, "Gracefully shutting down...");
            JarRuns.signal(q, "TERM");
            assertThat(q.waitFor(20, TimeUnit.SECONDS))
                    .as("exited without waiting for the download")
                    .isTrue();
            assertThat(q.exitValue()).isEqualTo(1);
            assertThat(dir.resolve(".terraform.lock.hcl")).doesNotExist();
        } finally {
            server.stop(0);
            handlers.shutdownNow(); // ends the handler still sleeping for the second run
        }
    }

    private static byte[] zipOf(String name, String text) throws java.io.IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        try (var zip = new java.util.zip.ZipOutputStream(bytes)) {
            zip.putNextEntry(new java.util.zip.ZipEntry(name));
            zip.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }
}
