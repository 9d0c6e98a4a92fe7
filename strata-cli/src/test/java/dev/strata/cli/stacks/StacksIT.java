package dev.strata.cli.stacks;

import static dev.strata.testing.StackTexts.NAME_MODULE;
import static dev.strata.testing.StackTexts.ONE_DEPLOYMENT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.testing.StrataJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code strata stacks} end to end through the packaged jar, on the bundled example
 * ({@code examples/stacks}: a network and an app per region, three deployments) and small Stacks
 * written per test, with the built-in providers (terraform_data, random).
 */
class StacksIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    static Path jar;

    @TempDir
    Path dir;

    @BeforeAll
    static void findJar() {
        jar = StrataJar.assumePackaged();
    }

    record Run(int exitCode, String stdout, String stderr) {
        List<JsonNode> records() throws IOException {
            List<JsonNode> out = new ArrayList<>();
            for (String l : stdout.split("\n")) {
                if (l.startsWith("{")) {
                    out.add(JSON.readTree(l));
                }
            }
            return out;
        }
    }

    private Run strata(Path in, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = StrataJar.process(jar, in, List.of(), args);
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
        Process p = pb.start();
        p.getOutputStream().close();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("strata finished").isTrue();
        return new Run(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Runs strata, which must succeed. */
    private Run ok(Path in, String... args) throws IOException, InterruptedException {
        Run r = strata(in, args);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    private Path example() throws IOException {
        Path src = Path.of("..", "examples", "stacks").toAbsolutePath().normalize();
        Path to = dir.resolve("stack");
        copy(src, to);
        return to;
    }

    private static void copy(Path src, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.toList()) {
                Path rel = src.relativize(p);
                if (rel.toString().startsWith(".strata")) {
                    continue;
                }
                Path t = to.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

    private static void write(Path f, String text) throws IOException {
        Files.createDirectories(f.getParent());
        Files.writeString(f, text, StandardCharsets.UTF_8);
    }

    private static List<JsonNode> of(List<JsonNode> records, String type, String phase) {
        return records.stream()
                .filter(r -> r.path("type").asText().equals(type)
                        && r.path("phase").asText().equals(phase))
                .toList();
    }

    private static JsonNode deployment(List<JsonNode> records, String phase, String name) {
        return of(records, "deployment", phase).stream()
                .filter(r -> r.path("deployment").asText().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + phase + " record for " + name + " in " + records));
    }

    private List<String> resources(Path stack, String deployment) throws Exception {
        Run show = ok(stack, "stacks", "show", "-json", "-deployment=" + deployment);
        List<String> out = new ArrayList<>();
        JsonNode ci = show.records().getFirst().path("component_instances");
        ci.fieldNames().forEachRemaining(c -> ci.get(c).path("resources").forEach(r -> out.add(c + " " + r.asText())));
        return out;
    }

    @Test
    void exampleDeploymentsApplyThenPlanNothingAndAnInputChangesOnlyItsDeployment() throws Exception {
        Path stack = example();
        Run apply = ok(stack, "stacks", "apply", "-auto-approve", "-json");
        List<JsonNode> records = apply.records();
        for (String d : List.of("dev", "staging", "prod")) {
            JsonNode a = deployment(records, "apply", d);
            assertThat(a.path("failed").asBoolean()).as(d).isFalse();
        }
        // prod configures the random provider once per region: three keys, three networks.
        List<String> prod = resources(stack, "prod");
        assertThat(prod)
                .filteredOn(r -> r.endsWith("random_pet.network"))
                .containsExactly(
                        "component.network[\"ap-south-1\"] random_pet.network",
                        "component.network[\"eu-west-1\"] random_pet.network",
                        "component.network[\"us-east-1\"] random_pet.network");
        assertThat(prod).filteredOn(r -> r.contains("terraform_data.server")).hasSize(6);
        assertThat(resources(stack, "dev")).hasSize(5);

        Run out = ok(stack, "stacks", "output", "-json", "-deployment=staging");
        JsonNode endpoints =
                out.records().getFirst().path("outputs").path("endpoints").path("value");
        assertThat(endpoints.path("us-east-1").asText()).startsWith("https://staging.example.test/");

        Run again = ok(stack, "stacks", "plan", "-json");
        for (String d : List.of("dev", "staging", "prod")) {
            assertThat(deployment(again.records(), "plan", d)
                            .path("changes")
                            .path("total")
                            .asInt())
                    .as(d)
                    .isZero();
        }

        Path deployments = stack.resolve("deployments.tfdeploy.hcl");
        Files.writeString(deployments, Files.readString(deployments).replace("app_instances = 2", "app_instances = 3"));
        Run changed = ok(stack, "stacks", "plan", "-json");
        assertThat(deployment(changed.records(), "plan", "prod")
                        .path("changes")
                        .path("add")
                        .asInt())
                .isEqualTo(3);
        assertThat(deployment(changed.records(), "plan", "dev")
                        .path("changes")
                        .path("total")
                        .asInt())
                .isZero();
        assertThat(deployment(changed.records(), "plan", "staging")
                        .path("changes")
                        .path("total")
                        .asInt())
                .isZero();
    }

    @Test
    void autoApproveRulesApplySomeDeploymentsAndHoldOthers() throws Exception {
        Path stack = example();
        Run apply = strata(stack, "stacks", "apply");
        // prod was held (nobody answered "yes"): as Terraform's cancelled apply, exit status 1.
        assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.stdout())
                .contains("Deployment \"dev\" approved by its auto-approve rules.")
                .contains("Deployment \"staging\" approved by its auto-approve rules.")
                .contains("Deployment \"prod\" is held for approval");
        assertThat(resources(stack, "dev")).isNotEmpty();
        assertThat(resources(stack, "staging")).isNotEmpty();
        assertThat(resources(stack, "prod")).isEmpty();

        // A plan that destroys fails the group's rule: staging (destroy = true) is held too.
        Path deployments = stack.resolve("deployments.tfdeploy.hcl");
        Files.writeString(
                deployments,
                Files.readString(deployments)
                        .replace(
                                "regions     = [\"eu-west-1\", \"us-east-1\"]\n  }",
                                "regions     = [\"eu-west-1\", \"us-east-1\"]\n  }\n  destroy = true"));
        Run destroying = strata(stack, "stacks", "apply", "-deployment=staging");
        assertThat(destroying.exitCode()).as(destroying.toString()).isEqualTo(1);
        assertThat(destroying.stdout())
                .contains("Deployment \"staging\" is held for approval: The plan destroys 10 resources.");
        assertThat(resources(stack, "staging")).hasSize(10);
    }

    @Test
    void removedComponentIsDestroyedWithTheProvidersItNames() throws Exception {
        Path stack = dir.resolve("removed");
        write(stack.resolve("mod/main.tf"), """
                variable "name" {
                  type = string
                }
                resource "terraform_data" "this" {
                  input = var.name
                }
                output "id" {
                  value = terraform_data.this.id
                }
                """);
        String head = """
                provider "terraform" "main" {}
                component "a" {
                  source    = "./mod"
                  inputs    = { name = "a" }
                  providers = { terraform = provider.terraform.main }
                }
                """;
        write(stack.resolve("main.tfcomponent.hcl"), head + """
                component "b" {
                  source    = "./mod"
                  inputs    = { name = component.a.id }
                  providers = { terraform = provider.terraform.main }
                }
                """);
        write(stack.resolve("main.tfdeploy.hcl"), ONE_DEPLOYMENT);
        ok(stack, "stacks", "apply", "-auto-approve");
        assertThat(resources(stack, "one"))
                .containsExactly("component.a terraform_data.this", "component.b terraform_data.this");

        write(stack.resolve("main.tfcomponent.hcl"), head + """
                removed {
                  from      = component.b
                  source    = "./mod"
                  providers = { terraform = provider.terraform.main }
                }
                """);
        Run plan = ok(stack, "stacks", "plan", "-json");
        JsonNode b = of(plan.records(), "component_instance", "plan").stream()
                .filter(r -> r.path("address").asText().equals("component.b"))
                .findFirst()
                .orElseThrow();
        assertThat(b.path("removed").asBoolean()).isTrue();
        assertThat(b.path("changes").path("remove").asInt()).isEqualTo(1);
        ok(stack, "stacks", "apply", "-auto-approve");
        assertThat(resources(stack, "one")).containsExactly("component.a terraform_data.this");

        // Without the removed block, an instance left in state is an error, not a silent destroy.
        write(stack.resolve("main.tfcomponent.hcl"), """
                provider "terraform" "main" {}
                """);
        Run unclaimed = strata(stack, "stacks", "plan");
        assertThat(unclaimed.exitCode()).isEqualTo(1);
        assertThat(unclaimed.stderr()).contains("Unclaimed component instance");
    }

    @Test
    void componentWithUnknownForEachIsDeferredThenApplied() throws Exception {
        Path stack = dir.resolve("deferred");
        write(stack.resolve("src/main.tf"), """
                resource "terraform_data" "names" {
                  input = ["x", "y"]
                }
                output "names" {
                  value = terraform_data.names.output
                }
                """);
        write(stack.resolve("fan/main.tf"), """
                variable "name" {
                  type = string
                }
                resource "terraform_data" "this" {
                  input = var.name
                }
                """);
        write(stack.resolve("main.tfcomponent.hcl"), """
                provider "terraform" "main" {}
                component "src" {
                  source    = "./src"
                  providers = { terraform = provider.terraform.main }
                }
                component "fan" {
                  for_each  = toset(component.src.names)
                  source    = "./fan"
                  inputs    = { name = each.value }
                  providers = { terraform = provider.terraform.main }
                }
                """);
        write(stack.resolve("main.tfdeploy.hcl"), ONE_DEPLOYMENT);
        Run plan = ok(stack, "stacks", "plan", "-json", "-out=saved.plan");
        JsonNode fan = of(plan.records(), "component_instance", "plan").stream()
                .filter(r -> r.path("address").asText().startsWith("component.fan"))
                .findFirst()
                .orElseThrow();
        assertThat(fan.path("deferred").asText()).contains("for_each");
        // The saved plan is applied as it is; the deferred component is planned and applied in the same run.
        ok(stack, "stacks", "apply", "saved.plan");
        assertThat(resources(stack, "one"))
                .containsExactly(
                        "component.fan[\"x\"] terraform_data.this",
                        "component.fan[\"y\"] terraform_data.this",
                        "component.src terraform_data.names");
        Run again = strata(stack, "stacks", "plan", "-json");
        assertThat(deployment(again.records(), "plan", "one")
                        .path("changes")
                        .path("total")
                        .asInt())
                .isZero();
        assertThat(deployment(again.records(), "plan", "one")
                        .path("changes")
                        .path("deferred")
                        .asInt())
                .isZero();
    }

    private static JsonNode instance(List<JsonNode> records, String phase, String address) {
        return of(records, "component_instance", phase).stream()
                .filter(r -> r.path("address").asText().equals(address))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + phase + " record for " + address + " in " + records));
    }

    @Test
    void onlyTheInstanceThatReadsADeferredInstanceIsDeferred() throws Exception {
        Path stack = dir.resolve("per-instance");
        write(stack.resolve("src/main.tf"), """
                resource "terraform_data" "name" {
                  input = "x"
                }
                output "name" {
                  value = terraform_data.name.output
                }
                """);
        write(stack.resolve("fan/main.tf"), """
                variable "name" {
                  type = string
                }
                resource "terraform_data" "this" {
                  input = var.name
                }
                output "name" {
                  value = var.name
                }
                """);
        // fan["b"] gets a provider configuration chosen by a value known only after src is applied, so it
        // is deferred; fan["a"] is not. Of "after", only the instance reading fan["b"] waits with it.
        write(stack.resolve("main.tfcomponent.hcl"), """
                provider "terraform" "main" {}
                provider "terraform" "by_name" {
                  for_each = toset(["x"])
                }
                component "src" {
                  source    = "./src"
                  providers = { terraform = provider.terraform.main }
                }
                component "fan" {
                  for_each  = toset(["a", "b"])
                  source    = "./fan"
                  inputs    = { name = each.key }
                  providers = {
                    terraform = each.key == "a" ? provider.terraform.main : provider.terraform.by_name[component.src.name]
                  }
                }
                component "after" {
                  for_each  = toset(["a", "b"])
                  source    = "./fan"
                  inputs    = { name = "after-${component.fan[each.key].name}" }
                  providers = { terraform = provider.terraform.main }
                }
                """);
        write(stack.resolve("main.tfdeploy.hcl"), ONE_DEPLOYMENT);
        Run plan = ok(stack, "stacks", "plan", "-json", "-out=saved.plan");
        List<JsonNode> records = plan.records();
        assertThat(instance(records, "plan", "component.fan[\"a\"]")
                        .path("changes")
                        .path("add")
                        .asInt())
                .isEqualTo(1);
        assertThat(instance(records, "plan", "component.fan[\"a\"]")
                                .path("deferred")
                                .isMissingNode()
                        || instance(records, "plan", "component.fan[\"a\"]")
                                .path("deferred")
                                .isNull())
                .as(records.toString())
                .isTrue();
        assertThat(instance(records, "plan", "component.fan[\"b\"]")
                        .path("deferred")
                        .asText())
                .contains("provider configuration");
        assertThat(instance(records, "plan", "component.after[\"a\"]")
                        .path("changes")
                        .path("add")
                        .asInt())
                .as(records.toString())
                .isEqualTo(1);
        assertThat(instance(records, "plan", "component.after[\"b\"]")
                        .path("deferred")
                        .asText())
                .isEqualTo("it depends on component.fan[\"b\"], which is deferred");

        ok(stack, "stacks", "apply", "saved.plan");
        assertThat(resources(stack, "one"))
                .containsExactly(
                        "component.after[\"a\"] terraform_data.this",
                        "component.after[\"b\"] terraform_data.this",
                        "component.fan[\"a\"] terraform_data.this",
                        "component.fan[\"b\"] terraform_data.this",
                        "component.src terraform_data.name");
        Run again = ok(stack, "stacks", "plan", "-json");
        JsonNode one = deployment(again.records(), "plan", "one");
        assertThat(one.path("changes").path("total").asInt()).isZero();
        assertThat(one.path("changes").path("deferred").asInt()).isZero();
    }

    @Test
    void embeddedStackAndPublishedOutputsFeedAnotherStack() throws Exception {
        Path upstream = dir.resolve("upstream");
        write(upstream.resolve("mod/main.tf"), NAME_MODULE);
        write(upstream.resolve("child/child.tfcomponent.hcl"), """
                variable "name" {
                  type = string
                }
                provider "terraform" "inner" {}
                component "leaf" {
                  source    = "../mod"
                  inputs    = { name = "leaf-${var.name}" }
                  providers = { terraform = provider.terraform.inner }
                }
                output "leaf" {
                  type  = string
                  value = component.leaf.name
                }
                """);
        write(upstream.resolve("main.tfcomponent.hcl"), """
                stack "child" {
                  source = "./child"
                  inputs = { name = "up" }
                }
                output "leaf" {
                  type  = string
                  value = stack.child.leaf
                }
                """);
        write(upstream.resolve("main.tfdeploy.hcl"), """
                deployment "main" {
                  inputs = {}
                }
                publish_output "leaf" {
                  value = deployment.main.leaf
                }
                """);
        ok(upstream, "stacks", "apply", "-auto-approve");
        assertThat(resources(upstream, "main")).containsExactly("stack.child.component.leaf terraform_data.this");

        Path downstream = dir.resolve("downstream");
        write(downstream.resolve("mod/main.tf"), NAME_MODULE);
        write(downstream.resolve("main.tfcomponent.hcl"), """
                variable "from_upstream" {
                  type = string
                }
                provider "terraform" "main" {}
                component "c" {
                  source    = "./mod"
                  inputs    = { name = "down-${var.from_upstream}" }
                  providers = { terraform = provider.terraform.main }
                }
                output "name" {
                  type  = string
                  value = component.c.name
                }
                """);
        write(downstream.resolve("main.tfdeploy.hcl"), """
                upstream_input "up" {
                  type   = "stack"
                  source = "../upstream"
                }
                deployment "main" {
                  inputs = {
                    from_upstream = upstream_input.up.leaf
                  }
                }
                """);
        ok(downstream, "stacks", "apply", "-auto-approve");
        Run out = strata(downstream, "stacks", "output", "-json");
        assertThat(out.records()
                        .getFirst()
                        .path("outputs")
                        .path("name")
                        .path("value")
                        .asText())
                .isEqualTo("down-leaf-up");
    }

    @Test
    void killedDuringAMultiDeploymentApplyThenApplyConvergesWithoutDuplicates() throws Exception {
        Path stack = example();
        ProcessBuilder pb = StrataJar.process(jar, stack, List.of(), "stacks", "apply", "-auto-approve");
        Path out = dir.resolve("killed.out");
        pb.redirectOutput(out.toFile()).redirectError(dir.resolve("killed.err").toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (p.isAlive() && System.nanoTime() < deadline) {
            String so = Files.readString(out);
            if (so.contains("Applying complete")) {
                break;
            }
            Thread.sleep(20);
        }
        p.destroyForcibly(); // SIGKILL: no shutdown hooks, locks left to the operating system
        p.waitFor(30, TimeUnit.SECONDS);

        ok(stack, "stacks", "apply", "-auto-approve");
        Run again = strata(stack, "stacks", "plan", "-json");
        for (String d : List.of("dev", "staging", "prod")) {
            assertThat(deployment(again.records(), "plan", d)
                            .path("changes")
                            .path("total")
                            .asInt())
                    .as(d)
                    .isZero();
        }
        List<String> prod = resources(stack, "prod");
        assertThat(prod).doesNotHaveDuplicates().hasSize(3 * 4 + 3 * 2);
        assertThat(resources(stack, "staging")).doesNotHaveDuplicates().hasSize(2 * 4 + 2);
    }

    @Test
    void sigtermDuringAnApplyFinishesWhatRunsReleasesTheLocksAndTheNextApplyConverges() throws Exception {
        Path stack = dir.resolve("slow");
        write(stack.resolve("mod/main.tf"), """
                resource "time_sleep" "s" {
                  create_duration = "2s"
                }
                """);
        write(stack.resolve("main.tfcomponent.hcl"), """
                required_providers {
                  time = {
                    source = "hashicorp/time"
                  }
                }
                provider "time" "main" {}
                component "slow" {
                  for_each  = toset(["a", "b", "c"])
                  source    = "./mod"
                  providers = { time = provider.time.main }
                }
                """);
        write(stack.resolve("main.tfdeploy.hcl"), """
                deployment "one" {
                  inputs = {}
                }
                deployment "two" {
                  inputs = {}
                }
                """);
        ProcessBuilder pb =
                StrataJar.process(jar, stack, List.of(), "stacks", "apply", "-auto-approve", "-parallelism=1");
        Path out = dir.resolve("term.out");
        Path err = dir.resolve("term.err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        // Into the first 2 s sleep of each deployment: a component's journal is written as its create starts
        // (an event, not a guess at how long the start-up takes on a loaded machine).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (p.isAlive() && System.nanoTime() < deadline && !(creating(stack, "one") && creating(stack, "two"))) {
            Thread.sleep(20);
        }
        assertThat(p.isAlive())
                .as("still applying when both deployments create\n" + Files.readString(out) + Files.readString(err))
                .isTrue();
        assertThat(creating(stack, "one") && creating(stack, "two"))
                .as("both deployments creating")
                .isTrue();
        assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(p.pid()))
                        .start()
                        .waitFor())
                .isZero();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exited").isTrue();
        String so = Files.readString(out);
        String se = Files.readString(err);
        assertThat(p.exitValue()).as(so + se).isEqualTo(1);
        assertThat(se).contains("Interrupt received.").contains("Gracefully shutting down...");
        // One instance per deployment was running (-parallelism=1): it finished; the others never started.
        assertThat(so)
                .contains("Apply interrupted for \"one\".")
                .contains("Apply interrupted for \"two\".")
                .contains("not started (interrupted)")
                .doesNotContain("Exception");
        try (Stream<Path> s = Files.walk(stack.resolve(".strata/stacks"))) {
            assertThat(s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".lock.info")))
                    .as("every lock released")
                    .isEmpty();
        }
        int applied = resources(stack, "one").size() + resources(stack, "two").size();
        assertThat(applied).as("what ran finished and is recorded").isBetween(1, 5);

        ok(stack, "stacks", "apply", "-auto-approve");
        for (String d : List.of("one", "two")) {
            assertThat(resources(stack, d))
                    .as(d)
                    .containsExactly(
                            "component.slow[\"a\"] time_sleep.s",
                            "component.slow[\"b\"] time_sleep.s",
                            "component.slow[\"c\"] time_sleep.s");
        }
        Run again = ok(stack, "stacks", "plan", "-json");
        for (String d : List.of("one", "two")) {
            assertThat(deployment(again.records(), "plan", d)
                            .path("changes")
                            .path("total")
                            .asInt())
                    .as(d)
                    .isZero();
        }
    }

    /** Whether a component of the deployment has begun a change: its state journal records the intent. */
    private static boolean creating(Path stack, String deployment) throws IOException {
        Path components = stack.resolve(".strata/stacks").resolve(deployment).resolve("components");
        if (!Files.isDirectory(components)) {
            return false;
        }
        try (Stream<Path> s = Files.walk(components)) {
            return s.anyMatch(f -> f.getFileName().toString().equals("terraform.tfstate.journal"));
        } catch (java.io.UncheckedIOException e) {
            return false; // a directory replaced while walking: look again
        }
    }
}
