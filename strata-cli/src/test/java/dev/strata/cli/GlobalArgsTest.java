package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class GlobalArgsTest {

    private static GlobalArgs ok(String... args) {
        GlobalArgs.Outcome o = GlobalArgs.parse(List.of(args));
        assertThat(o).isInstanceOf(GlobalArgs.Outcome.Parsed.class);
        return ((GlobalArgs.Outcome.Parsed) o).args();
    }

    private static GlobalArgs.Outcome.Invalid bad(String... args) {
        GlobalArgs.Outcome o = GlobalArgs.parse(List.of(args));
        assertThat(o).isInstanceOf(GlobalArgs.Outcome.Invalid.class);
        return (GlobalArgs.Outcome.Invalid) o;
    }

    @Test
    void subcommandAndItsArgumentsAreSplitOff() {
        GlobalArgs g = ok("fmt", "-check", "dir");
        assertThat(g.subcommand()).isEqualTo("fmt");
        assertThat(g.rest()).containsExactly("-check", "dir");
        assertThat(g.chdir()).isNull();
        assertThat(g.help()).isFalse();
    }

    @Test
    void chdirTakesItsValueAfterEquals() {
        assertThat(ok("-chdir=infra/prod", "plan").chdir()).isEqualTo("infra/prod");
        assertThat(ok("--chdir=x", "plan").chdir()).isEqualTo("x");
    }

    @Test
    void chdirWithoutEqualsOrValueIsRefused() {
        assertThat(bad("-chdir", "x", "plan").diagnostic().summary()).isEqualTo("Invalid -chdir option");
        assertThat(bad("-chdir=", "plan").diagnostic().detail()).contains("-chdir=infra");
    }

    @Test
    void helpSpellings() {
        for (String h : List.of("-help", "-h", "--help")) {
            GlobalArgs g = ok(h);
            assertThat(g.help()).as(h).isTrue();
            assertThat(g.subcommand()).isNull();
        }
        GlobalArgs forCommand = ok("-help", "version");
        assertThat(forCommand.help()).isTrue();
        assertThat(forCommand.subcommand()).isEqualTo("version");
    }

    @Test
    void versionFlagBecomesTheVersionCommandWithTheRestAsItsArguments() {
        for (String v : List.of("-version", "--version", "-v")) {
            GlobalArgs g = ok("-chdir=a", v, "-json");
            assertThat(g.subcommand()).as(v).isEqualTo("version");
            assertThat(g.rest()).containsExactly("-json");
            assertThat(g.chdir()).isEqualTo("a");
        }
    }

    @Test
    void unknownFlagsBeforeTheSubcommandAreNamedWithAHint() {
        GlobalArgs.Outcome.Invalid i = bad("-json", "version");
        assertThat(i.diagnostic().summary()).isEqualTo("Unknown global option -json");
        assertThat(i.diagnostic().detail()).contains("strata version -json");
        assertThat(i.subcommand()).isEqualTo("version");
        assertThat(bad("-a", "-b").diagnostic().summary()).isEqualTo("Unknown global options -a, -b");
    }

    @Test
    void noArgumentsMeansNoSubcommand() {
        GlobalArgs g = ok();
        assertThat(g.subcommand()).isNull();
        assertThat(g.rest()).isEmpty();
    }

    @Test
    void doubleDashEndsGlobalOptions() {
        GlobalArgs g = ok("--", "-weird");
        assertThat(g.subcommand()).isEqualTo("-weird");
    }
}
