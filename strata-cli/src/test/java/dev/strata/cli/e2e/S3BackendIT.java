package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.S3Server;
import dev.strata.testing.StrataJar;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code backend "s3"} against one S3 server (S3Proxy on loopback, {@link S3Server}) shared by every test: the
 * real {@code terraform} 1.11 and Strata write and read each other's states and workspaces and exclude each
 * other with the lock object; 16 concurrent {@code strata state mv} lose nothing; {@code kill -9} during an
 * apply is followed by an apply that converges without duplicates. The terraform tests are skipped where
 * terraform is not on the PATH, the process tests where strata.jar is not packaged.
 */
class S3BackendIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String bucket;

    private String backendBlock(String extra) {
        bucket = bucket == null ? S3Server.shared().createBucket("it") : bucket;
        return "terraform {\n" + S3Server.shared().backendBlock(bucket, "use_lockfile = true") + "  " + extra + "\n}\n";
    }

    private CliRunner strata() {
        return CliRunner.in(dir).env(S3Server.credentials());
    }

    private Terraform terraform() {
        Path tf = Terraform.find().orElse(null);
        assumeTrue(tf != null, "terraform is not on the PATH");
        return Terraform.at(tf, dir)
                .mergeStderr()
                .timeout(Duration.ofMinutes(2))
                .env(S3Server.credentials())
                .env("AWS_EC2_METADATA_DISABLED", "true")
                // Each tool records its backend (with its own fingerprint) in its data directory, as two
                // checkouts of the configuration would; sharing .terraform would make each see the other's
                // record as a changed backend.
                .env("TF_DATA_DIR", ".terraform-tf");
    }

    private static String ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r.stdout();
    }

    @Test
    void terraformWritesStrataReadsPlansNoChangesAndSeesTheSameWorkspaces() throws Exception {
        Files.writeString(dir.resolve("main.tf"), backendBlock("") + """
                resource "terraform_data" "a" {
                  input = terraform.workspace
                }
                output "o" {
                  value = terraform_data.a.output
                }
                """);
        Terraform tf = terraform();
        tf.ok("init", "-input=false", "-no-color");
        tf.ok("apply", "-auto-approve", "-input=false", "-no-color");
        tf.ok("workspace", "new", "-no-color", "staging");
        tf.ok("apply", "-auto-approve", "-input=false", "-no-color");
        tf.ok("workspace", "select", "-no-color", "default");
        assertThat(S3Server.shared().keys(bucket))
                .containsExactly("app/terraform.tfstate", "env:/staging/app/terraform.tfstate");

        ok(strata().run("init", "-input=false", "-no-color"));
        assertThat(ok(strata().run("workspace", "list", "-no-color")))
                .contains("* default")
                .contains("staging");
        assertThat(ok(strata().run("plan", "-no-color"))).contains("No changes.");
        assertThat(ok(strata().env("TF_WORKSPACE", "staging").run("plan", "-no-color")))
                .contains("No changes.");
        assertThat(ok(strata().env("TF_WORKSPACE", "staging").run("output", "-raw", "o")))
                .isEqualTo("staging");
        assertThat(S3Server.shared().keys(bucket))
                .as("reading leaves no lock behind")
                .doesNotContain("app/terraform.tfstate.tflock");
    }

    @Test
    void strataWritesTerraformReadsAndPlansNoChanges() throws Exception {
        Files.writeString(dir.resolve("main.tf"), backendBlock("") + """
                resource "terraform_data" "a" {
                  input = "from-strata-${terraform.workspace}"
                }
                """);
        ok(strata().run("init", "-input=false", "-no-color"));
        ok(strata().run("apply", "-auto-approve", "-no-color"));
        ok(strata().run("workspace", "new", "-no-color", "blue"));
        ok(strata().run("apply", "-auto-approve", "-no-color"));
        ok(strata().run("workspace", "select", "-no-color", "default"));
        assertThat(S3Server.shared().keys(bucket))
                .containsExactly("app/terraform.tfstate", "env:/blue/app/terraform.tfstate");

        Terraform tf = terraform();
        tf.ok("init", "-input=false", "-no-color");
        assertThat(tf.ok("workspace", "list", "-no-color")).contains("blue");
        ProcessResult plan = tf.run("plan", "-detailed-exitcode", "-input=false", "-no-color");
        assertThat(plan.exitCode()).as(plan.stdout()).isZero();
        ProcessResult blue =
                tf.env("TF_WORKSPACE", "blue").run("plan", "-detailed-exitcode", "-input=false", "-no-color");
        assertThat(blue.exitCode()).as(blue.stdout()).isZero();
    }

    @Test
    void eachToolIsRefusedWhileTheOtherHoldsTheLock() throws Exception {
        Files.writeString(dir.resolve("main.tf"), backendBlock("") + """
                resource "terraform_data" "a" {
                  input = "x"
                  provisioner "local-exec" {
                    command = "sleep 5"
                  }
                }
                """);
        Terraform tf = terraform();
        tf.ok("init", "-input=false", "-no-color");
        ok(strata().run("init", "-input=false", "-no-color"));
        Path out = dir.resolve("tf.out");
        Process apply = tf.process("apply", "-auto-approve", "-input=false", "-no-color")
                .redirectOutput(out.toFile())
                .start();
        awaitLock(apply::isAlive, out);
        CliRunner.Result refused = strata().run("apply", "-auto-approve", "-no-color");
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.stderr())
                .contains("Error acquiring the state lock")
                .contains("OperationTypeApply")
                .containsIgnoringWhitespaces("Version: 1.11");
        assertThat(apply.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(apply.exitValue()).as(Files.readString(out)).isZero();

        Files.writeString(dir.resolve("main.tf"), backendBlock("") + """
                resource "terraform_data" "a" {
                  input = "x"
                }
                resource "time_sleep" "s" {
                  create_duration = "4s"
                }
                """);
        CompletableFuture<CliRunner.Result> holding =
                CompletableFuture.supplyAsync(() -> strata().run("apply", "-auto-approve", "-no-color"));
        awaitLock(() -> !holding.isDone(), null);
        ProcessResult rm = tf.run("state", "rm", "-no-color", "terraform_data.a");
        assertThat(rm.exitCode()).as(rm.stdout()).isEqualTo(1);
        assertThat(rm.stdout()).contains("Error acquiring the state lock").contains("OperationTypeApply");
        assertThat(holding.get(60, TimeUnit.SECONDS).exitCode()).isZero();
        assertThat(S3Server.shared().keys(bucket)).doesNotContain("app/terraform.tfstate.tflock");
    }

    private void awaitLock(java.util.function.BooleanSupplier running, Path out) throws Exception {
        for (int i = 0; i < 3000 && running.getAsBoolean(); i++) {
            if (S3Server.shared().keys(bucket).contains("app/terraform.tfstate.tflock")) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the lock object never appeared" + (out == null ? "" : ": " + Files.readString(out)));
    }

    private ProcessBuilder jar(String... args) {
        ProcessBuilder pb = StrataJar.process(
                StrataJar.assumePackaged(), dir, List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), args);
        pb.environment().putAll(S3Server.credentials());
        return pb;
    }

    private JsonNode stateObject() throws IOException {
        return JSON.readTree(S3Server.shared().object(bucket, "app/terraform.tfstate"));
    }

    @Test
    void sixteenConcurrentStateMvLoseNoUpdate() throws Exception {
        StrataJar.assumePackaged();
        int n = 16;
        Files.writeString(dir.resolve("main.tf"), backendBlock("") + """
                resource "terraform_data" "d" {
                  for_each = toset([for i in range(%d) : "r${i}"])
                  input    = each.key
                }
                """.formatted(n));
        ok(strata().run("init", "-input=false", "-no-color"));
        ok(strata().run("apply", "-auto-approve", "-no-color"));
        long serialBefore = stateObject().path("serial").asLong();
        List<Process> ps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ps.add(jar(
                            "state",
                            "mv",
                            "-lock-timeout=300s",
                            "-no-color",
                            "terraform_data.d[\"r" + i + "\"]",
                            "terraform_data.m" + i)
                    .redirectOutput(dir.resolve("mv" + i + ".out").toFile())
                    .redirectErrorStream(true)
                    .start());
        }
        for (int i = 0; i < n; i++) {
            assertThat(ps.get(i).waitFor(300, TimeUnit.SECONDS)).isTrue();
            assertThat(ps.get(i).exitValue())
                    .as(Files.readString(dir.resolve("mv" + i + ".out")))
                    .isZero();
        }
        JsonNode state = stateObject();
        TreeSet<String> names = new TreeSet<>();
        int instances = 0;
        for (JsonNode r : state.path("resources")) {
            names.add(r.path("name").asText());
            instances += r.path("instances").size();
        }
        TreeSet<String> want = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            want.add("m" + i);
        }
        assertThat(names).as("every move kept, none lost").isEqualTo(want);
        assertThat(instances).isEqualTo(n);
        assertThat(state.path("serial").asLong()).isEqualTo(serialBefore + n);
        assertThat(S3Server.shared().keys(bucket)).containsExactly("app/terraform.tfstate");
    }

    @Test
    void killNineDuringAnApplyThenAnApplyConvergesWithoutDuplicates() throws Exception {
        StrataJar.assumePackaged();
        Random rnd = new Random(Long.getLong("strata.crash.seed", System.nanoTime()));
        try (CloudSim sim =
                CloudSim.start(0, dir.resolve("sim-state.json"), new Knobs(0, 0, 0, 10, 0, 2, 3, 0, 1000))) {
            Files.writeString(dir.resolve("main.tf"), backendBlock("""
                    required_providers {
                        cloudsim = { source = "strata/cloudsim" }
                      }""") + """
                    provider "cloudsim" {
                      endpoint  = "%s"
                      client_id = "strata"
                    }
                    resource "cloudsim_bucket" "b" {
                      count = 40
                      name  = "bucket-${count.index}"
                    }
                    """.formatted(sim.url()));
            ok(strata().run("init", "-input=false", "-no-color"));
            for (int run = 0; run < 3; run++) {
                Process p = jar("apply", "-auto-approve", "-no-color")
                        .redirectOutput(dir.resolve("kill.out").toFile())
                        .redirectErrorStream(true)
                        .start();
                Thread.sleep(800 + rnd.nextInt(1500));
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
            Process last = jar("apply", "-auto-approve", "-no-color")
                    .redirectOutput(dir.resolve("last.out").toFile())
                    .redirectErrorStream(true)
                    .start();
            assertThat(last.waitFor(300, TimeUnit.SECONDS)).isTrue();
            assertThat(last.exitValue())
                    .as(Files.readString(dir.resolve("last.out")))
                    .isZero();
            TreeSet<String> inState = new TreeSet<>();
            int count = 0;
            for (JsonNode r : stateObject().path("resources")) {
                for (JsonNode i : r.path("instances")) {
                    inState.add(i.path("attributes").path("id").asText());
                    count++;
                }
            }
            TreeSet<String> inSim = new TreeSet<>();
            HttpResponse<String> list = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(sim.url() + "/v1/buckets"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            JsonNode items = JSON.readTree(list.body());
            for (JsonNode o : items.isArray() ? items : items.path("items")) {
                inSim.add(o.path("id").asText());
            }
            assertThat(inSim).as("no duplicate bucket created").hasSize(40);
            assertThat(inState).isEqualTo(inSim);
            assertThat(count).isEqualTo(40);
            assertThat(S3Server.shared().keys(bucket))
                    .as("journal compacted, lock released")
                    .containsExactly("app/terraform.tfstate");
            assertThat(ok(strata().run("plan", "-detailed-exitcode", "-no-color")))
                    .contains("No changes.");
        }
    }
}
