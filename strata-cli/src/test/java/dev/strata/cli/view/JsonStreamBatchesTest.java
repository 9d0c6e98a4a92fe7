package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole {@code apply -json} whose messages are written in batches (the plan's in 64 KB pieces, the
 * apply's by the progress view's thread): every message once, whole on its own line, in the order a
 * line-at-a-time stream would have had.
 */
class JsonStreamBatchesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Enough planned_change messages (about 420 bytes each) for several 64 KB pieces. */
    private static final int N = 400;

    @TempDir
    Path dir;

    @Test
    void aLargeApplyStreamHasEveryMessageOnceInItsPlace() throws Exception {
        Files.writeString(
                dir.resolve("main.tf"),
                "resource \"terraform_data\" \"x\" {\n  count = " + N + "\n  input = count.index\n}\n"
                        + "output \"o\" { value = 1 }\n");
        CliRunner.Result r = CliRunner.in(dir).run("apply", "-auto-approve", "-json");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<String> types = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        for (String line : r.stdout().split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            JsonNode n = JSON.readTree(line);
            types.add(n.path("type").asText());
            messages.add(n.path("@message").asText());
        }
        assertThat(r.stdout()).endsWith("}\n");
        List<String> planned = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            planned.add("terraform_data.x[" + i + "]: Plan to create");
        }
        // The plan's messages in the plan's order, then its summary and outputs.
        assertThat(messages.subList(1, N + 1)).containsExactlyElementsOf(planned);
        assertThat(types.subList(0, N + 3))
                .startsWith("version")
                .endsWith("change_summary", "outputs")
                .containsOnly("version", "planned_change", "change_summary", "outputs");
        // Each operation's start before its end, each once, and the apply's summary and outputs last.
        List<String> applied = messages.subList(N + 3, messages.size() - 2);
        assertThat(applied).hasSize(2 * N).doesNotHaveDuplicates();
        for (int i = 0; i < N; i++) {
            int start = applied.indexOf("terraform_data.x[" + i + "]: Creating...");
            String complete = "terraform_data.x[" + i + "]: Creation complete after ";
            assertThat(start).isNotNegative();
            assertThat(applied.subList(start, applied.size())).anyMatch(m -> m.startsWith(complete));
        }
        assertThat(types.subList(types.size() - 2, types.size())).containsExactly("change_summary", "outputs");
        assertThat(messages.get(messages.size() - 2))
                .isEqualTo("Apply complete! Resources: " + N + " added, 0 changed, 0 destroyed.");
    }
}
