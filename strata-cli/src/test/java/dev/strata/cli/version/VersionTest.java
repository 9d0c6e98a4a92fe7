package dev.strata.cli.version;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VersionTest {
    @Test
    void versionIsFilteredFromThePom() {
        assertThat(Version.current()).matches("\\d+\\.\\d+\\.\\d+(-dev)?");
    }
}
