package dev.strata.cli.command.stacks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.GitRepos;
import dev.strata.testing.ModuleRegistryServer;
import dev.strata.testing.ModuleRegistryServer.Archive;
import dev.strata.testing.StackTexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code strata stacks init} installs the whole module tree of each component: a local component and a
 * Git one both call a registry module whose package calls {@code ./modules/sub} inside itself; plan
 * and apply load the installed trees, a second init installs nothing, {@code -upgrade} moves to a newer
 * allowed version, and a nested source that cannot be found names the component and the module call.
 */
class StacksNestedModulesTest {
    @TempDir
    Path dir;

    private ModuleRegistryServer registry;
    private Path cliConfig;

    private static Map<String, String> appPackage(String tag) {
        return Map.of("main.tf", """
                variable "name" {
                  type = string
                }
                module "sub" {
                  source = "./modules/sub"
                  name   = "%s-${var.name}"
                }
                output "name" {
                  value = module.sub.name
                }
                """.formatted(tag), "modules/sub/main.tf", StackTexts.NAME_MODULE);
    }

    private static final String CALLER = """
            variable "name" {
              type = string
            }
            module "app" {
              source  = "example.com/acme/app/aws"
              version = "~> 1.0"
              name    = var.name
            }
            output "name" {
              value = module.app.name
            }
            """;

