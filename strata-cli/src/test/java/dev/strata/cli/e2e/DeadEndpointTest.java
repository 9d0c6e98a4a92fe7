package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An endpoint that is down (nothing listening) fails a run in seconds with the endpoint and the reason,
 * instead of being retried like a throttling API for minutes. The bound is generous for a loaded CI
 * machine: before the fix these runs took one to two minutes.
 */
class DeadEndpointTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    /** A loopback port nothing listens on. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void cloudConfig(String url) throws IOException {
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  required_providers {
                    cloudsim = { source = "strata/cloudsim" }
                  }
                }
                provider "cloudsim" {
                  endpoint = "%s"
                }
                resource "cloudsim_network" "main" {
                  cidr = "10.20.0.0/16"
                  name = "main"
                }
                """.formatted(url));
    }

    private record Timed(CliRunner.Result result, Duration took) {}

    private static Timed timed(CliRunner cli, String... args) {
        long t0 = System.nanoTime();
        CliRunner.Result r = cli.run(args);
        return new Timed(r, Duration.ofNanos(System.nanoTime() - t0));
    }

    private static void assertFailsFastNaming(Timed t, String summary, String endpoint, String reason) {
        assertThat(t.result().exitCode()).as(t.result().toString()).isEqualTo(1);
        assertThat(t.took()).as(t.result().toString()).isLessThan(BOUND);
        // Diagnostics are wrapped to the terminal width: compare with the line breaks undone.
        assertThat(t.result().stderr().replaceAll("\\s+", " "))
                .contains("Error: " + summary)
                .contains(endpoint)
                .contains(reason)
                .doesNotContain("Exception")
                .doesNotContain("Retrying");
    }

    @Test
    void applyAgainstASimulatorThatIsNotListeningFailsInSeconds() throws IOException {
        String url = "http://127.0.0.1:" + closedPort();
        cloudConfig(url);
        Timed apply = timed(CliRunner.in(dir), "apply", "-auto-approve", "-no-color");
        assertFailsFastNaming(apply, "Cloud API unreachable", url, "connection refused");
        assertThat(apply.result().stdout()).doesNotContain("Retrying");
    }

    @Test
    void planAndApplyAfterTheSimulatorStoppedFailInSeconds() throws IOException {
        CliRunner cli = CliRunner.in(dir);
        String url;
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            url = sim.url().replaceAll("/+$", "");
            cloudConfig(url);
            CliRunner.Result created = cli.run("apply", "-auto-approve", "-no-color");
            assertThat(created.exitCode()).as(created.toString()).isZero();
        }
        // The refresh of the recorded network reads from the stopped simulator.
        assertFailsFastNaming(timed(cli, "plan", "-no-color"), "Cloud API unreachable", url, "connection refused");
        assertFailsFastNaming(
                timed(cli, "apply", "-auto-approve", "-no-color"), "Cloud API unreachable", url, "connection refused");
    }

    @Test
    void thePgBackendOnAClosedPortFailsInSeconds() throws IOException {
        int port = closedPort();
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  backend "pg" {
                    conn_str = "postgres://strata:secret-password@127.0.0.1:%d/db?sslmode=disable"
                  }
                }
                resource "terraform_data" "a" {}
                """.formatted(port));
        Timed init = timed(CliRunner.in(dir), "init", "-no-color");
        assertFailsFastNaming(
                init, "Failed to prepare the PostgreSQL backend", "127.0.0.1:" + port, "connection refused");
        assertThat(init.result().stderr()).doesNotContain("secret-password");
    }

    @Test
    void thePgBackendOnAHostThatDoesNotResolveFailsInSeconds() throws IOException {
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  backend "pg" {
                    conn_str = "postgres://strata@strata-test.invalid:5432/db?sslmode=disable"
                  }
                }
                """);
        assertFailsFastNaming(
                timed(CliRunner.in(dir), "init", "-no-color"),
                "Failed to prepare the PostgreSQL backend",
                "strata-test.invalid:5432",
                "DNS lookup failed");
    }
}
