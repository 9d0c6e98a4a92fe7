package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HeapGrowthTest {
    @Test
    void theNextThresholdFollowsTheLiveDataAboveAFloor() {
        assertThat(HeapGrowth.nextThreshold(0)).isEqualTo(HeapGrowth.FLOOR);
        assertThat(HeapGrowth.nextThreshold(100L << 20)).isEqualTo(HeapGrowth.FLOOR);
        assertThat(HeapGrowth.nextThreshold(600L << 20)).isEqualTo(900L << 20);
    }

    @Test
    void theSerialCollectorsOldGenerationStaysNearTheLiveData() throws Exception {
        // 2 GB of garbage promoted with at most 256 MB live: unguarded, the serial collector expands the
        // old generation towards the maximum heap instead of collecting it.
        long unguarded = peakOldMegabytes(false);
        long guarded = peakOldMegabytes(true);
        assertThat(unguarded).isGreaterThan(1000);
        assertThat(guarded).isLessThan(700);
    }

    private static long peakOldMegabytes(boolean guard) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(
                java,
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xms64m",
                "-Xmx3g",
                "-cp",
                System.getProperty("java.class.path"),
                HeapGrowthProbe.class.getName()));
        if (guard) {
            cmd.add("guard");
        }
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        return Long.parseLong(out);
    }

    @Test
    void installingTwiceOrUnderAnotherCollectorIsHarmless() {
        HeapGrowth.limit();
        HeapGrowth.limit();
    }
}
