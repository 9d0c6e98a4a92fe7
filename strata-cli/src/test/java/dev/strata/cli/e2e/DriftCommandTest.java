package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata drift}: no lock, no state write, exit 0/2/1, text and JSON. */
class DriftCommandTest {
    @TempDir
    Path dir;

    @Test
    void objectChangedOutsideIsReportedWithoutLockingOrWritingTheState() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "local_file" "f" {
                  filename = "${path.module}/out.txt"
                  content  = "hello"
                }
                resource "terraform_data" "t" {
                  input = "x"
                }
                """);
        CliRunner cli = CliRunner.in(dir).width(200);
        assertThat(cli.run("apply", "-auto-approve", "-no-color").exitCode()).isZero();
        CliRunner.Result clean = cli.run("drift", "-no-color");
        assertThat(clean.exitCode()).as(clean.toString()).isZero();
        assertThat(clean.stdout()).isEqualTo("No drift: 2 objects match the state.\n");

        Files.delete(dir.resolve("out.txt"));
        byte[] state = Files.readAllBytes(dir.resolve("terraform.tfstate"));
        // Another process holds the lock: drift does not need it.
        Files.writeString(
                dir.resolve(".terraform.tfstate.lock.info"), "{\"ID\":\"x\",\"Operation\":\"OperationTypeApply\"}");
        CliRunner.Result r = cli.run("drift", "-no-color");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
        assertThat(r.stdout())
                .startsWith("Drift: 1 of 2 objects changed outside Strata.\n")
                .contains("# local_file.f has been deleted");
        CliRunner.Result json = cli.run("drift", "-json");
        assertThat(json.exitCode()).isEqualTo(2);
        assertThat(json.stdout())
                .contains("\"format_version\":\"1.0\"")
                .contains("\"address\":\"local_file.f\"")
                .contains("\"action\":\"delete\"");
        assertThat(Files.readAllBytes(dir.resolve("terraform.tfstate")))
                .as("state unchanged")
                .isEqualTo(state);
        assertThat(dir.resolve("terraform.tfstate.backup")).doesNotExist();
    }

    @Test
    void changeOnTheSimulatorIsReportedPerAttributeAndIgnoredAttributesAreNot() throws Exception {
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
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
                    resource "cloudsim_network" "other" {
                      cidr = "10.30.0.0/16"
                      name = "other"
                    }
                    """.formatted(sim.url()));
            CliRunner cli = CliRunner.in(dir).width(200);
            CliRunner.Result apply = cli.run("apply", "-auto-approve", "-no-color");
            assertThat(apply.exitCode()).as(apply.toString()).isZero();
            byte[] state = Files.readAllBytes(dir.resolve("terraform.tfstate"));
            String id = null;
            for (JsonNode r : new ObjectMapper().readTree(state).get("resources")) {
                if (r.get("name").asText().equals("main")) {
                    id = r.at("/instances/0/attributes/id").asText();
                }
            }
            HttpResponse<String> patch = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(sim.url() + "/v1/networks/" + id))
                                    .header("Content-Type", "application/json")
                                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"name\":\"renamed\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(patch.statusCode()).as(patch.body()).isEqualTo(200);
            Files.writeString(
                    dir.resolve(".terraform.tfstate.lock.info"), "{\"ID\":\"x\",\"Operation\":\"OperationTypeApply\"}");

            CliRunner.Result r = cli.run("drift", "-no-color");
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
            assertThat(r.stdout())
                    .startsWith("Drift: 1 of 2 objects changed outside Strata.\n")
                    .contains("# cloudsim_network.main has changed")
                    .contains("~ name: \"main\" -> \"renamed\"")
                    .doesNotContain("cidr")
                    .doesNotContain("cloudsim_network.other");
            CliRunner.Result ignored = cli.run("drift", "-no-color", "-ignore=cloudsim_network.name");
            assertThat(ignored.exitCode()).as(ignored.toString()).isZero();
            assertThat(ignored.stdout()).startsWith("No drift: 2 objects match the state.");
            assertThat(Files.readAllBytes(dir.resolve("terraform.tfstate")))
                    .as("state unchanged byte for byte")
                    .isEqualTo(state);
            assertThat(dir.resolve("terraform.tfstate.backup")).doesNotExist();
        }
    }

    @Test
    void badFlagsAreErrors() {
        CliRunner cli = CliRunner.in(dir);
        CliRunner.Result r = cli.run("drift", "-ignore=tags", "-watch=10ms");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Invalid -ignore value").contains("Invalid -watch interval");
    }
}
