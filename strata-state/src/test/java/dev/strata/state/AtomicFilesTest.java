package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole-file writes that go to the channel a slice at a time must still write every byte in order. */
class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void contentLargerThanOneSliceIsWrittenWhole() throws Exception {
        byte[] content = new byte[(3 << 20) + 12_345];
        new Random(7).nextBytes(content);
        Path target = dir.resolve("state.json");
        AtomicFiles.write(target, content);
        assertThat(Files.readAllBytes(target)).isEqualTo(content);
    }

    @Test
    void writeFullyAppendsAfterWhatIsThere() throws Exception {
        Path p = dir.resolve("journal");
        Files.write(p, new byte[] {1, 2});
        byte[] more = new byte[(1 << 20) + 1];
        more[0] = 9;
        more[more.length - 1] = 8;
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            AtomicFiles.writeFully(ch, more);
            AtomicFiles.writeFully(ch, new byte[0]);
        }
        byte[] all = Files.readAllBytes(p);
        assertThat(all).hasSize(2 + more.length);
        assertThat(all[2]).isEqualTo((byte) 9);
        assertThat(all[all.length - 1]).isEqualTo((byte) 8);
    }
}
