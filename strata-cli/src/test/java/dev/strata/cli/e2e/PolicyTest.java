package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Policy on plans through the CLI: advisory and mandatory policies on create, update, replace and
 * destroy; a failing mandatory policy stops {@code plan -out} from saving and {@code apply} from
 * applying, also for a saved plan checked against a policy added after it was made.
 */
class PolicyTest {
    @TempDir
    Path dir;

    private static final String CONFIG = """
            variable "env" {
              default = "prod"
            }

            variable "web_owner" {
              default = ""
            }

            resource "terraform_data" "web" {
              input = { owner = var.web_owner, name = "web" }
            }

            resource "terraform_data" "db" {
              input            = { owner = "data", name = "db" }
              triggers_replace = [var.env]
            }
            """;

    private static final String OWNER = """
            policy "owner" {
              description    = "Every object names its owner"
              resource_types = ["terraform_data"]
              actions        = ["create", "update"]
              condition      = change.after.input.owner != ""
              error_message  = "${change.address} needs an owner."
            }
            """;

    private CliRunner cli() {
        // wide, so that the messages this test looks for are not wrapped
        return CliRunner.in(dir).width(200);
    }

    private void write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    @Test
    void mandatoryFailureStopsPlanOutAndApply() throws IOException {
        write("main.tf", CONFIG);
        write("policies/owner.policy.hcl", OWNER);
        CliRunner.Result plan = cli().run("plan", "-no-color", "-policy=policies", "-out=tfplan");
        assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(1);
        assertThat(plan.stdout())
                .contains("Plan: 2 to add")
                .contains("Policies: 1 policy, 2 checks, 1 mandatory not passed.");
        assertThat(plan.stderr())
                .contains("Error: Policy \"owner\" failed")
                .contains("on policies/owner.policy.hcl line 5")
                .contains("terraform_data.web (create): terraform_data.web needs an owner.")
                .doesNotContain("terraform_data.db (create)");
        assertThat(dir.resolve("tfplan")).doesNotExist();

        CliRunner.Result apply = cli().run("apply", "-no-color", "-auto-approve", "-policy=policies");
        assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.stdout()).doesNotContain("Creating...");
        assertThat(dir.resolve("terraform.tfstate")).doesNotExist();

