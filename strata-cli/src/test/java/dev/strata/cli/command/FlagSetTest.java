package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.cli.view.CliDiagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlagSetTest {
    private final FlagSet flags = new FlagSet();
    private final Flag<Boolean> write = flags.bool("write", true, "Write the result.");
    private final Flag<Boolean> check = flags.bool("check", false, "Check only.");
    private final Flag<String> state = flags.string("state", "terraform.tfstate", "PATH", "State file.");
    private final Flag<Integer> parallelism = flags.integer("parallelism", 10, "N", "Concurrent operations.");
    private final Flag<List<String>> vars = flags.repeated("var", "NAME=VALUE", "Set a variable.");

    private ParsedArgs ok(String... args) {
        FlagSet.Outcome o = flags.parse(List.of(args));
        assertThat(o).isInstanceOf(FlagSet.Outcome.Parsed.class);
        return ((FlagSet.Outcome.Parsed) o).args();
    }

    private CliDiagnostic bad(String... args) {
        FlagSet.Outcome o = flags.parse(List.of(args));
        assertThat(o).isInstanceOf(FlagSet.Outcome.Invalid.class);
        return ((FlagSet.Outcome.Invalid) o).diagnostic();
    }

    @Test
    void defaultsWhenAbsent() {
        ParsedArgs a = ok();
        assertThat(a.get(write)).isTrue();
        assertThat(a.get(check)).isFalse();
        assertThat(a.get(state)).isEqualTo("terraform.tfstate");
        assertThat(a.get(parallelism)).isEqualTo(10);
        assertThat(a.get(vars)).isEmpty();
        assertThat(a.isGiven(write)).isFalse();
        assertThat(a.positionals()).isEmpty();
    }

    @Test
    void booleansTakeEqualsTrueOrFalseOrNothing() {
        assertThat(ok("-write=false").get(write)).isFalse();
        assertThat(ok("-write=true").get(write)).isTrue();
        assertThat(ok("-check").get(check)).isTrue();
        ParsedArgs a = ok("-write=false", "-check=false");
        assertThat(a.get(check)).isFalse();
        assertThat(a.isGiven(check)).isTrue();
        assertThat(ok("-check=1").get(check)).isTrue();
        assertThat(ok("-write=F").get(write)).isFalse();
        assertThat(ok("-check=false", "-check").get(check)).isTrue();
        assertThat(ok("-check", "-check=false").get(check)).isFalse();
        assertThat(ok("-state", "-check=false", "-check").get(state)).isEqualTo("-check=false");
    }

    @Test
    void valuesWithEqualsOrSpace() {
        assertThat(ok("-state=a.tfstate").get(state)).isEqualTo("a.tfstate");
        assertThat(ok("-state", "b.tfstate").get(state)).isEqualTo("b.tfstate");
        assertThat(ok("-state=").get(state)).isEmpty();
        assertThat(ok("-state=x=y").get(state)).isEqualTo("x=y");
        assertThat(ok("-parallelism=3").get(parallelism)).isEqualTo(3);
    }

    @Test
    void aBooleanNeverTakesTheNextArgumentAsItsValueAsInGo() {
        ParsedArgs a = ok("-check", "false");
        assertThat(a.get(check)).isTrue();
        assertThat(a.positionals()).containsExactly("false");
    }

    @Test
    void doubleDashSpellingIsTheSameFlag() {
        assertThat(ok("--write=false").get(write)).isFalse();
        assertThat(ok("--state", "s").get(state)).isEqualTo("s");
        assertThat(ok("dir", "--check").positionals()).containsExactly("dir", "--check");
    }

    @Test
    void lastOccurrenceWinsAndRepeatedFlagsCollect() {
        assertThat(ok("-state=a", "-state=b").get(state)).isEqualTo("b");
        assertThat(ok("-var=a=1", "-var", "b=2").get(vars)).containsExactly("a=1", "b=2");
    }

    @Test
    void parsingStopsAtTheFirstPositionalAsInGo() {
        ParsedArgs a = ok("-check", "dir", "-write=false");
        assertThat(a.positionals()).containsExactly("dir", "-write=false");
        assertThat(a.get(write)).isTrue();
    }

    @Test
    void doubleDashEndsFlagsAndSingleDashIsPositional() {
        assertThat(ok("--", "-check").positionals()).containsExactly("-check");
        assertThat(ok("-check", "-").positionals()).containsExactly("-");
        assertThat(ok("-").get(check)).isFalse();
    }

    @Test
    void atFilesAreNotExpanded() {
        assertThat(ok("@/etc/hostname").positionals()).containsExactly("@/etc/hostname");
    }

    @Test
    void unknownFlagIsNamedWithASuggestion() {
        CliDiagnostic d = bad("-wirte=false");
        assertThat(d.severity()).isEqualTo(CliDiagnostic.Severity.ERROR);
        assertThat(d.summary()).isEqualTo("Unknown option -wirte");
        assertThat(d.detail()).contains("Did you mean -write?");
        assertThat(bad("-zzz").detail()).doesNotContain("Did you mean");
    }

    @Test
    void clusteredShortOptionsAreNotGuessed() {
        FlagSet shorts = new FlagSet();
        shorts.bool("a", false, "a");
        shorts.bool("b", false, "b");
        assertThat(shorts.parse(List.of("-ab"))).isInstanceOf(FlagSet.Outcome.Invalid.class);
    }

    @Test
    void badValuesSayWhatIsExpected() {
        assertThat(bad("-write=maybe").detail()).contains("\"maybe\"").contains("true or false");
        assertThat(bad("-parallelism=many").detail()).contains("whole number");
        assertThat(bad("-state").summary()).isEqualTo("Missing value for -state");
    }

    @Test
    void helpIsDetectedAnywhereBeforeDoubleDash() {
        assertThat(FlagSet.wantsHelp(List.of("-help"))).isTrue();
        assertThat(FlagSet.wantsHelp(List.of("dir", "-h"))).isTrue();
        assertThat(FlagSet.wantsHelp(List.of("--help"))).isTrue();
        assertThat(FlagSet.wantsHelp(List.of("--", "-help"))).isFalse();
        assertThat(FlagSet.wantsHelp(List.of("-helpful"))).isFalse();
    }

    @Test
    void reservedAndDuplicateNamesAreRejectedAtDeclaration() {
        assertThatThrownBy(() -> flags.bool("help", false, "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> flags.bool("no-color", false, "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> flags.bool("write", false, "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> flags.bool("-x", false, "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void handlesFromAnotherSetAreRefused() {
        FlagSet other = new FlagSet();
        Flag<Boolean> foreign = other.bool("write", true, "");
        assertThatThrownBy(() -> ok().get(foreign)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void wantsJsonReadsTheWordsAsTheParserWould() {
        assertThat(FlagSet.wantsJson(List.of("-json"))).isTrue();
        assertThat(FlagSet.wantsJson(List.of("-bogus", "--json"))).isTrue();
        assertThat(FlagSet.wantsJson(List.of("-json=true"))).isTrue();
        assertThat(FlagSet.wantsJson(List.of("-json=t", "-x"))).isTrue();
        assertThat(FlagSet.wantsJson(List.of("-json", "-json=false"))).isFalse();
        assertThat(FlagSet.wantsJson(List.of("-json=perhaps"))).isFalse();
        assertThat(FlagSet.wantsJson(List.of("-jsonx", "json"))).isFalse();
        assertThat(FlagSet.wantsJson(List.of("--", "-json"))).isFalse();
    }
}
