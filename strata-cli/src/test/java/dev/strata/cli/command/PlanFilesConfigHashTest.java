package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanFilesConfigHashTest {
    @TempDir
    Path dir;

    private String hash(String json, String sites) throws IOException {
        Files.writeString(dir.resolve("main.tf.json"), json);
        Files.writeString(dir.resolve("main.tf.json.sites"), sites);
        ConfigTree tree =
                ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT).value();
        assertThat(tree.files()).containsKey("main.tf.json.sites");
        return PlanFiles.configHash(tree);
    }

    @Test
    void aSourceMapIsNotPartOfTheConfigurationASavedPlanIsCheckedAgainst() throws IOException {
        String json = "{\"output\": {\"x\": {\"value\": 1}}}\n";
        String before = hash(json, "{\"sites\": [{\"from\": 1, \"to\": 1, \"file\": \"A.java\", \"line\": 3}]}");
        // The program moved a line: the same configuration, so a saved plan still applies.
        String moved = hash(json, "{\"sites\": [{\"from\": 1, \"to\": 1, \"file\": \"A.java\", \"line\": 9}]}");
        assertThat(moved).isEqualTo(before);
        assertThat(hash("{\"output\": {\"x\": {\"value\": 2}}}\n", "{\"sites\": []}"))
                .isNotEqualTo(before);
    }
}
