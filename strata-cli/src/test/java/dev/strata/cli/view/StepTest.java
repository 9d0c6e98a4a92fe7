package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The order of list elements and lines in a plan, against what Terraform 1.11 showed for the same change
 * (each row's expectation is its plan, written as {@code =a} kept, {@code -a} removed, {@code +a} added and
 * {@code a>b} changed in place). Upper-case letters stand for objects, which pair up when removed and added
 * at one place.
 */
class StepTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // one length, an old element gone: element by element
                "abc | acd | =a b>c c>d",
                "abc | bcd | a>b b>c c>d",
                "abc | aab | =a b>a c>b",
                "ab  | cd  | a>c b>d",
                // one length, every old element still there: a longest common subsequence
                "abc | cba | -a -b =c +b +a",
                "ab  | ba  | -a =b +a",
                "cc  | cd  | =c -c +d",
                "aa  | ab  | =a -a +b",
                "abba | aaab | =a -b -b =a +a +b",
                // other lengths
                "abc | ac  | =a -b =c",
                "abcd | ac | =a -b =c -d",
                "abcd | ace | =a -b =c -d +e",
                "ab  | xab | +x =a =b",
                "abc | bcde | -a =b =c +d +e",
                "'' | x    | +x",
                "xy | ''   | -x -y",
                // objects pair up between kept elements
                "ffeX | Y  | -f -f -e X>Y",
                "XYe | eZbf | -X -Y =e +Z +b +f",
                "AX | AYZ  | =A X>Y +Z",
            })
    void jsonListsChangeInTerraformsOrder(String before, String after, String expected) {
        assertThat(render(Step.of(chars(before), chars(after), Objects::equals, StepTest::object, true)))
                .isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ab  | ac  | =a -b +c",
                "ab  | a   | =a -b",
                "ab  | s   | -a -b +s",
                "o   | ot  | =o +t",
                "abc | axc | =a -b +x =c",
            })
    void linesNeverChangeInPlace(String before, String after, String expected) {
        assertThat(render(Step.of(chars(before), chars(after), Objects::equals, s -> false, false)))
                .isEqualTo(expected);
    }

    private static boolean object(String s) {
        return Character.isUpperCase(s.charAt(0));
    }

    private static List<String> chars(String s) {
        List<String> out = new ArrayList<>();
        s.chars().forEach(c -> out.add(String.valueOf((char) c)));
        return out;
    }

    private static String render(List<Step<String>> steps) {
        List<String> out = new ArrayList<>();
        for (Step<String> s : steps) {
            out.add(
                    switch (s.kind()) {
                        case KEEP -> "=" + s.after();
                        case CREATE -> "+" + s.after();
                        case DELETE -> "-" + s.before();
                        case UPDATE -> s.before() + ">" + s.after();
                    });
        }
        return String.join(" ", out);
    }
}
