package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart's policy set ({@code examples/quickstart/guardrails.policy.hcl}) run through the CLI
 * on a copy of the example: the example as it is passes it; changed runs fail with the policies'
 * diagnostics, a mandatory one stopping {@code plan -out} and {@code destroy}, an advisory one only
 * warning. {@link ExamplePoliciesAwsIT} does the same for the AWS VPC example.
 */
class ExamplePoliciesTest {
    static final Path EXAMPLES = Path.of("..", "examples");

    @TempDir
    Path dir;

    static void copy(String example, Path dir) throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES.resolve(example))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".tf") || name.endsWith(".policy.hcl")) {
                    Files.copy(f, dir.resolve(name));
                }
            }
        }
        assertThat(dir.resolve("guardrails.policy.hcl")).exists();
    }

    private CliRunner cli() {
        return CliRunner.in(dir).width(200);
    }

    @Test
    void quickstartPassesItsPoliciesAndChangedCopiesDoNot() throws IOException {
        copy("quickstart", dir);
        CliRunner.Result apply = cli().run("apply", "-no-color", "-auto-approve");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(apply.stdout())
                .contains("Policies: 3 policies, 9 checks, all passed.")
                .contains("Apply complete! Resources: 7 added, 0 changed, 0 destroyed.");
        byte[] state = Files.readAllBytes(dir.resolve("terraform.tfstate"));

        // Advisory: a service on port 22 is a warning; the plan is still saved.
        CliRunner.Result ssh = cli().run(
                        "plan",
                        "-no-color",
                        "-out=ssh.plan",
                        "-var=services={ api = { port = 8080 }, ssh = { port = 22 } }");
        assertThat(ssh.exitCode()).as(ssh.toString()).isZero();
        assertThat(ssh.stdout())
                .contains("Warning: Policy \"no_public_ssh\" failed")
                .contains("on guardrails.policy.hcl line 18")
                .contains("terraform_data.service[\"ssh\"] (create): terraform_data.service[\"ssh\"] puts a service on "
                        + "port 22 (SSH); pick another port.")
                .contains("1 advisory not passed");
        assertThat(dir.resolve("ssh.plan")).exists();

        // Mandatory: in prod the generated name would be replaced (its prefix changes): no plan is saved.
        CliRunner.Result prod = cli().run("plan", "-no-color", "-out=prod.plan", "-var=environment=prod");
        assertThat(prod.exitCode()).as(prod.toString()).isEqualTo(1);
        assertThat(prod.stderr())
                .contains("Error: Policy \"no_destroy_of_protected_types\" failed")
                .contains("on guardrails.policy.hcl line 27")
                .contains("random_pet.name (replace): random_pet.name would be destroyed (replace) in prod; run with "
                        + "-var=allow_destroy=true to allow it.");
        assertThat(prod.stdout()).contains("1 mandatory not passed");
        assertThat(dir.resolve("prod.plan")).doesNotExist();

        CliRunner.Result destroy = cli().run("destroy", "-no-color", "-auto-approve", "-var=environment=prod");
        assertThat(destroy.exitCode()).as(destroy.toString()).isEqualTo(1);
        assertThat(destroy.stderr())
                .contains("tls_private_key.service[\"api\"] (delete)")
                .contains("tls_private_key.service[\"web\"] (delete)")
                .contains("random_pet.name (delete)")
                .doesNotContain("local_file.inventory (delete)");
        assertThat(Files.readAllBytes(dir.resolve("terraform.tfstate")))
                .as("nothing destroyed")
                .isEqualTo(state);

        CliRunner.Result allowed =
                cli().run("destroy", "-no-color", "-auto-approve", "-var=environment=prod", "-var=allow_destroy=true");
        assertThat(allowed.exitCode()).as(allowed.toString()).isZero();
        assertThat(allowed.stdout()).contains("Destroy complete! Resources: 7 destroyed.");
    }
}
