package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.hcl.Diagnostics;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan JSON's document-level fields, which the differential tests normalise away. */
class PlanJsonTest {
    @TempDir
    Path dir;

    @Test
    void theTimestampIsThePlansOwnInRfc3339WithoutFraction() throws IOException {
        Files.writeString(dir.resolve("main.tf"), "output \"o\" { value = 1 }\n");
        ConfigTree tree =
                ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT).value();
        Plan plan = new Plan(
                PlanMode.NORMAL,
                StateSnapshot.empty("test"),
                new TreeMap<>(),
                List.of(),
                List.of(),
                List.of(),
                new TreeMap<>(),
                List.of(),
                Diagnostics.of(),
                Instant.parse("2024-05-06T07:08:09Z"));

        ObjectNode json = PlanJson.of(plan, tree, "1.2.3");

        assertThat(json.get("format_version").asText()).isEqualTo("1.2");
        assertThat(json.get("terraform_version").asText()).isEqualTo("1.2.3");
        assertThat(json.get("timestamp").asText()).isEqualTo("2024-05-06T07:08:09Z");
        assertThat(json.get("applyable").asBoolean()).isFalse();
        assertThat(json.get("complete").asBoolean()).isTrue();
    }
}