    @BeforeEach
    void start() throws IOException {
        registry = ModuleRegistryServer.start().publish("acme/app/aws", "1.0.0", appPackage("v1"), Archive.TAR_GZ);
        cliConfig = dir.resolve("cli.tfrc");
        Files.writeString(
                cliConfig,
                "host \"example.com\" {\n  services = {\n    \"modules.v1\" = \"" + registry.servicesUrl()
                        + "\"\n  }\n}\n");
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    private CliRunner strata(Path stack) {
        return CliRunner.in(stack)
                .env("TF_CLI_CONFIG_FILE", cliConfig.toString())
                .env("HOME", dir.toString());
    }

    private Path stack(String components) throws IOException {
        return StackTexts.write(dir.resolve("stack"), components);
    }

    private long downloads() {
        return registry.requests().stream()
                .filter(r -> r.startsWith("GET /files/"))
                .count();
    }

    @Test
    void localAndGitComponentsCallingARegistryModuleAreInstalledPlannedAndApplied() throws Exception {
        Path repo = GitRepos.commit(dir.resolve("repo"), Map.of("main.tf", CALLER));
        Path stack = stack(StackTexts.component("local", "./app", "l")
                + StackTexts.component("git", "git::file://" + repo.toAbsolutePath(), "g")
                + """
                output "names" {
                  type  = list(string)
                  value = [component.local.name, component.git.name]
                }
                """);
        Files.createDirectories(stack.resolve("app"));
        Files.writeString(stack.resolve("app/main.tf"), CALLER);
        CliRunner cli = strata(stack);

        CliRunner.Result before = cli.run("stacks", "plan");
        assertThat(before.exitCode()).as(before.toString()).isEqualTo(1);
        assertThat(before.stderr()).contains("strata stacks init").doesNotContain("\"strata init\"");

        CliRunner.Result init = cli.run("stacks", "init");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout())
                .contains("component \"local\": module \"app\" from \"example.com/acme/app/aws\" version \"1.0.0\""
                        + " installed")
                .contains(": module \"app\" from \"example.com/acme/app/aws\" version \"1.0.0\" installed");
        long fetched = downloads();
        assertThat(fetched).isEqualTo(2);
        // The local component's own directory is left as it was.
        assertThat(stack.resolve("app/.strata")).doesNotExist();

        CliRunner.Result apply = cli.run("stacks", "apply", "-auto-approve");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(apply.stdout()).contains("2 added");
        CliRunner.Result out = cli.run("stacks", "output", "-json");
        assertThat(out.exitCode()).as(out.toString()).isZero();
        assertThat(out.stdout()).contains("v1-l").contains("v1-g");

        CliRunner.Result again = cli.run("stacks", "init");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.stdout()).doesNotContain(" installed\n").contains("already installed");
        assertThat(downloads()).isEqualTo(fetched);
        CliRunner.Result plan = cli.run("stacks", "plan");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout()).contains("Deployment \"one\": no changes");

        registry.publish("acme/app/aws", "1.1.0", appPackage("v11"), Archive.ZIP);
        CliRunner.Result upgrade = cli.run("stacks", "init", "-upgrade");
        assertThat(upgrade.exitCode()).as(upgrade.toString()).isZero();
        assertThat(upgrade.stdout()).contains("version \"1.1.0\" installed");
        CliRunner.Result upgraded = cli.run("stacks", "apply", "-auto-approve");
        assertThat(upgraded.exitCode()).as(upgraded.toString()).isZero();
        assertThat(cli.run("stacks", "output", "-json").stdout())
                .contains("v11-l")
                .contains("v11-g");
    }

    @Test
    void aNestedSourceThatCannotBeFoundNamesTheComponentAndTheModuleCall() throws Exception {
        Path stack = stack(StackTexts.component("broken", "./app", "l"));
        Files.createDirectories(stack.resolve("app"));
        Files.writeString(
                stack.resolve("app/main.tf"),
                CALLER.replace("example.com/acme/app/aws", "example.com/acme/missing/aws"));

        CliRunner.Result init = strata(stack).run("stacks", "init");
        assertThat(init.exitCode()).as(init.toString()).isEqualTo(1);
        String told = init.stderr().replaceAll("\\s+", " ");
        assertThat(told)
                .contains("Error: Module not found")
                .contains("on main.tfcomponent.hcl line 8: 8: source = \"./app\"")
                .contains("While installing the modules of component \"broken\" (source \"./app\"): Module \"app\""
                        + " (from app/main.tf:4) cannot be found in the module registry at example.com.");
        CliRunner.Result plan = strata(stack).run("stacks", "plan");
        assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(1);
        assertThat(plan.stderr()).contains("Module not installed").contains("strata stacks init");
    }

    /**
     * A component's own source that cannot be installed: the problem is at the Stack file's {@code source}
     * line and tells of the source, not of the one-call root module generated to install it.
     */
    @Test
    void aComponentSourceThatCannotBeInstalledIsToldAtTheStacksSourceLine() throws Exception {
        Path stack = stack("""
                component "broken" {
                  source    = "example.com/acme/missing/aws"
                  version   = "1.0.0"
                  inputs    = { name = "l" }
                  providers = { terraform = provider.terraform.main }
                }
                """ + StackTexts.component("git", "git::file://" + dir.resolve("no-such-repo"), "g"));
        CliRunner.Result init = strata(stack).run("stacks", "init", "-no-color");
        assertThat(init.exitCode()).as(init.toString()).isEqualTo(1);
        assertThat(init.stderr())
                .contains("\n  on main.tfcomponent.hcl line 8:\n   8:   source    = \"example.com/acme/missing/aws\"\n")
                .contains("\n  on main.tfcomponent.hcl line 14:\n  14:   source    = \"git::file://")
                .contains("The source cannot be found in the module registry at example.com.")
                .containsIgnoringWhitespaces("Could not download the source from \"git::file://")
                .doesNotContain("module \"source\"")
                .doesNotContain("main.tf:1")
                .doesNotContain("Source not installed");
    }

    @Test
    void anS3ComponentSourceIsInstalledWithTheModulesItCalls() throws Exception {
        String endpoint = dev.strata.testing.S3Server.shared().endpoint();
        String bucket = dev.strata.testing.S3Server.shared().createBucket("components");
        dev.strata.testing.S3Server.shared().putObject(bucket, "app.zip", ModuleRegistryServer.zip(appPackage("s3")));
        String component =
                StackTexts.component("app", "s3::" + endpoint + "/" + bucket + "/KEY?region=us-east-1", "x") + """
                output "name" {
                  type  = string
                  value = component.app.name
                }
                """;
        Path stack = stack(component.replace("KEY", "missing.zip"));
        CliRunner cli = strata(stack)
                .env("AWS_ACCESS_KEY_ID", dev.strata.testing.S3Server.ACCESS_KEY)
                .env("AWS_SECRET_ACCESS_KEY", dev.strata.testing.S3Server.SECRET_KEY);
        CliRunner.Result missing = cli.run("stacks", "init");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(1);
        assertThat(missing.stderr().replaceAll("\\s+", " "))
                .contains("Failed to download module")
                .contains("there is no object \"missing.zip\" in the bucket \"" + bucket + "\"")
                .doesNotContain(dev.strata.testing.S3Server.SECRET_KEY);

        stack(component.replace("KEY", "app.zip"));
        CliRunner.Result init = cli.run("stacks", "init");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout()).contains("app.zip?region=us-east-1\" installed in .strata/stacks/.modules/");
        CliRunner.Result apply = cli.run("stacks", "apply", "-auto-approve");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(apply.stdout()).contains("1 added");
        assertThat(cli.run("stacks", "output", "-json").stdout()).contains("s3-x");
    }
}
