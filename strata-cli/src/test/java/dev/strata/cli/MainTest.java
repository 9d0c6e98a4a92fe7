package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MainTest {
    @Test
    void versionIsFilteredFromThePom() {
        assertThat(Version.current()).matches("\\d+\\.\\d+\\.\\d+(-dev)?");
    }
}
