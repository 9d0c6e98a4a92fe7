package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Modules wired to each other the way published modules are (a queue and its dead-letter queue naming
 * each other's ARN, a topic and a queue subscribing to each other, a local built from one module's
 * outputs, nested modules, {@code for_each}/{@code count} modules, {@code depends_on} on a module, a
 * policy document data source between a module's output and its input): Terraform plans them because
 * its graph has a vertex per module variable and output, and so must Strata, with the same
 * {@code show -json} resource and output changes. Some are then applied (the dependencies recorded
 * in state, which order destruction, match Terraform's) and destroyed (the destroy plan matches,
 * the state ends empty). A real cycle names Terraform's objects. Skipped without {@code terraform};
 * the data-source case also without the AWS provider mirror.
 */
class ModuleWiringDifferentialTest {
    private static final ObjectMapper JSON = AwsExamples.JSON;

    @TempDir
    Path tf;

    @TempDir
    Path st;

    /** A queue-like module: its ARN is known from its name, its other outputs only after apply. */
    private static final String QUEUE = """
            variable "name" { type = string }
            variable "dead_letter_arn" {
              type    = string
              default = null
            }
            resource "terraform_data" "queue" {
              input = { name = var.name, redrive = var.dead_letter_arn }
            }
            output "arn" { value = "arn:aws:sqs:eu-west-1:123456789012:${var.name}" }
            output "id" { value = terraform_data.queue.id }
            output "redrive" { value = terraform_data.queue.output }
            """;

    private static final String TOPIC = """
            variable "name" { type = string }
            variable "endpoints" { type = list(string) }
            resource "terraform_data" "topic" { input = var.name }
            resource "terraform_data" "subscription" {
              count = length(var.endpoints)
              input = { topic = terraform_data.topic.id, endpoint = var.endpoints[count.index] }
            }
            output "arn" { value = terraform_data.topic.id }
            """;

    private static final String SUBSCRIBER = """
            variable "name" { type = string }
            variable "topic_arn" { type = string }
            resource "terraform_data" "queue" { input = var.name }
            resource "terraform_data" "policy" {
              input = { queue = terraform_data.queue.id, source = var.topic_arn }
            }
            output "arn" { value = terraform_data.queue.id }
            """;

    record Case(String name, Map<String, String> files, boolean apply) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case(
                        "queue and dead-letter queue name each other",
                        Map.of("queue/main.tf", QUEUE, "main.tf", """
                        module "main" {
                          source          = "./queue"
                          name            = "orders"
                          dead_letter_arn = module.dlq.arn
                        }
                        module "dlq" {
                          source          = "./queue"
                          name            = "orders-dlq"
                          dead_letter_arn = module.main.arn
                        }
                        output "main" { value = module.main.redrive }
                        output "dlq_arn" { value = module.dlq.arn }
                        """),
                        true),
                new Case(
                        "topic and queue subscribe to each other",
                        Map.of("topic/main.tf", TOPIC, "subscriber/main.tf", SUBSCRIBER, "main.tf", """
                        module "topic" {
                          source    = "./topic"
                          name      = "events"
                          endpoints = [module.queue.arn]
                        }
                        module "queue" {
                          source    = "./subscriber"
                          name      = "events-queue"
                          topic_arn = module.topic.arn
                        }
                        output "topic" { value = module.topic.arn }
                        """),
                        true),
                new Case(
                        "a local built from one module feeds the other",
                        Map.of("queue/main.tf", QUEUE, "main.tf", """
                        locals {
                          sources = { arn = module.a.arn, id = module.a.id }
                        }
                        module "a" {
                          source          = "./queue"
                          name            = "a"
                          dead_letter_arn = module.b.arn
                        }
                        module "b" {
                          source          = "./queue"
                          name            = "b"
                          dead_letter_arn = local.sources.arn
                        }
                        resource "terraform_data" "wiring" { input = local.sources }
                        """),
                        false),
                new Case(
                        "nested modules exchange outputs at two levels",
                        Map.of("queue/main.tf", QUEUE, "pair/main.tf", """
                        variable "prefix" { type = string }
                        variable "upstream" { type = string }
                        module "first" {
                          source          = "../queue"
                          name            = "${var.prefix}-first"
                          dead_letter_arn = module.second.arn
                        }
                        module "second" {
                          source          = "../queue"
                          name            = "${var.prefix}-second"
                          dead_letter_arn = var.upstream
                        }
                        output "arn" { value = module.first.arn }
                        output "ids" { value = [module.first.id, module.second.id] }
                        """, "main.tf", """
                        module "pair" {
                          source   = "./pair"
                          prefix   = "p"
                          upstream = module.side.arn
                        }
                        module "side" {
                          source          = "./queue"
                          name            = "side"
                          dead_letter_arn = module.pair.arn
                        }
                        output "ids" { value = module.pair.ids }
                        """),
                        true),
                new Case("for_each and count modules", Map.of("queue/main.tf", QUEUE, "main.tf", """
                        module "many" {
                          source          = "./queue"
                          for_each        = toset(["x", "y"])
                          name            = each.key
                          dead_letter_arn = module.one[0].arn
                        }
                        module "one" {
                          source          = "./queue"
                          count           = 1
                          name            = "one"
                          dead_letter_arn = module.many["x"].arn
                        }
                        output "arns" { value = { for k, m in module.many : k => m.arn } }
                        """), true),
                new Case(
                        "depends_on a module and the whole module as a value",
                        Map.of("queue/main.tf", QUEUE, "main.tf", """
                        module "a" {
                          source = "./queue"
                          name   = "a"
                        }
                        module "b" {
                          source     = "./queue"
                          name       = "b"
                          depends_on = [module.a]
                        }
                        resource "terraform_data" "all" {
                          input      = module.b
                          depends_on = [module.a]
                        }
                        """),
                        true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plansAsTerraformDoes(Case c) throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        write(c.files());
        Map<String, String> env = Map.of();
        Terraform.at(terraform, tf).env(env).ok("init", "-input=false", "-no-color");
        CliRunner strata = CliRunner.in(st);
        comparePlans(terraform, env, strata);
        if (!c.apply()) {
            return;
        }
        Terraform.at(terraform, tf).env(env).ok("apply", "-auto-approve", "-input=false", "-no-color");
        ok(strata.run("apply", "-auto-approve"));
        assertThat(dependencies(st))
                .as("dependencies recorded in state")
                .isEqualTo(dependencies(tf))
                .isNotEmpty();
        comparePlans(terraform, env, strata, "-destroy");
        ok(strata.run("destroy", "-auto-approve"));
        JsonNode state = JSON.readTree(st.resolve("terraform.tfstate").toFile());
        assertThat(state.path("resources")).as("state after destroy").isEmpty();
    }

    /** A policy document data source reads a module's output and is passed back into it (real AWS provider). */
    @Test
    void dataSourceBetweenAModuleOutputAndItsInput() throws Exception {
        Path terraform = AwsExamples.prerequisites();
        Path cliConfig = AwsExamples.cliConfig(st);
        write(Map.of("bucket/main.tf", """
                variable "name" { type = string }
                variable "policy" { type = string }
                resource "terraform_data" "bucket" { input = var.name }
                resource "terraform_data" "policy" { input = { bucket = terraform_data.bucket.id, policy = var.policy } }
                output "arn" { value = "arn:aws:s3:::${var.name}" }
                output "id" { value = terraform_data.bucket.id }
                """, "main.tf", AwsExamples.OFFLINE_AWS_PROVIDER + """
                data "aws_iam_policy_document" "bucket" {
                  statement {
                    actions   = ["s3:GetObject"]
                    resources = ["${module.bucket.arn}/*"]
                    principals {
                      type        = "AWS"
                      identifiers = ["arn:aws:iam::123456789012:root"]
                    }
                  }
                }
                module "bucket" {
                  source = "./bucket"
                  name   = "logs"
                  policy = data.aws_iam_policy_document.bucket.json
                }
                output "policy" { value = data.aws_iam_policy_document.bucket.json }
                """));
        Map<String, String> env = Map.of("TF_CLI_CONFIG_FILE", cliConfig.toString());
        Terraform.at(terraform, tf).env(env).ok("init", "-input=false", "-no-color");
        CliRunner strata = CliRunner.in(st).env("TF_CLI_CONFIG_FILE", cliConfig.toString());
        ok(strata.run("init"));
        comparePlans(terraform, env, strata);
    }

    /** {@code strata graph} draws the per-variable and per-output vertices (no terraform needed). */
    @Test
    void graphOfModulesFeedingEachOther() throws Exception {
        write(Map.of("queue/main.tf", QUEUE, "main.tf", """
                module "main" {
                  source          = "./queue"
                  name            = "orders"
                  dead_letter_arn = module.dlq.arn
                }
                module "dlq" {
                  source          = "./queue"
                  name            = "orders-dlq"
                  dead_letter_arn = module.main.arn
                }
                """));
        String dot = ok(CliRunner.in(st).run("graph", "-type=plan")).stdout();
        assertThat(dot)
                .startsWith("digraph")
                .contains("\"module.main.var.dead_letter_arn\" -> \"module.dlq.output.arn\"")
                .contains("\"module.dlq.var.dead_letter_arn\" -> \"module.main.output.arn\"");
    }

    /**
     * {@code graph} without {@code -type} summarises as Terraform's does: the resources only (data sources, nested
     * modules in clusters of their own), each pointing to the nearest resources it depends on through variables,
     * locals, outputs and {@code depends_on} on a module, transitively reduced; an empty configuration says so.
     */
    @Test
    void theDefaultGraphIsTerraformsSummaryOfResources() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        write(Map.of(
                "q/main.tf", """
                variable "v" {}
                resource "terraform_data" "x" {
                  input = var.v
                }
                resource "terraform_data" "y" {
                  input = terraform_data.x.output
                }
                output "out" { value = terraform_data.y.output }
                """,
                "outer/main.tf", """
                module "inner" {
                  source = "../q"
                  v      = "x"
                }
                resource "terraform_data" "o" {
                  input = module.inner.out
                }
                """,
                "main.tf", """
                resource "terraform_data" "a" {
                  input = "x"
                }
                locals {
                  l = terraform_data.a.output
                }
                resource "terraform_data" "b" {
                  input = local.l
                }
                resource "terraform_data" "e" {
                  input = [terraform_data.a.output, terraform_data.b.output]
                }
                module "m" {
                  source = "./q"
                  v      = terraform_data.b.output
                }
                module "n" {
                  source = "./q"
                  count  = 2
                  v      = "q"
                }
                resource "terraform_data" "c" {
                  input = [module.m.out, module.n[0].out]
                }
                data "terraform_remote_state" "rs" {
                  backend = "local"
                  config  = { path = "x.tfstate" }
                }
                resource "terraform_data" "d" {
                  input      = data.terraform_remote_state.rs.outputs
                  depends_on = [terraform_data.a, module.outer]
                }
                module "outer" {
                  source = "./outer"
                }
                """));
        Map<String, String> env = Map.of();
        Terraform.at(terraform, tf).env(env).ok("init", "-input=false", "-no-color");
        ok(CliRunner.in(st).run("init", "-no-color"));
        String theirs = Terraform.at(terraform, tf).env(env).ok("graph");
        assertThat(ok(CliRunner.in(st).run("graph")).stdout()).isEqualTo(theirs);

        for (Path d : List.of(tf, st)) {
            Files.writeString(d.resolve("main.tf"), "variable \"x\" {}\n");
        }
        assertThat(ok(CliRunner.in(st).run("graph")).stdout())
                .isEqualTo(Terraform.at(terraform, tf)
                        .env(env)
                        .ok("graph")
                        // The comment's end aligned as Terraform aligns it, under a command name 3 letters shorter.
                        .replace("terraform graph", "strata graph")
                        .replace("resources.         */", "resources.      */"));
    }

    /** A cycle Terraform reports too: both modules feed back the output that uses their input. */
    @Test
    void realCycleNamesTerraformsObjects() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        write(Map.of("queue/main.tf", QUEUE, "main.tf", """
                module "a" {
                  source          = "./queue"
                  name            = "a"
                  dead_letter_arn = module.b.redrive.name
                }
                module "b" {
                  source          = "./queue"
                  name            = "b"
                  dead_letter_arn = module.a.id
                }
                """));
        Map<String, String> env = Map.of();
        Terraform.at(terraform, tf).env(env).ok("init", "-input=false", "-no-color");
        ProcessResult theirs = Terraform.at(terraform, tf).env(env).run("plan", "-input=false", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("plan");
        assertThat(theirs.exitCode()).isEqualTo(1);
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(1);
        Set<String> expected = cycleObjects(theirs.stderr());
        assertThat(expected).contains("module.a.var.dead_letter_arn (expand)", "module.b.output.redrive (expand)");
        assertThat(cycleObjects(ours.stderr())).isEqualTo(expected);
    }

    private static Set<String> cycleObjects(String stderr) {
        Matcher m = Pattern.compile("Error: Cycle: (.*)").matcher(stderr);
        assertThat(m.find()).as(stderr).isTrue();
        return new TreeSet<>(List.of(m.group(1).strip().split(", ")));
    }

    private void write(Map<String, String> files) throws Exception {
        for (Path dir : List.of(tf, st)) {
            for (var f : files.entrySet()) {
                Path p = dir.resolve(f.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.getValue());
            }
        }
    }

    private void comparePlans(Path terraform, Map<String, String> env, CliRunner strata, String... mode)
            throws Exception {
        List<String> tfPlan = new java.util.ArrayList<>(List.of("plan", "-out=tf.plan", "-input=false", "-no-color"));
        List<String> stPlan = new java.util.ArrayList<>(List.of("plan", "-out=st.plan"));
        tfPlan.addAll(List.of(mode));
        stPlan.addAll(List.of(mode));
        Terraform.at(terraform, tf).env(env).ok(tfPlan.toArray(String[]::new));
        JsonNode theirs = JSON.readTree(Terraform.at(terraform, tf).env(env).ok("show", "-json", "tf.plan"));
        ok(strata.run(stPlan.toArray(String[]::new)));
        JsonNode ours = JSON.readTree(ok(strata.run("show", "-json", "st.plan")).stdout());
        assertThat(theirs.path("resource_changes"))
                .as("terraform plans changes")
                .isNotEmpty();
        assertThat(PlanJsonDifferentialTest.changes(ours, List.of()))
                .as("resource_changes")
                .isEqualTo(PlanJsonDifferentialTest.changes(theirs, List.of()));
        assertThat(PlanJsonDifferentialTest.outputs(ours))
                .as("output_changes")
                .isEqualTo(PlanJsonDifferentialTest.outputs(theirs));
    }

    /** Each resource instance's recorded dependencies in a state file, by address. */
    private static SortedMap<String, Set<String>> dependencies(Path dir) throws Exception {
        SortedMap<String, Set<String>> out = new TreeMap<>();
        JsonNode state = JSON.readTree(dir.resolve("terraform.tfstate").toFile());
        for (JsonNode r : state.path("resources")) {
            String addr = (r.has("module") ? r.path("module").asText() + "." : "")
                    + r.path("type").asText() + "." + r.path("name").asText();
            for (JsonNode i : r.path("instances")) {
                Set<String> deps = new TreeSet<>();
                i.path("dependencies").forEach(d -> deps.add(d.asText()));
                out.put(addr + (i.has("index_key") ? "[" + i.path("index_key") + "]" : ""), deps);
            }
        }
        return out;
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }
}
