package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigFilesTest {
    @TempDir
    Path dir;

    @Test
    void matchingFilesInLexicalOrderWithoutHiddenBackupAndLockFiles() throws Exception {
        for (String n : new String[] {"b.tf", "a.tf.json", ".hidden.tf", "main.tf~", "#main.tf#", "notes.txt"}) {
            Files.writeString(dir.resolve(n), "");
        }
        Files.createDirectories(dir.resolve("dir.tf"));
        assertThat(ConfigFiles.list(dir, n -> n.endsWith(".tf") || n.endsWith(".tf.json") || n.endsWith("#")))
                .containsExactly(dir.resolve("a.tf.json"), dir.resolve("b.tf"));
    }

    @Test
    void aMissingDirectoryHasNoFiles() {
        assertThat(ConfigFiles.list(dir.resolve("missing"), n -> true)).isEmpty();
    }
}
