package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AWS VPC example's policy set ({@code examples/aws-vpc/guardrails.policy.hcl}) through the CLI
 * with the AWS provider 5.100, planning offline: the example passes it; a copy that opens SSH to
 * 0.0.0.0/0 (inline and as a rule) and drops a bucket's owner tag fails with the three policies'
 * diagnostics and {@code plan -out} saves nothing. An IT because starting the AWS provider takes most
 * of a minute on a loaded machine; skipped without the provider mirror.
 */
class ExamplePoliciesAwsIT {
    private static final Path MIRROR = Path.of(System.getProperty("strata.test.pluginMirror", "/opt/tf-plugins"));
    private static final String AWS = "registry.terraform.io/hashicorp/aws";

    @TempDir
    Path dir;

    @TempDir
    Path etc;

    @Test
    void awsVpcPassesItsPoliciesAndAChangedCopyDoesNot() throws IOException {
        assumeTrue(
                Files.isDirectory(MIRROR.resolve(AWS).resolve("5.100.0/linux_amd64")), "no AWS provider in " + MIRROR);
        ExamplePoliciesTest.copy("aws-vpc", dir);
        Path cliConfig = etc.resolve("cli.tfrc");
        Files.writeString(
                cliConfig,
                "provider_installation {\n  filesystem_mirror {\n    path    = \"" + MIRROR + "\"\n    include = [\""
                        + AWS + "\"]\n  }\n}\n");
        CliRunner strata = CliRunner.in(dir)
                .width(200)
                .env("TF_CLI_CONFIG_FILE", cliConfig.toString())
                .env("HOME", etc.toString());
        CliRunner.Result init = strata.run("init", "-no-color");
        assertThat(init.exitCode()).as(init.toString()).isZero();

        CliRunner.Result plan = strata.run("plan", "-no-color", "-out=vpc.plan");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout())
                .contains("Plan: 6 to add, 0 to change, 0 to destroy.")
                .contains("Policies: 4 policies, 8 checks, all passed.");
        assertThat(dir.resolve("vpc.plan")).exists();

        // SSH opened to the world, once inline and once as a rule, and a bucket without its owner tag.
        String main = Files.readString(dir.resolve("main.tf"));
        Files.writeString(
                dir.resolve("main.tf"),
                main.replace(
                                "    from_port   = 443\n    to_port     = 443",
                                "    from_port   = 0\n    to_port     = 65535")
                        .replace(
                                "bucket = \"strata-example-flow-logs-${var.environment}\"\n  tags   = local.tags",
                                "bucket = \"strata-example-flow-logs-${var.environment}\"\n  tags   = { team = \"x\" }"));
        CliRunner.Result changed = strata.run("plan", "-no-color", "-out=changed.plan", "-var=admin_cidr=0.0.0.0/0");
        assertThat(changed.exitCode()).as(changed.toString()).isEqualTo(1);
        assertThat(changed.stderr())
                .contains("Error: Policy \"no_public_ssh\" failed")
                .contains("aws_security_group.web (create): aws_security_group.web opens SSH (port 22) to 0.0.0.0/0 "
                        + "in an ingress block")
                .contains("Error: Policy \"no_public_ssh_rule\" failed")
                .contains("aws_vpc_security_group_ingress_rule.ssh (create): aws_vpc_security_group_ingress_rule.ssh "
                        + "opens SSH (port 22) to 0.0.0.0/0")
                .contains("Error: Policy \"owner_tag\" failed")
                .contains("aws_s3_bucket.flow_logs (create): aws_s3_bucket.flow_logs has no owner tag");
        assertThat(changed.stdout()).contains("3 mandatory not passed");
        assertThat(dir.resolve("changed.plan")).doesNotExist();
    }
}
