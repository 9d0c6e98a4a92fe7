package dev.strata.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProcessesTest {
    @Test
    void collectsStdoutAndStderrApartAndFeedsStdin() throws Exception {
        ProcessResult r = Processes.run(
                new ProcessBuilder("sh", "-c", "cat; echo oops >&2; exit 3"), "in\n", Duration.ofSeconds(30));
        assertThat(r).isEqualTo(new ProcessResult(3, "in\n", "oops\n"));
    }

    @Test
    void mergedStderrComesInTheOrderWritten() throws Exception {
        ProcessResult r = Processes.run(
                new ProcessBuilder("sh", "-c", "echo a; echo b >&2; echo c").redirectErrorStream(true),
                null,
                Duration.ofSeconds(30));
        assertThat(r).isEqualTo(new ProcessResult(0, "a\nb\nc\n", ""));
    }

    @Test
    void aProcessPastItsTimeIsKilledAndReported() {
        assertThatThrownBy(() ->
                        Processes.run(new ProcessBuilder("sh", "-c", "exec sleep 30"), null, Duration.ofMillis(300)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("did not finish in 0 s");
    }
}
