package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One Go duration parser for -lock-timeout, resource timeouts and timeadd; the texts are Terraform 1.11's. */
class GoDurationTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0|PT0S",
                "+0|PT0S",
                "10s|PT10S",
                "1m30s|PT1M30S",
                "1.5h|PT1H30M",
                "300ms|PT0.3S",
                "2.ns|PT0.000000002S",
                ".5s|PT0.5S",
                "1us|PT0.000001S",
                "1\u00b5s|PT0.000001S",
                "1\u03bcs|PT0.000001S",
                "1.5ns|PT0.000000001S"
            })
    void flagsAndTimeoutsTakeGoDurations(String text, String expected) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"''", "10", "1d", "-5s", "-0", "1..5s", ".s", "+"})
    void flagsRefuseMalformedAndNegativeDurations(String text) {
        assertThat(GoDuration.parse(text)).isNull();
    }

    @org.junit.jupiter.api.Test
    void aFlagBeyondWhatADurationHoldsWaitsForever() {
        assertThat(GoDuration.parse("3000000h")).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"-1.5h|2023-12-31T22:30:00Z", "+1h|2024-01-01T01:00:00Z", "1h30m|2024-01-01T01:30:00Z"})
    void timeaddTakesSignedDurations(String duration, String expected) {
        assertThat(DateTimeFuncs.rfc3339(java.time.OffsetDateTime.parse("2024-01-01T00:00:00Z")
                        .plus(DateTimeFuncs.parseDuration(duration))))
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "10|time: missing unit in duration \"10\"",
                "1d|time: unknown unit \"d\" in duration \"1d\"",
                "''|time: invalid duration \"\"",
                "3000000h|time: invalid duration \"3000000h\""
            })
    void timeaddErrorsAreGos(String duration, String message) {
        assertThatThrownBy(() -> DateTimeFuncs.parseDuration(duration))
                .isInstanceOf(FunctionError.class)
                .hasMessageContaining(message);
    }
}