        CliRunner.Result fixed =
                cli().run("apply", "-no-color", "-auto-approve", "-policy=policies", "-var=web_owner=web-team");
        assertThat(fixed.exitCode()).as(fixed.toString()).isZero();
        assertThat(fixed.stdout())
                .contains("Policies: 1 policy, 2 checks, all passed.")
                .contains("2 added");
    }

    @Test
    void advisoryFailureWarnsAndApplies() throws IOException {
        write("main.tf", CONFIG);
        // In the root module: read without any flag.
        write(
                "owner.policy.hcl",
                OWNER.replace("policy \"owner\" {", "policy \"owner\" {\n  enforcement = \"advisory\""));
        CliRunner.Result apply = cli().run("apply", "-no-color", "-auto-approve");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(apply.stdout())
                .contains("Warning: Policy \"owner\" failed")
                .contains("The policy is advisory, so the plan may still be applied.")
                .contains("1 advisory not passed")
                .contains("Apply complete! Resources: 2 added");
    }

    /** A saved plan keeps the policies' outcome: show prints it again, and a failed mandatory one is never applied. */
    @Test
    void savedPlanRecordsThePolicyResults() throws Exception {
        write("main.tf", CONFIG);
        write(
                "owner.policy.hcl",
                OWNER.replace("policy \"owner\" {", "policy \"owner\" {\n  enforcement = \"advisory\""));
        CliRunner.Result plan = cli().run("plan", "-no-color", "-out=tfplan");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();

        CliRunner.Result show = cli().run("show", "-no-color", "tfplan");
        assertThat(show.exitCode()).as(show.toString()).isZero();
        assertThat(show.stdout())
                .contains("Plan: 2 to add")
                .contains("Policies: 1 policy, 2 checks, 1 advisory not passed.");
        CliRunner.Result json = cli().run("show", "-json", "tfplan");
        var results = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(json.stdout())
                .path("policy_results");
        assertThat(results.path("applyable").asBoolean()).isTrue();
        assertThat(results.path("results").get(0).path("address").asText()).isEqualTo("terraform_data.web");
        assertThat(results.path("results").get(0).path("enforcement").asText()).isEqualTo("advisory");

        // A plan file recording a failed mandatory policy (plan -out never writes one) is refused as it is.
        var doc = (com.fasterxml.jackson.databind.node.ObjectNode)
                dev.strata.engine.PlanCodec.parse(Files.readAllBytes(dir.resolve("tfplan")));
        ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("policy_results")).put("applyable", false);
        Files.write(dir.resolve("tfplan"), dev.strata.engine.PlanCodec.toBytes(doc));
        Files.delete(dir.resolve("owner.policy.hcl"));
        CliRunner.Result apply = cli().run("apply", "-no-color", "tfplan");
        assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.stderr()).contains("Error: Saved plan failed mandatory policies");
        assertThat(dir.resolve("terraform.tfstate")).doesNotExist();
    }

    @Test
    void savedPlanIsCheckedAgainstThePoliciesAtApplyTime() throws IOException {
        write("main.tf", CONFIG);
        CliRunner.Result plan = cli().run("plan", "-no-color", "-out=tfplan");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        write("later/owner.policy.hcl", OWNER);
        CliRunner.Result apply =
                cli().env("STRATA_POLICY_PATH", dir.resolve("later").toString()).run("apply", "-no-color", "tfplan");
        assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.stderr()).contains("Error: Policy \"owner\" failed");
        assertThat(dir.resolve("terraform.tfstate")).doesNotExist();
        assertThat(Files.list(dir).map(p -> p.getFileName().toString()).toList())
                .as("the lock is released")
                .doesNotContain(".terraform.tfstate.lock.info");
    }

    @Test
    void replaceAndDestroyAreCheckedWithTheirOwnActions() throws IOException {
        write("main.tf", CONFIG);
        CliRunner.Result first = cli().run("apply", "-no-color", "-auto-approve", "-var=web_owner=w");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        byte[] state = Files.readAllBytes(dir.resolve("terraform.tfstate"));
        write("guard/protect.policy.hcl", """
                policy "no_destroy_in_prod" {
                  actions       = ["delete"]
                  condition     = var.env != "prod"
                  error_message = "${change.address} is not destroyed in ${var.env} (${change.action})."
                }
                """);
        // A replacement deletes, so the delete filter sees it.
        CliRunner.Result replace =
                cli().run("plan", "-no-color", "-policy=guard", "-var=web_owner=w", "-replace=terraform_data.db");
        assertThat(replace.exitCode()).as(replace.toString()).isEqualTo(1);
        assertThat(replace.stderr())
                .contains("terraform_data.db (replace): terraform_data.db is not destroyed in prod (replace).");

        CliRunner.Result destroy =
                cli().run("destroy", "-no-color", "-auto-approve", "-policy=guard", "-var=web_owner=w");
        assertThat(destroy.exitCode()).as(destroy.toString()).isEqualTo(1);
        assertThat(destroy.stderr()).contains("terraform_data.web (delete)").contains("terraform_data.db (delete)");
        assertThat(Files.readAllBytes(dir.resolve("terraform.tfstate")))
                .as("nothing destroyed")
                .isEqualTo(state);

        CliRunner.Result dev =
                cli().run("destroy", "-no-color", "-auto-approve", "-policy=guard", "-var=web_owner=w", "-var=env=dev");
        assertThat(dev.exitCode()).as(dev.toString()).isZero();
        assertThat(dev.stdout()).contains("Destroy complete! Resources: 2 destroyed.");
    }

    @Test
    void updateIsCheckedMandatoryStopsItAdvisoryWarns() throws IOException {
        write("main.tf", CONFIG);
        CliRunner.Result first = cli().run("apply", "-no-color", "-auto-approve", "-var=web_owner=w");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        byte[] state = Files.readAllBytes(dir.resolve("terraform.tfstate"));
        write("policies/owner.policy.hcl", OWNER);
        CliRunner.Result update = cli().run("apply", "-no-color", "-auto-approve", "-policy=policies");
        assertThat(update.exitCode()).as(update.toString()).isEqualTo(1);
        assertThat(update.stdout()).contains("Plan: 0 to add, 1 to change, 0 to destroy.");
        assertThat(update.stderr())
                .contains("Error: Policy \"owner\" failed")
                .contains("terraform_data.web (update): terraform_data.web needs an owner.");
        assertThat(Files.readAllBytes(dir.resolve("terraform.tfstate")))
                .as("nothing updated")
                .isEqualTo(state);

        write(
                "policies/owner.policy.hcl",
                OWNER.replace("policy \"owner\" {", "policy \"owner\" {\n  enforcement = \"advisory\""));
        CliRunner.Result advisory = cli().run("apply", "-no-color", "-auto-approve", "-policy=policies");
        assertThat(advisory.exitCode()).as(advisory.toString()).isZero();
        assertThat(advisory.stdout())
                .contains("Warning: Policy \"owner\" failed")
                .contains("terraform_data.web (update)")
                .contains("Apply complete! Resources: 0 added, 1 changed, 0 destroyed.");
    }

    @Test
    void jsonOutputCarriesTheResults() throws IOException {
        write("main.tf", CONFIG);
        write("policies/owner.policy.hcl", OWNER);
        CliRunner.Result plan = cli().run("plan", "-json", "-policy=policies");
        assertThat(plan.exitCode()).isEqualTo(1);
        List<JsonNode> summaries = new ArrayList<>();
        for (String line : plan.stdout().split("\n")) {
            JsonNode n = new ObjectMapper().readTree(line);
            if (n.path("type").asText().equals("policy_summary")) {
                summaries.add(n);
            }
        }
        assertThat(summaries).singleElement().satisfies(n -> {
            assertThat(n.at("/policies/applyable").asBoolean()).isFalse();
            assertThat(n.at("/policies/results/0/address").asText()).isEqualTo("terraform_data.web");
            assertThat(n.at("/policies/results/0/enforcement").asText()).isEqualTo("mandatory");
        });
        assertThat(plan.stdout()).contains("\"summary\":\"Policy \\\"owner\\\" failed\"");
    }

    @Test
    void brokenPolicyIsAnErrorWithItsSourceLine() throws IOException {
        write("main.tf", CONFIG);
        write("policies/bad.policy.hcl", "policy \"x\" {\n  condition = aws_vpc.main.id\n  error_message = \"x\"\n}\n");
        CliRunner.Result plan = cli().run("plan", "-no-color", "-policy=policies");
        assertThat(plan.exitCode()).isEqualTo(1);
        assertThat(plan.stderr())
                .contains("Error: Invalid reference in policy")
                .contains("on policies/bad.policy.hcl line 2")
                .contains("condition = aws_vpc.main.id");
        CliRunner.Result missing = cli().run("plan", "-no-color", "-policy=nowhere");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.stderr()).contains("Error: Policy directory not found");
    }
}
