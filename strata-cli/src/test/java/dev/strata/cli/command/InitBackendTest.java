package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.state.StateCodec;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata init} and the backend: -backend-config, the recorded settings, a changed block, migration. */
class InitBackendTest {
    @TempDir
    Path dir;

    byte[] sample;

    @BeforeEach
    void setUp() throws IOException {
        try (InputStream in = StateCommandsTest.class.getResourceAsStream("sample.tfstate")) {
            sample = in.readAllBytes();
        }
    }

    CliRunner cli() {
        return CliRunner.in(dir);
    }

    void config(String backendBody) throws IOException {
        Files.writeString(dir.resolve("main.tf"), "terraform {\n  backend \"local\" {\n" + backendBody + "  }\n}\n");
    }

    StateSnapshot read(String path) throws IOException {
        return StateCodec.read(Files.readAllBytes(dir.resolve(path)), path, "").value();
    }

    @Test
    void backendConfigArgumentsAndFilesAreMergedAndRecordedForLaterCommands() throws IOException {
        config("");
        Files.createDirectories(dir.resolve("states"));
        Files.write(dir.resolve("states/a.tfstate"), sample);
        CliRunner.Result init = cli().run("init", "-backend-config=path=states/a.tfstate");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout())
                .contains("Initializing the backend...")
                .contains("Successfully configured the backend \"local\"!");
        String recorded = Files.readString(dir.resolve(".terraform/terraform.tfstate"));
        assertThat(recorded)
                .contains("\"type\" : \"local\"")
                .contains("\"path\" : \"states/a.tfstate\"")
                .contains("\"workspace_dir\" : null");
        // Later commands use the recorded setting, which is not in the files.
        CliRunner.Result list = cli().run("state", "list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.stdout()).startsWith("terraform_data.a\n");
        // As Terraform 1.11: an unchanged backend is initialized without a line of its own.
        assertThat(cli().run("init").stdout())
                .startsWith("Initializing the backend...\nInitializing provider plugins...\n")
                .doesNotContain("Successfully configured");

        // The file form, and a later argument overriding an earlier one; -reconfigure switches without copying.
        Files.writeString(
                dir.resolve("dev.tfbackend"), "path          = \"states/b.tfstate\"\nworkspace_dir = \"envs\"\n");
        CliRunner.Result again = cli().run(
                        "init",
                        "-reconfigure",
                        "-backend-config=dev.tfbackend",
                        "-backend-config=path=states/c.tfstate");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(Files.readString(dir.resolve(".terraform/terraform.tfstate")))
                .contains("\"path\" : \"states/c.tfstate\"")
                .contains("\"workspace_dir\" : \"envs\"");
        assertThat(cli().run("state", "list").stderr()).contains("No state file was found!");
        assertThat(cli().run("workspace", "new", "prod").exitCode()).isZero();
        assertThat(dir.resolve("envs/prod")).isDirectory();
    }

    @Test
    void badBackendConfigIsReportedAtItsPlace() throws IOException {
        config("");
        CliRunner.Result r = cli().run("init", "-no-color", "-backend-config=bucket=x");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Invalid backend configuration argument")
                .contains("The backend configuration argument \"bucket\" given on the command line is not\n"
                        + "expected for the selected backend type.\n");
        Files.writeString(dir.resolve("bad.tfbackend"), "path = \"ok\"\nregion = \"eu\"\n");
        CliRunner.Result f = cli().run("init", "-no-color", "-backend-config=bad.tfbackend");
        assertThat(f.exitCode()).isEqualTo(1);
        assertThat(f.stderr())
                .contains("Error: Unsupported argument\n\n  on bad.tfbackend line 2:\n   2: region = \"eu\"\n\n"
                        + "An argument named \"region\" is not expected here.\n");
        assertThat(dir.resolve(".terraform/terraform.tfstate")).doesNotExist();
    }

