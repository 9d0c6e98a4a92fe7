package dev.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static final String PLAN = """
            {
              "variables": {"env": {"value": "prod"}, "token": {"value": "s3cr3t"}},
              "configuration": {"root_module": {"variables": {"env": {}, "token": {"sensitive": true}}}},
              "resource_changes": [
                {"address": "aws_instance.web", "mode": "managed", "type": "aws_instance", "name": "web",
                 "provider_name": "registry.terraform.io/hashicorp/aws",
                 "change": {"actions": ["create"], "before": null,
                            "after": {"tags": {"Name": "web"}, "ami": "ami-1"},
                            "after_unknown": {"id": true}, "after_sensitive": {}}},
                {"address": "aws_instance.db", "mode": "managed", "type": "aws_instance", "name": "db",
                 "provider_name": "registry.terraform.io/hashicorp/aws",
                 "change": {"actions": ["create"], "before": null,
                            "after": {"tags": {"Name": "db", "owner": "data-team"}, "ami": "ami-1"},
                            "after_unknown": {"id": true}, "after_sensitive": {}}},
                {"address": "aws_security_group_rule.ssh", "mode": "managed", "type": "aws_security_group_rule",
                 "name": "ssh", "provider_name": "registry.terraform.io/hashicorp/aws",
                 "change": {"actions": ["update"], "before": {"from_port": 22, "cidr_blocks": ["10.0.0.0/8"]},
                            "after": {"from_port": 22, "cidr_blocks": ["0.0.0.0/0"]},
                            "after_unknown": {}, "after_sensitive": {}}},
                {"address": "aws_s3_bucket.logs", "mode": "managed", "type": "aws_s3_bucket", "name": "logs",
                 "provider_name": "registry.terraform.io/hashicorp/aws",
                 "change": {"actions": ["delete", "create"], "before": {"bucket": "logs"},
                            "after": {"bucket": "logs2"}, "after_unknown": {"arn": true}, "after_sensitive": {}}},
                {"address": "aws_db_instance.main", "mode": "managed", "type": "aws_db_instance", "name": "main",
                 "provider_name": "registry.terraform.io/hashicorp/aws",
                 "change": {"actions": ["create"], "before": null,
                            "after": {"password": "hunter2"},
                            "after_unknown": {"endpoint": true}, "after_sensitive": {"password": true}}},
                {"address": "aws_vpc.main", "mode": "managed", "type": "aws_vpc", "name": "main",
                 "provider_name": "registry.terraform.io/hashicorp/aws",
                 "change": {"actions": ["no-op"], "before": {"cidr_block": "10.0.0.0/16"},
                            "after": {"cidr_block": "10.0.0.0/16"}, "after_unknown": {}, "after_sensitive": {}}}
              ]
            }
            """;

    private PolicyReport check(String policies) throws Exception {
        Files.writeString(dir.resolve("main.policy.hcl"), policies);
        Result<PolicySet> set = PolicySet.load(List.of(dir), dir);
        assertThat(set.diagnostics().asList()).isEmpty();
        return PolicyCheck.check(set.value(), JSON.readTree(PLAN), dir);
    }

    @Test
    void mandatoryPolicyFailsOnlyForTheChangesThatBreakIt() throws Exception {
        PolicyReport r = check("""
                policy "owner_tag" {
                  resource_types = ["aws_instance"]
                  condition      = contains(keys(change.after.tags), "owner")
                  error_message  = "${change.address} has no owner tag (env ${var.env})."
                }
                """);
        assertThat(r.checks()).isEqualTo(2);
        assertThat(r.outcomes())
                .extracting(PolicyOutcome::address, PolicyOutcome::status, PolicyOutcome::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "aws_instance.web",
                        PolicyOutcome.Status.FAILED,
                        "aws_instance.web has no owner tag (env prod)."));
        assertThat(r.blocksApply()).isTrue();
        Diagnostic d = r.diagnostics().asList().getFirst();
        assertThat(d.severity()).isEqualTo(dev.strata.hcl.Severity.ERROR);
        assertThat(d.summary()).isEqualTo("Policy \"owner_tag\" failed");
        assertThat(d.subject().filename()).isEqualTo("main.policy.hcl");
        assertThat(d.subject().start().line()).isEqualTo(3);
        assertThat(r.summaryLine()).isEqualTo("Policies: 1 policy, 2 checks, 1 mandatory not passed.");
    }

    @Test
    void advisoryPolicyIsAWarningAndDoesNotBlock() throws Exception {
        PolicyReport r = check("""
                policy "no_open_ssh" {
                  enforcement    = "advisory"
                  resource_types = ["aws_security_group_rule"]
                  condition      = !(change.after.from_port == 22 && contains(change.after.cidr_blocks, "0.0.0.0/0"))
                  error_message  = "SSH is open to the world."
                }
                """);
        assertThat(r.outcomes()).singleElement().satisfies(o -> {
            assertThat(o.enforcement()).isEqualTo(Enforcement.ADVISORY);
            assertThat(o.action()).isEqualTo("update");
        });
        assertThat(r.blocksApply()).isFalse();
        assertThat(r.diagnostics().asList().getFirst().severity()).isEqualTo(dev.strata.hcl.Severity.WARNING);
    }

    @Test
    void deleteFilterCoversReplacementsAndNoOpsAreNotChecked() throws Exception {
        PolicyReport r = check("""
                policy "keep_buckets" {
                  actions       = ["delete"]
                  condition     = var.env != "prod"
                  error_message = "Buckets are not destroyed in ${var.env}."
                }
                """);
        assertThat(r.checks()).isEqualTo(1);
        assertThat(r.outcomes()).singleElement().satisfies(o -> {
            assertThat(o.address()).isEqualTo("aws_s3_bucket.logs");
            assertThat(o.action()).isEqualTo("replace");
        });
    }

    @Test
    void everyActionButNoOpWhenNoFilterIsGiven() throws Exception {
        PolicyReport r = check("""
                policy "all" {
                  condition     = change.action != "no-op"
                  error_message = "never"
                }
                """);
        assertThat(r.checks()).isEqualTo(5);
        assertThat(r.outcomes()).isEmpty();
        assertThat(r.summaryLine()).isEqualTo("Policies: 1 policy, 5 checks, all passed.");
    }

    @Test
    void conditionOnAValueKnownOnlyAfterApplyIsNotPassed() throws Exception {
        PolicyReport r = check("""
                policy "arn" {
                  resource_types = ["aws_s3_bucket"]
                  condition      = startswith(change.after.arn, "arn:aws:s3")
                  error_message  = "wrong partition"
                }
                """);
        assertThat(r.outcomes())
                .singleElement()
                .satisfies(o -> assertThat(o.status()).isEqualTo(PolicyOutcome.Status.UNKNOWN));
        assertThat(r.blocksApply()).isTrue();
    }

    @Test
    void sensitiveValuesNeverReachTheMessage() throws Exception {
        PolicyReport r = check("""
                policy "password_length" {
                  resource_types = ["aws_db_instance"]
                  condition      = length(change.after.password) > 12
                  error_message  = "The password ${change.after.password} is too short (token ${var.token})."
                }
                """);
        assertThat(r.outcomes())
                .singleElement()
                .satisfies(
                        o -> assertThat(o.message()).doesNotContain("hunter2").contains("sensitive"));
        assertThat(r.toJson().toString()).doesNotContain("hunter2").doesNotContain("s3cr3t");
    }

    @Test
    void marksOfEnclosingObjectsReachTheAttributesBelowThem() throws Exception {
        String plan = """
                {"resource_changes": [
                  {"address": "x_thing.a", "mode": "managed", "type": "x_thing", "name": "a",
                   "change": {"actions": ["create"], "before": null,
                              "after": {"creds": {"user": "admin", "key": "k-123"}, "net": null},
                              "after_unknown": {"net": true}, "after_sensitive": {"creds": true}}}
                ]}
                """;
        Files.writeString(dir.resolve("m.policy.hcl"), """
                policy "user" {
                  condition     = change.after.creds.user != "admin"
                  error_message = "user ${change.after.creds.user} key ${change.after.creds.key}"
                }
                policy "net" {
                  enforcement   = "advisory"
                  condition     = change.after.net.cidr != "0.0.0.0/0"
                  error_message = "open"
                }
                policy "whole" {
                  enforcement   = "advisory"
                  condition     = change.type == "x_thing" && length(change.actions) == 1
                  error_message = "never"
                }
                """);
        Result<PolicySet> set = PolicySet.load(List.of(dir), dir);
        PolicyReport r = PolicyCheck.check(set.value(), JSON.readTree(plan), dir);
        assertThat(r.outcomes())
                .extracting(PolicyOutcome::policy, PolicyOutcome::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("user", PolicyOutcome.Status.FAILED),
                        org.assertj.core.groups.Tuple.tuple("net", PolicyOutcome.Status.UNKNOWN));
        assertThat(r.outcomes().getFirst().message()).doesNotContain("admin").doesNotContain("k-123");
    }

    @Test
    void aConditionThatIsNotABoolIsReported() throws Exception {
        PolicyReport r = check("""
                policy "typo" {
                  resource_types = ["aws_vpc"]
                  actions        = ["no-op"]
                  condition      = change.after.cidr_block
                  error_message  = "x"
                }
                """);
        assertThat(r.outcomes()).singleElement().satisfies(o -> {
            assertThat(o.status()).isEqualTo(PolicyOutcome.Status.ERRORED);
            assertThat(o.message()).contains("must be a bool");
        });
    }

    @Test
    void invalidPoliciesAreRefusedWhenLoaded() throws Exception {
        Files.writeString(dir.resolve("bad.policy.hcl"), """
                policy "a" {
                  enforcement   = "strict"
                  actions       = ["destroy"]
                  condition     = aws_instance.web.id != ""
                  error_message = "x"
                }
                policy "b" {
                  condition = true
                }
                """);
        Result<PolicySet> set = PolicySet.load(List.of(dir), dir);
        assertThat(set.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly(
                        "Invalid enforcement level",
                        "Invalid policy action",
                        "Invalid reference in policy",
                        "Missing required argument");
        assertThat(set.diagnostics().asList().get(2).subject().start().line()).isEqualTo(4);
    }

    @Test
    void duplicateNamesAndMissingDirectoriesAreErrors() throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        String p = "policy \"same\" {\n  condition = true\n  error_message = \"x\"\n}\n";
        Files.writeString(a.resolve("p.policy.hcl"), p);
        Files.writeString(b.resolve("p.policy.hcl"), p);
        Result<PolicySet> set = PolicySet.load(List.of(a, b, dir.resolve("nope")), dir);
        assertThat(set.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Duplicate policy", "Policy directory not found");
        assertThat(set.diagnostics().asList().getFirst().detail()).contains("a/p.policy.hcl:1,1-");
        assertThat(set.value().policies()).hasSize(1);
    }

    @Test
    void jsonPolicyFilesAreTheSameLanguage() throws Exception {
        Files.writeString(dir.resolve("p.policy.json"), """
                {"policy": {"owner_tag": {
                  "resource_types": ["aws_instance"],
                  "condition": "${contains(keys(change.after.tags), \\"owner\\")}",
                  "error_message": "${change.address} has no owner tag."
                }}}
                """);
        Result<PolicySet> set = PolicySet.load(List.of(dir), dir);
        assertThat(set.diagnostics().asList()).isEmpty();
        JsonNode plan = JSON.readTree(PLAN);
        assertThat(PolicyCheck.check(set.value(), plan, dir).outcomes())
                .extracting(PolicyOutcome::address)
                .containsExactly("aws_instance.web");
    }
}
