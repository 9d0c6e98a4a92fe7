package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Word splitting of {@code TF_CLI_ARGS}, with the cases checked against terraform 1.11 by hand. */
class ShellWordsTest {
    @Test
    void splitsOnBlanksAndKeepsQuotedText() {
        assertThat(ShellWords.split("  -var  x=1 \t-input=false\n-no-color "))
                .contains(List.of("-var", "x=1", "-input=false", "-no-color"));
        assertThat(ShellWords.split("-var 'x=a \\b' -var \"y=a\\\\b\\\"c\\$d\" z=a\\ b"))
                .contains(List.of("-var", "x=a \\b", "-var", "y=a\\b\"c$d", "z=a b"));
        assertThat(ShellWords.split("x=a\"b c\"d e='' f=\"a'b\"")).contains(List.of("x=ab cd", "e=", "f=a'b"));
        assertThat(ShellWords.split("x=a\\nb \"y=a\\qb\"")).contains(List.of("x=anb", "y=aqb"));
    }

    @Test
    void keepsVariablesBackticksAndCommandSubstitutionsAsWritten() {
        assertThat(ShellWords.split("x=$HOME y=${HOME} z=`a b` w=$(a;b)c"))
                .contains(List.of("x=$HOME", "y=${HOME}", "z=`a b`", "w=$(a;b)c"));
    }

    @Test
    void stopsAtAShellOperator() {
        assertThat(ShellWords.split("x=a;b -y")).contains(List.of("x=a"));
        assertThat(ShellWords.split("x=a | y")).contains(List.of("x=a"));
        assertThat(ShellWords.split("x=a2>b")).contains(List.of("x=a2"));
        assertThat(ShellWords.split("x=a&b")).contains(List.of("x=a"));
        assertThat(ShellWords.split("x=\"a;b\"")).contains(List.of("x=a;b"));
    }

    @Test
    void refusesUnclosedQuotesTrailingBackslashAndBareParentheses() {
        for (String bad : List.of("\"abc", "x='a", "x=a\\", "x=a)", "x=a(b", "x=`a", "x=$(a", "x=a\"")) {
            assertThat(ShellWords.split(bad)).as(bad).isEqualTo(Optional.empty());
        }
        assertThat(ShellWords.split("x=\\(a y='('")).contains(List.of("x=(a", "y=("));
    }
}
