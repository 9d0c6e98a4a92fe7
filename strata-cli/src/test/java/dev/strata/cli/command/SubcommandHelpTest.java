package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** -help after a subcommand shows that subcommand's help, as Terraform does. */
class SubcommandHelpTest {
    @TempDir
    Path dir;

    @Test
    void stateListHelpIsAboutList() {
        CliRunner.Result r = CliRunner.in(dir).run("state", "list", "-help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout())
                .startsWith("Usage: strata [global options] state list [-id=ID] [-history] [ADDRESS...]")
                .contains("List resource instances")
                .contains("-id=");
        assertThat(r.stdout()).doesNotContain("replace-provider");
    }

    @Test
    void theParentsHelpStillListsEverySubcommand() {
        CliRunner.Result r = CliRunner.in(dir).run("state", "-help");
        assertThat(r.stdout())
                .startsWith("Usage: strata [global options] state <subcommand>")
                .contains("list [-id=ID] [-history] [ADDRESS...]: list resource instances")
                .contains("replace-provider [-auto-approve]");
        assertThat(CliRunner.in(dir).run("workspace", "delete", "-h").stdout())
                .startsWith("Usage: strata [global options] workspace delete [-force]")
                .contains("-force");
    }

    @Test
    void helpAnywhereInAPlainCommandIsStillThatCommandsHelp() {
        assertThat(CliRunner.in(dir).run("fmt", "somedir", "-help").stdout())
                .startsWith("Usage: strata [global options] fmt [options] [target...]");
    }

    @Test
    void missingUnknownAndMisusedSubcommandsAreErrorsWithAWayOut() {
        CliRunner.Result missing = CliRunner.in(dir).run("workspace", "-no-color");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.stderr())
                .contains("Missing subcommand")
                .contains("Use one of: delete, list, new, select, show.");
        CliRunner.Result typo = CliRunner.in(dir).run("state", "lst", "-no-color");
        assertThat(typo.exitCode()).isEqualTo(1);
        assertThat(typo.stderr()).contains("Unknown subcommand \"state lst\"").contains("Did you mean \"list\"?");
        CliRunner.Result badFlag = CliRunner.in(dir).run("state", "list", "-bogus", "-no-color");
        assertThat(badFlag.exitCode()).isEqualTo(1);
        assertThat(badFlag.stderr()).contains("bogus").contains("Run \"strata state -help\" for the options.");
    }
}