    @Test
    void aChangedBackendBlockIsDetectedAndMigratedAfterConfirmation() throws IOException {
        config("");
        Files.write(dir.resolve("terraform.tfstate"), sample);
        assertThat(cli().run("workspace", "new", "prod").exitCode()).isZero();
        Files.write(dir.resolve("terraform.tfstate.d/prod/terraform.tfstate"), sample);
        assertThat(cli().run("workspace", "select", "default").exitCode()).isZero();
        assertThat(cli().run("init").exitCode()).isZero();

        config("    path = \"moved/main.tfstate\"\n    workspace_dir = \"moved/envs\"\n");
        CliRunner.Result list = cli().run("state", "list", "-no-color");
        assertThat(list.exitCode()).isEqualTo(1);
        assertThat(list.stderr())
                .contains("Error: Backend configuration changed")
                .contains("on main.tf line 2")
                .contains("   2:   backend \"local\" {")
                .containsIgnoringWhitespaces("strata init -migrate-state")
                .containsIgnoringWhitespaces("strata init -reconfigure");
        CliRunner.Result plainInit = cli().run("init", "-no-color");
        assertThat(plainInit.exitCode()).isEqualTo(1);
        assertThat(plainInit.stderr()).contains("Error: Backend configuration changed");

        CliRunner.Result no = cli().stdin("no\n").run("init", "-migrate-state");
        assertThat(no.exitCode()).isEqualTo(1);
        assertThat(no.stdout())
                .contains("Do you want to copy existing state to the new backend?")
                .contains("default, prod");
        assertThat(no.stderr()).contains("Migration cancelled");
        assertThat(dir.resolve("moved")).doesNotExist();

        CliRunner.Result yes = cli().stdin("yes\n").run("init", "-migrate-state");
        assertThat(yes.exitCode()).as(yes.toString()).isZero();
        assertThat(yes.stdout())
                .contains("copied workspace \"default\" (serial")
                .contains("copied workspace \"prod\"");
        assertThat(read("moved/main.tfstate").sameContentAs(read("terraform.tfstate")))
                .isTrue();
        assertThat(read("moved/envs/prod/terraform.tfstate").lineage())
                .isEqualTo(read("terraform.tfstate.d/prod/terraform.tfstate").lineage());
        assertThat(dir.resolve("terraform.tfstate")).as("the source is kept").exists();
        CliRunner.Result after = cli().run("state", "list");
        assertThat(after.exitCode()).as(after.toString()).isZero();
        assertThat(after.stdout()).startsWith("terraform_data.a\n");

        // Removing the block goes back to terraform.tfstate, again by migration; -force-copy does not ask.
        assertThat(cli().run("state", "rm", "terraform_data.a").exitCode()).isZero();
        Files.writeString(dir.resolve("main.tf"), "# no backend\n");
        assertThat(cli().run("state", "list", "-no-color").stderr())
                .contains("The configuration no longer has a backend block");
        CliRunner.Result back = cli().run("init", "-force-copy");
        assertThat(back.exitCode()).as(back.toString()).isZero();
        assertThat(back.stdout()).doesNotContain("Enter a value");
        assertThat(dir.resolve(".terraform/terraform.tfstate")).doesNotExist();
        assertThat(cli().run("state", "list").stdout()).doesNotContain("terraform_data.a\n");
    }

    @Test
    void firstBackendBlockOffersToCopyTheLocalStateAndInputFalseNeedsForceCopy() throws IOException {
        Files.write(dir.resolve("terraform.tfstate"), sample);
        config("    path = \"new.tfstate\"\n");
        CliRunner.Result noInput = cli().run("init", "-input=false", "-no-color");
        assertThat(noInput.exitCode()).isEqualTo(1);
        assertThat(noInput.stderr()).contains("Error: Confirmation required").contains("-force-copy");
        CliRunner.Result both = cli().run("init", "-reconfigure", "-migrate-state", "-no-color");
        assertThat(both.exitCode()).isEqualTo(1);
        assertThat(both.stderr()).contains("mutually exclusive");
        CliRunner.Result r = cli().run("init", "-input=false", "-force-copy");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(read("new.tfstate").sameContentAs(read("terraform.tfstate"))).isTrue();
    }

    @Test
    void backendFalseSkipsTheBackend() throws IOException {
        config("    path = \"new.tfstate\"\n");
        CliRunner.Result r = cli().run("init", "-backend=false");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).doesNotContain("Initializing the backend");
        assertThat(dir.resolve(".terraform/terraform.tfstate")).doesNotExist();
    }
}
