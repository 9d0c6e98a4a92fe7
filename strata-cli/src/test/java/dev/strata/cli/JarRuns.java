package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cloudsim.CloudSim;
import dev.strata.testing.StrataJar;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The packaged CLI run as a real process in one directory, against the cloud simulator: what the
 * process-level ITs (kill -9, signals, throttling) share. Output goes to {@code .out} and {@code .err}
 * in the directory, so a test can watch it while the process runs.
 */
final class JarRuns {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Path jar;
    private final Path dir;

    private JarRuns(Path jar, Path dir) {
        this.jar = jar;
        this.dir = dir;
    }

    /** Runs in {@code dir}; skips the test when the jar was not packaged. */
    static JarRuns in(Path dir) {
        return new JarRuns(StrataJar.assumePackaged(), dir);
    }

    Path dir() {
        return dir;
    }

    Process start(String... args) throws IOException {
        // The launcher's start-up settings: these short runs are dominated by JVM start and warm-up.
        ProcessBuilder pb = StrataJar.process(
                jar, dir, List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"), args);
        pb.redirectOutput(dir.resolve(".out").toFile())
                .redirectError(dir.resolve(".err").toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        return p;
    }

    /** Waits for the process and checks its exit code; returns stdout and stderr. */
    String finish(Process p, int expectedExit) throws Exception {
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("strata finished").isTrue();
        String out = output();
        assertThat(p.exitValue()).as(out).isEqualTo(expectedExit);
        return out;
    }

    /** What the last process printed so far: stdout, then stderr. */
    String output() throws IOException {
        return read(".out") + "\n--- stderr\n" + read(".err");
    }

    private String read(String name) throws IOException {
        Path f = dir.resolve(name);
        return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8) : "";
    }

    /** Waits until the running process has printed one of {@code texts} (on stdout or stderr). */
    void waitForOutput(long timeoutMs, String... texts) throws Exception {
        long end = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < end) {
            String out = output();
            for (String t : texts) {
                if (out.contains(t)) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("none of " + List.of(texts) + " in time:\n" + output());
    }

    /** Sends a signal by name (INT, TERM, HUP) to the process. */
    static void signal(Process p, String name) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(p.pid()))
                        .start()
                        .waitFor())
                .isZero();
    }

    static JsonNode get(String url) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("X-Client-Id", "test")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    /** A network with {@code subnets} subnets and {@code buckets} buckets in the simulator at {@code url}. */
    void config(String url, int buckets, int subnets, String providerExtra) throws IOException {
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  required_providers {
                    cloudsim = { source = "strata/cloudsim" }
                  }
                }
                provider "cloudsim" {
                  endpoint  = "%s"
                  client_id = "strata"
                  %s
                }
                resource "cloudsim_network" "main" {
                  cidr = "10.0.0.0/16"
                  name = "main"
                }
                resource "cloudsim_subnet" "s" {
                  count      = %d
                  network_id = cloudsim_network.main.id
                  cidr       = cidrsubnet("10.0.0.0/16", 8, count.index)
                }
                resource "cloudsim_bucket" "b" {
                  count = %d
                  name  = "bucket-${count.index}"
                }
                """.formatted(url, providerExtra, subnets, buckets));
    }

    /** Objects of a kind in the simulator, by id. */
    static TreeSet<String> ids(CloudSim sim, String kind) throws Exception {
        TreeSet<String> out = new TreeSet<>();
        JsonNode list = get(sim.url() + "/v1/" + kind);
        JsonNode items = list.isArray() ? list : list.path("items");
        for (JsonNode o : items) {
            out.add(o.path("id").asText());
        }
        return out;
    }

    /** Ids of a resource type in the state file. */
    TreeSet<String> stateIds(String type) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        JsonNode s = JSON.readTree(dir.resolve("terraform.tfstate").toFile());
        for (JsonNode r : s.path("resources")) {
            if (r.path("type").asText().equals(type)) {
                for (JsonNode i : r.path("instances")) {
                    out.add(i.path("attributes").path("id").asText());
                }
            }
        }
        return out;
    }

    /** Every simulator object is in the state exactly once and nothing else is: no duplicate, nothing lost. */
    void assertStateMatchesSimulator(CloudSim sim, int buckets, int subnets, String where) throws Exception {
        assertThat(stateIds("cloudsim_bucket")).as(where).isEqualTo(ids(sim, "buckets"));
        assertThat(stateIds("cloudsim_subnet")).as(where).isEqualTo(ids(sim, "subnets"));
        assertThat(stateIds("cloudsim_network")).as(where).isEqualTo(ids(sim, "networks"));
        assertThat(ids(sim, "buckets")).as(where).hasSize(buckets);
        assertThat(ids(sim, "subnets")).as(where).hasSize(subnets);
    }
}
