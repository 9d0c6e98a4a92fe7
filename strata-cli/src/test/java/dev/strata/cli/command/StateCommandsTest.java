package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.state.LocalBackend;
import dev.strata.state.LockRequest;
import dev.strata.state.StateCodec;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end tests of the state, workspace and force-unlock commands in a temporary working directory. */
class StateCommandsTest {
    @TempDir
    Path dir;

    CliRunner cli;
    byte[] sample;

    @BeforeEach
    void setUp() throws IOException {
        try (InputStream in = StateCommandsTest.class.getResourceAsStream("sample.tfstate")) {
            sample = in.readAllBytes();
        }
        cli = CliRunner.in(dir);
    }

    void withSample() throws IOException {
        Files.write(dir.resolve("terraform.tfstate"), sample);
    }

    StateSnapshot onDisk() throws IOException {
        return StateCodec.read(Files.readAllBytes(dir.resolve("terraform.tfstate")), "f", "")
                .value();
    }

    @Test
    void listShowsEveryInstanceInTerraformOrder() throws IOException {
        withSample();
        CliRunner.Result r = cli.run("state", "list");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("""
                terraform_data.a
                terraform_data.b[0]
                terraform_data.b[1]
                terraform_data.c["k1"]
                terraform_data.c["k2"]
                module.m.terraform_data.z
                """);
        assertThat(cli.run("state", "list", "terraform_data.c", "module.m").stdout())
                .isEqualTo("""
                terraform_data.c["k1"]
                terraform_data.c["k2"]
                module.m.terraform_data.z
                """);
        assertThat(cli.run("state", "list", "-id=62b07fcb-3a83-6c2b-217f-37495ee56de4")
                        .stdout())
                .isEqualTo("terraform_data.a\n");
        CliRunner.Result missing = cli.run("state", "list", "nothing.here");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.stderr()).contains("Unknown resource").contains("contains no resource nothing.here");
    }

    /** As terraform 1.11: a module call without a key names all its instances; an address naming nothing. */
    @Test
    void aModuleCallWithoutAKeyNamesEveryInstance() throws IOException {
        Files.createDirectories(dir.resolve("mod"));
        Files.writeString(dir.resolve("mod/main.tf"), "resource \"terraform_data\" \"x\" {}\n");
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "a" {}
                module "n" {
                  source = "./mod"
                  count  = 2
                }
                """);
        CliRunner.Result apply = cli.run("apply", "-auto-approve");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();

        assertThat(cli.run("state", "list", "module.n").stdout())
                .isEqualTo("module.n[0].terraform_data.x\nmodule.n[1].terraform_data.x\n");
        CliRunner.Result noModule = cli.run("state", "list", "module.nope");
        assertThat(noModule.exitCode()).isEqualTo(1);
        assertThat(noModule.stderr()).contains("Error: Unknown module").contains("contains no module at module.nope");
        CliRunner.Result oneMissing = cli.run("state", "list", "terraform_data.a", "terraform_data.nope");
        assertThat(oneMissing.exitCode()).isEqualTo(1);
        assertThat(oneMissing.stdout()).as("nothing listed").isEmpty();
        assertThat(oneMissing.stderr()).contains("Error: Unknown resource");

        CliRunner.Result dryNothing = cli.run("state", "rm", "-dry-run", "module.nope");
        assertThat(dryNothing.exitCode()).isZero();
        assertThat(dryNothing.stdout()).isEqualTo("Would have removed nothing.\n");
        CliRunner.Result rm = cli.run("state", "rm", "terraform_data.nope", "module.n");
        assertThat(rm.exitCode()).as(rm.toString()).isZero();
        assertThat(rm.stdout())
                .isEqualTo("Removed module.n[0].terraform_data.x\nRemoved module.n[1].terraform_data.x\n"
                        + "Successfully removed 2 resource instance(s).\n");
        assertThat(cli.run("state", "list").stdout()).isEqualTo("terraform_data.a\n");
    }

    @Test
    void withoutAStateListSaysSo() {
        CliRunner.Result r = cli.run("state", "list");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("No state file was found!");
        assertThat(cli.run("state", "pull").stdout()).isEmpty();
    }

    @Test
    void showRendersAttributesAndHidesSensitiveOnes() throws IOException {
        withSample();
        CliRunner.Result r = cli.run("state", "show", "terraform_data.c[\"k1\"]");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("""
                # terraform_data.c["k1"]:
                resource "terraform_data" "c" {
                    id     = "e30f64e2-c2e2-f3e7-77a4-642fdfba5336"
                    input  = (sensitive value)
                    output = "secret-k1"
                }
                """);
        assertThat(cli.run("state", "show", "terraform_data.b[0]").stdout()).isEqualTo("""
                # terraform_data.b[0]:
                resource "terraform_data" "b" {
                    id               = "aad8cfab-2667-6dae-dde7-818fcaa7287e"
                    input            = {
                        n    = 3
                        name = "x"
                    }
                    output           = {
                        n    = 3
                        name = "x"
                    }
                    triggers_replace = [
                        0,
                    ]
                }
                """);
        CliRunner.Result none = cli.run("state", "show", "terraform_data.b");
        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.stderr()).contains("No instance found for the given address!");
        assertThat(cli.run("state", "show", "not an address").stderr()).contains("Invalid address");
        CliRunner.Result module = cli.run("state", "show", "module.m");
        assertThat(module.exitCode()).isEqualTo(1);
        assertThat(module.stderr())
                .startsWith("Error parsing instance address: module.m\n\nThis command requires that the address "
                        + "references one specific instance.");
    }

    /** An object stored only in the legacy flat form: its attributes as strings, in show and state show alike. */
    @Test
    void anObjectInTheLegacyFlatFormIsShownAsItsStrings() throws IOException {
        Files.writeString(dir.resolve("terraform.tfstate"), """
                {
                  "version": 4,
                  "terraform_version": "1.11.4",
                  "serial": 1,
                  "lineage": "5d6a0f36-3bd1-4d4b-93ba-9e0a4c1e0e55",
                  "outputs": {},
                  "resources": [
                    {
                      "mode": "managed",
                      "type": "terraform_data",
                      "name": "x",
                      "provider": "provider[\\"terraform.io/builtin/terraform\\"]",
                      "instances": [
                        {
                          "schema_version": 0,
                          "attributes_flat": { "id": "i-1", "triggers_replace": "2" }
                        }
                      ]
                    }
                  ]
                }
                """);
        String expected = """
                # terraform_data.x:
                resource "terraform_data" "x" {
                    id               = "i-1"
                    triggers_replace = "2"
                }
                """;
        CliRunner.Result state = cli.run("state", "show", "terraform_data.x");
        assertThat(state.exitCode()).as(state.toString()).isZero();
        assertThat(state.stdout()).isEqualTo(expected);
        CliRunner.Result show = cli.run("show", "-no-color");
        assertThat(show.exitCode()).as(show.toString()).isZero();
        assertThat(show.stdout()).isEqualTo(expected);
    }

    @Test
    void pullPrintsTheStoredBytes() throws IOException {
        withSample();
        CliRunner.Result r = cli.run("state", "pull");
        assertThat(r.stdout()).isEqualTo(new String(sample, StandardCharsets.UTF_8) + "\n");
    }

    @Test
    void aCorruptStateIsShownWithItsSourceLineAndTheBackup() throws IOException {
        withSample();
        String text = new String(sample, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("terraform.tfstate.backup"), text);
        // An edit gone wrong on line 3: a value that is not JSON.
        String[] lines = text.split("\n", -1);
        lines[2] = "  \"serial\": oops,";
        Files.writeString(dir.resolve("terraform.tfstate"), String.join("\n", lines));
        CliRunner.Result r = cli.run("state", "list", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Failed to read the state file")
                .contains("  on terraform.tfstate line 3:\n")
                // The source line and no mark under it without colour, as Terraform renders diagnostics.
                .contains("   3:   \"serial\": oops,\n\n")
                .contains("terraform.tfstate.backup");
        // A file given to state push is shown the same way.
        Files.writeString(dir.resolve("broken.tfstate"), "{\n  \"version\": 4,\n  \"serial\": \"x\"\n}\n");
        CliRunner.Result push = cli.run("state", "push", "-no-color", "broken.tfstate");
        assertThat(push.stderr()).contains("on broken.tfstate line 3:").contains("   3:   \"serial\": \"x\"");
    }

    @Test
    void pushChecksLineageAndSerial() throws IOException {
        withSample();
        StateSnapshot s = onDisk();
        Files.write(
                dir.resolve("older.tfstate"), StateCodec.write(s.withSerial(3).withOutputs(java.util.Map.of())));
        CliRunner.Result older = cli.run("state", "push", "older.tfstate");
        assertThat(older.exitCode()).isEqualTo(1);
        assertThat(older.stderr())
                .contains("Failed to write state: cannot import state with serial 3 over newer state with serial 7");
        Files.write(
                dir.resolve("other.tfstate"),
                StateCodec.write(s.withLineage("other").withSerial(50)));
        assertThat(cli.run("state", "push", "other.tfstate").stderr())
                .contains(
                        "cannot import state with lineage \"other\" over unrelated state with lineage \"bf43aa70-bfd1-fb61-2f84-fe907f1f9be4\"");
        CliRunner.Result forced = cli.run("state", "push", "-force", "older.tfstate");
        assertThat(forced.exitCode()).as(forced.toString()).isZero();
        assertThat(onDisk().serial()).as("never backwards").isEqualTo(8);
        assertThat(onDisk().outputs()).isEmpty();
        Files.write(dir.resolve("newer.tfstate"), StateCodec.write(s.withSerial(20)));
        assertThat(cli.run("state", "push", "newer.tfstate").exitCode()).isZero();
        assertThat(onDisk().serial()).isEqualTo(20);
        assertThat(onDisk().outputs()).containsKeys("o", "s");
        assertThat(cli.run("state", "push", "missing.tfstate").stderr())
                .contains("open missing.tfstate: no such file or directory");
        Files.writeString(dir.resolve("broken.tfstate"), "{\"version\": 4,");
        assertThat(cli.run("state", "push", "broken.tfstate").stderr()).contains("not valid JSON at line 1");
    }

    @Test
    void rmForgetsInstancesAndKeepsABackup() throws IOException {
        withSample();
        CliRunner.Result dry = cli.run("state", "rm", "-dry-run", "terraform_data.b");
        assertThat(dry.stdout()).isEqualTo("Would remove terraform_data.b[0]\nWould remove terraform_data.b[1]\n");
        assertThat(onDisk().serial()).isEqualTo(7);
        CliRunner.Result r = cli.run("state", "rm", "terraform_data.a", "terraform_data.b[1]");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout())
                .isEqualTo("Removed terraform_data.a\nRemoved terraform_data.b[1]\n"
                        + "Successfully removed 2 resource instance(s).\n");
        assertThat(onDisk().serial()).isEqualTo(8);
        assertThat(onDisk().instanceAddresses())
                .extracting(Object::toString)
                .doesNotContain("terraform_data.a", "terraform_data.b[1]")
                .contains("terraform_data.b[0]");
        // As Terraform's state subcommands keep it: terraform.tfstate.<unix seconds>.backup.
        List<Path> backups;
        try (var files = Files.list(dir)) {
            backups = files.filter(p -> p.getFileName().toString().matches("terraform\\.tfstate\\.\\d{10}\\.backup"))
                    .toList();
        }
        assertThat(backups).hasSize(1);
        assertThat(Files.readAllBytes(backups.get(0))).isEqualTo(sample);
        assertThat(dir.resolve("terraform.tfstate.backup")).doesNotExist();
        CliRunner.Result none = cli.run("state", "rm", "nothing.x");
        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.stderr()).contains("Invalid target address").contains("No matching objects found");
    }

    @Test
    void mvMovesResourcesInstancesAndModules() throws IOException {
        withSample();
        assertThat(cli.run("state", "mv", "-dry-run", "terraform_data.a", "terraform_data.a2")
                        .stdout())
                .isEqualTo("Would move \"terraform_data.a\" to \"terraform_data.a2\"\n");
        CliRunner.Result r = cli.run("state", "mv", "terraform_data.a", "terraform_data.a2");
        assertThat(r.stdout())
                .isEqualTo("Move \"terraform_data.a\" to \"terraform_data.a2\"\nSuccessfully moved 1 object(s).\n");
        assertThat(cli.run("state", "mv", "terraform_data.b[0]", "terraform_data.b[5]")
                        .exitCode())
                .isZero();
        // As Terraform prints them (Go's %q): the quotes of a string key escaped.
        assertThat(cli.run("state", "mv", "-dry-run", "terraform_data.b[5]", "terraform_data.b[\"k\"]")
                        .stdout())
                .isEqualTo("Would move \"terraform_data.b[5]\" to \"terraform_data.b[\\\"k\\\"]\"\n");
        assertThat(cli.run("state", "mv", "module.m", "module.n").exitCode()).isZero();
        assertThat(cli.run("state", "list").stdout()).isEqualTo("""
                terraform_data.a2
                terraform_data.b[1]
                terraform_data.b[5]
                terraform_data.c["k1"]
                terraform_data.c["k2"]
                module.n.terraform_data.z
                """);
        CliRunner.Result taken = cli.run("state", "mv", "terraform_data.c", "terraform_data.b");
        assertThat(taken.exitCode()).isEqualTo(1);
        assertThat(taken.stderr())
                .contains("Cannot move to terraform_data.b: there is already a resource at that address");
        assertThat(cli.run("state", "mv", "terraform_data.a2", "null_resource.a")
                        .stderr())
                .contains("resource types don't match");
        assertThat(cli.run("state", "mv", "x.y", "x.z").stderr())
                .contains("does not match anything in the current state");
        assertThat(onDisk().serial()).isEqualTo(10);
    }

    @Test
    void writesWaitForTheLockAndNameTheHolder() throws IOException {
        withSample();
        try (StateManager holder = LocalBackend.in(dir, "0.1.0")
                .open("default", LockRequest.of("OperationTypeApply", Duration.ZERO))
                .value()) {
            CliRunner.Result r = cli.run("state", "rm", "-lock-timeout=100ms", "terraform_data.a");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.stderr())
                    .contains("Error acquiring the state lock")
                    .contains(holder.lock().id())
                    .contains("OperationTypeApply")
                    .contains("Gave up after waiting");
            assertThat(cli.run("state", "rm", "-lock-timeout=soon", "terraform_data.a")
                            .stderr())
                    .contains("Invalid value for -lock-timeout");
            // Reads do not lock, as in Terraform.
            assertThat(cli.run("state", "list").exitCode()).isZero();
            // force-unlock refuses while the holder is alive (here: this very process).
            assertThat(cli.stdin("no\n").run("force-unlock", holder.lock().id()).stderr())
                    .contains("force-unlock cancelled.");
        }
        assertThat(cli.run("state", "rm", "-lock=false", "terraform_data.a").exitCode())
                .isZero();
    }

    @Test
    void forceUnlockRemovesALeftoverLock() throws IOException {
        withSample();
        Files.writeString(
                dir.resolve(".terraform.tfstate.lock.info"),
                "{\"ID\":\"abc-123\",\"Operation\":\"OperationTypeApply\","
                        + "\"Who\":\"ann@elsewhere\",\"Host\":\"elsewhere\",\"Created\":\"2026-11-25T10:00:00Z\",\"Heartbeat\":\"2026-11-25T10:00:00Z\"}");
        assertThat(cli.run("force-unlock", "-force", "wrong").stderr())
                .contains("Failed to unlock state: Lock ID \"wrong\" does not match");
        CliRunner.Result r = cli.stdin("yes\n").run("force-unlock", "abc-123");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout())
                .contains("Do you really want to force-unlock?")
                .contains("Strata state has been successfully unlocked!");
        assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
        assertThat(cli.run("force-unlock", "-force", "abc-123").stderr()).contains("is not locked");
    }

    @Test
    void workspacesAreCreatedSelectedListedAndDeleted() throws IOException {
        assertThat(cli.run("workspace", "show").stdout()).isEqualTo("default\n");
        CliRunner.Result created = cli.run("workspace", "new", "dev");
        assertThat(created.exitCode()).as(created.toString()).isZero();
        assertThat(created.stdout()).startsWith("Created and switched to workspace \"dev\"!");
        assertThat(dir.resolve("terraform.tfstate.d/dev")).isDirectory();
        assertThat(cli.run("workspace", "new", "dev").stderr()).contains("Workspace \"dev\" already exists");
        assertThat(cli.run("workspace", "new", "a/b").stderr())
                .isEqualTo("\nThe workspace name \"a/b\" is not allowed. The name must contain only URL safe\n"
                        + "characters, and no path separators.\n\n");
        assertThat(cli.run("workspace", "delete", "default").stderr()).isEqualTo("cannot delete default state\n");
        assertThat(cli.run("workspace", "list").stdout()).isEqualTo("  default\n* dev\n\n");
        assertThat(cli.run("workspace", "show").stdout()).isEqualTo("dev\n");

        // A state in dev, written through the commands.
        Files.write(dir.resolve("terraform.tfstate.d/dev/terraform.tfstate"), sample);
        assertThat(cli.run("state", "list").stdout()).contains("module.m.terraform_data.z");
        assertThat(cli.run("workspace", "delete", "dev").stderr()).contains("is your active workspace");
        assertThat(cli.run("workspace", "select", "default").stdout())
                .isEqualTo("Switched to workspace \"default\".\n");
        assertThat(cli.run("workspace", "select", "nope").stderr()).contains("Workspace \"nope\" doesn't exist.");
        CliRunner.Result notEmpty = cli.run("workspace", "delete", "dev");
        assertThat(notEmpty.exitCode()).isEqualTo(1);
        assertThat(notEmpty.stderr()).contains("Workspace is not empty").contains("- terraform_data.a");
        CliRunner.Result forced = cli.run("workspace", "delete", "-force", "dev");
        assertThat(forced.exitCode()).as(forced.toString()).isZero();
        assertThat(forced.stdout()).contains("Deleted workspace \"dev\"!").contains("WARNING: \"dev\" was non-empty.");
        assertThat(dir.resolve("terraform.tfstate.d/dev")).doesNotExist();
        assertThat(cli.run("workspace", "select", "-or-create", "qa").stdout())
                .startsWith("Created and switched to workspace \"qa\"!");
        assertThat(cli.env("TF_WORKSPACE", "ci").run("workspace", "show").stdout())
                .isEqualTo("ci\n");
        assertThat(cli.run("workspace", "select", "default").stderr()).contains("overridden using the TF_WORKSPACE");
    }

    @Test
    void encryptionComesFromTheEnvironment() throws IOException {
        withSample();
        String pass = "a passphrase long enough";
        // Encrypt the existing state: key plus plaintext fallback, then any write encrypts it.
        CliRunner.Result moved = cli.env("STRATA_STATE_PASSPHRASE", pass)
                .env("STRATA_STATE_FALLBACK", "plaintext")
                .run("state", "mv", "terraform_data.a", "terraform_data.a2");
        assertThat(moved.exitCode()).as(moved.toString()).isZero();
        assertThat(Files.readString(dir.resolve("terraform.tfstate")))
                .contains("strata_encrypted_state")
                .doesNotContain("secret-k1");
        CliRunner plain = CliRunner.in(dir);
        CliRunner.Result locked = plain.run("state", "list");
        assertThat(locked.exitCode()).isEqualTo(1);
        assertThat(locked.stderr()).contains("State is encrypted").contains("STRATA_STATE_PASSPHRASE");
        CliRunner keyed = CliRunner.in(dir).env("STRATA_STATE_PASSPHRASE", pass);
        assertThat(keyed.run("state", "list").stdout()).startsWith("terraform_data.a2\n");
        assertThat(keyed.run("state", "pull").stdout())
                .contains("\"serial\": 8")
                .contains("secret-k1");
        assertThat(CliRunner.in(dir)
                        .env("STRATA_STATE_PASSPHRASE", "short")
                        .run("state", "list")
                        .stderr())
                .contains("at least 16 characters");
    }

    @Test
    void replaceProviderRewritesMatchingResources() throws IOException {
        withSample();
        CliRunner.Result none = cli.run("state", "replace-provider", "-auto-approve", "hashicorp/aws", "acme/aws");
        assertThat(none.stdout()).isEqualTo("No matching resources found.\n");
        CliRunner.Result cancelled =
                cli.stdin("no\n").run("state", "replace-provider", "terraform.io/builtin/terraform", "acme/terraform");
        assertThat(cancelled.exitCode()).isEqualTo(1);
        assertThat(cancelled.stdout())
                .contains(
                        "  ~ Updating provider:\n    - terraform.io/builtin/terraform\n"
                                + "    + registry.terraform.io/acme/terraform\n\nChanging 4 resources:\n\n  terraform_data.a\n");
        CliRunner.Result done =
                cli.stdin("yes\n").run("state", "replace-provider", "terraform.io/builtin/terraform", "acme/terraform");
        assertThat(done.exitCode()).as(done.toString()).isZero();
        assertThat(done.stdout()).endsWith("Successfully replaced provider for 4 resources.\n");
        assertThat(onDisk().resources())
                .allSatisfy(r -> assertThat(r.provider().toString())
                        .isEqualTo("provider[\"registry.terraform.io/acme/terraform\"]"));
        assertThat(cli.run("state", "replace-provider", "-auto-approve", "not a provider", "acme/x")
                        .stderr())
                .contains("Invalid provider address");
    }

    @Test
    void unknownSubcommandsSuggest() {
        assertThat(cli.run("state", "lst").stderr()).contains("Did you mean \"list\"?");
        assertThat(cli.run("workspace", "slect").stderr()).contains("Did you mean \"select\"?");
    }
}
