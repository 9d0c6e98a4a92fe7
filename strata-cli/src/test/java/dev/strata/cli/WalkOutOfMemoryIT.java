package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.testing.StrataJar;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real out-of-memory error in the packaged CLI with a small heap: the apply ends with a clear
 * error and exit 1, what was created before is in the saved state, and the lock is released.
 * Before, the error escaped the walker's worker and the apply hung with the lock held.
 */
class WalkOutOfMemoryIT {
    private static Path jar;

    @TempDir
    Path dir;

    @BeforeAll
    static void findJar() {
        jar = StrataJar.assumePackaged();
    }

    @Test
    void outOfMemoryInAnApplyEndsTheRunWithAClearErrorAndTheStateSaved() throws Exception {
        // The 400 MB string is built only at apply, once terraform_data.a exists, in a 256 MB heap.
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "a" {}
                resource "terraform_data" "big" {
                  input = format("%0400000000d", length(terraform_data.a.id))
                }
                """);
        ProcessBuilder pb = StrataJar.process(jar, dir, List.of("-Xmx256m"), "apply", "-auto-approve", "-no-color");
        Path out = dir.resolve(".out");
        pb.redirectErrorStream(true).redirectOutput(out.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        assertThat(p.waitFor(120, TimeUnit.SECONDS))
                .as("strata finished instead of hanging")
                .isTrue();
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isEqualTo(1);
        assertThat(text.replaceAll("\\s+", " "))
                .contains("Error: Out of memory")
                .contains("Internal error while applying terraform_data.big: out of memory.")
                .contains("Failed: terraform_data.big")
                .doesNotContain("OutOfMemoryError", "java.", "\tat ");
        JsonNode state =
                new ObjectMapper().readTree(dir.resolve("terraform.tfstate").toFile());
        assertThat(state.get("resources")).hasSize(1);
        assertThat(state.at("/resources/0/name").asText()).isEqualTo("a");
        assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
    }
}
