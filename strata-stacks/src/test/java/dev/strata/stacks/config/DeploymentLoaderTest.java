package dev.strata.stacks.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeploymentLoaderTest {
    @TempDir
    Path dir;

    private StackConfig stack() throws IOException {
        Files.writeString(dir.resolve("main.tfcomponent.hcl"), """
                variable "region" { type = string }
                variable "password" {
                  type      = string
                  sensitive = true
                  default   = null
                }
                """);
        return StackLoader.load(dir).value();
    }

    @Test
    void loadsEveryDeploymentBlock() throws IOException {
        StackConfig stack = stack();
        Files.writeString(dir.resolve("deployments.tfdeploy.hcl"), """
                store "env" "secrets" {
                  prefix = "APP_"
                }
                store "file" "more" {
                  path = "secrets.json"
                }
                store "varset" "hcp" {
                  id       = "varset-123"
                  category = "terraform"
                }
                identity_token "aws" {
                  audience = ["aws.workload.identity"]
                }
                locals {
                  r = "us-east-1"
                }
                deployment_auto_approve "no_destroy" {
                  check {
                    condition = context.plan.changes.remove == 0
                    reason    = "Plan removes ${context.plan.changes.remove} resources."
                  }
                }
                deployment_group "canary" {
                  auto_approve_checks = [deployment_auto_approve.no_destroy]
                }
                deployment "dev" {
                  inputs = {
                    region   = local.r
                    password = store.env.secrets.DB_PASSWORD
                  }
                  deployment_group = deployment_group.canary
                }
                deployment "old" {
                  inputs  = { region = "eu-west-1" }
                  destroy = true
                }
                publish_output "region" {
                  value = deployment.dev.region
                }
                upstream_input "net" {
                  type   = "stack"
                  source = "../network"
                }
                """);
        var r = DeploymentLoader.load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        DeploymentConfig d = r.value();
        assertThat(d.deployments()).containsOnlyKeys("dev", "old");
        assertThat(d.deployments().get("dev").deploymentGroup()).hasToString("deployment_group.canary");
        assertThat(d.deploymentGroups().get("canary").autoApproveChecks()).hasSize(1);
        assertThat(d.autoApproveRules().get("no_destroy").checks()).hasSize(1);
        assertThat(d.stores()).containsOnlyKeys("env.secrets", "file.more", "varset.hcp");
        assertThat(d.stores().get("env.secrets").kind()).isEqualTo(StoreBlock.Kind.ENV);
        assertThat(d.stores().get("file.more").kind()).isEqualTo(StoreBlock.Kind.FILE);
        assertThat(d.stores().get("varset.hcp").kind()).isEqualTo(StoreBlock.Kind.HCP_ONLY);
        assertThat(d.hcpOnly()).containsOnlyKeys("identity_token.aws");
        assertThat(d.upstreamInputs().get("net").source()).isEqualTo("../network");
        assertThat(d.publishOutputs()).containsOnlyKeys("region");
        // HCP-only blocks that nothing uses are not errors
        assertThat(StackValidator.validateDeployments(d, stack).asList()).isEmpty();
    }

    private List<String> check(String deployments) throws IOException {
        StackConfig stack = stack();
        Files.writeString(dir.resolve("d.tfdeploy.hcl"), deployments);
        var r = DeploymentLoader.load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        return StackValidator.validateDeployments(r.value(), stack).asList().stream()
                .map(Diagnostic::toString)
                .toList();
    }

    @Test
    void hcpOnlyBlocksAreErrorsWhereUsed() throws IOException {
        assertThat(check("""
                store "varset" "v" {
                  id       = "varset-1"
                  category = "terraform"
                }
                identity_token "aws" {
                  audience = ["x"]
                }
                deployment "dev" {
                  inputs = {
                    region   = store.varset.v.region
                    password = identity_token.aws.jwt
                  }
                }
                """))
                .containsExactly(
                        "d.tfdeploy.hcl:10,16-30: Not available outside HCP Terraform; The store type \"varset\" reads values kept by HCP Terraform, which are not available outside HCP Terraform. Read secrets locally with a store \"env\" or store \"file\" block instead.",
                        "d.tfdeploy.hcl:11,16-34: Not available outside HCP Terraform; identity_token blocks ask HCP Terraform for a workload identity (OIDC) token, which is not available outside HCP Terraform. Give the provider its credentials another way, for example from a store \"env\" or store \"file\" block.");
    }

    @Test
    void inputsMatchTheStackVariables() throws IOException {
        assertThat(check("""
                deployment "dev" {
                  inputs = { zone = "a" }
                  deployment_group = deployment_group.missing
                }
                deployment_auto_approve "r" {
                  check {
                    condition = var.x
                    reason    = "no"
                  }
                }
                """))
                .containsExactly(
                        "d.tfdeploy.hcl:2,12-26: No value for required variable; The deployment \"dev\" sets no value for the stack's required input variable \"region\". Add it to the deployment's inputs.",
                        "d.tfdeploy.hcl:2,14-18: Unsupported input variable; The stack has no input variable named \"zone\". Remove it from the inputs of deployment \"dev\", or declare it with a variable block.",
                        "d.tfdeploy.hcl:3,22-46: Reference to undeclared deployment group; There is no deployment_group \"missing\" block declared in this deployment configuration.",
                        "d.tfdeploy.hcl:7,17-20: Invalid reference; A deployment_auto_approve check can refer only to the context object (context.plan and context.success), not to \"var\".");
    }

    @Test
    void jsonDeploymentFilesLoadTheSameModel() throws IOException {
        StackConfig stack = stack();
        Files.writeString(dir.resolve("d.tfdeploy.json"), """
                {
                  "store": {"env": {"s": {}}},
                  "deployment": {
                    "dev": {"inputs": {"region": "us-east-1", "password": "${store.env.s.PW}"}},
                    "prod": {"inputs": {"region": "eu-west-1"}, "deployment_group": "deployment_group.main"}
                  },
                  "deployment_group": {"main": {"auto_approve_checks": ["deployment_auto_approve.safe"]}},
                  "deployment_auto_approve": {"safe": {"check": [{"condition": "${context.plan.applyable}", "reason": "x"}]}}
                }
                """);
        var r = DeploymentLoader.load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value().deployments()).containsOnlyKeys("dev", "prod");
        assertThat(r.value().deployments().get("prod").deploymentGroup()).hasToString("deployment_group.main");
        assertThat(r.value().autoApproveRules().get("safe").checks()).hasSize(1);
        assertThat(StackValidator.validateDeployments(r.value(), stack).asList())
                .isEmpty();
    }

    @Test
    void duplicateDeploymentsAreErrors() throws IOException {
        Files.writeString(dir.resolve("a.tfdeploy.hcl"), "deployment \"x\" {}\ndeployment \"x\" {}\n");
        assertThat(DeploymentLoader.load(dir).diagnostics().asList())
                .singleElement()
                .hasToString(
                        "a.tfdeploy.hcl:2,1-15: Duplicate deployment declaration; A deployment named \"x\" was already declared at a.tfdeploy.hcl:1,1-15. Deployment names must be unique within a configuration.");
    }
}
