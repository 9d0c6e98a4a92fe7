package dev.strata.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class ExecutablesTest {
    @Test
    void findsAProgramEveryPosixSystemHas() {
        assertThat(Executables.onPath("sh"))
                .hasValueSatisfying(p -> assertThat(Files.isExecutable(p)).isTrue());
        assertThat(Executables.isOnPath("sh")).isTrue();
    }

    @Test
    void aMissingProgramIsEmpty() {
        assertThat(Executables.onPath("strata-no-such-program")).isEmpty();
    }
}
