package dev.strata.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestFilesTest {
    @TempDir
    Path dir;

    @Test
    void createsTheFoldersOfTheName() throws Exception {
        Path f = TestFiles.write(dir, "a/b/main.tf", "x = 1\n");
        assertThat(f).isEqualTo(dir.resolve("a/b/main.tf")).hasContent("x = 1");
        assertThat(TestFiles.write(dir, "top.tf", "")).isEmptyFile();
    }
}
