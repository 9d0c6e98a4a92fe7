package dev.strata.state;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code terraform} binary as a test oracle, run offline. Tests that use it are skipped (not
 * failed) on machines without it; the committed fixtures keep the codec covered there.
 */
final class Terraform {
    private Terraform() {}

    static Path binary() {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path p = Path.of(dir, "terraform");
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    static void assumeAvailable() {
        assumeThat(binary()).as("terraform on PATH").isNotNull();
    }

    record Run(int exitCode, String output) {}

    /** Runs terraform in {@code dir}, offline and without a CLI config, bounded to two minutes. */
    static Run run(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(binary().toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("CHECKPOINT_DISABLE", "1");
        pb.environment().put("TF_IN_AUTOMATION", "1");
        pb.environment().put("TF_CLI_CONFIG_FILE", "/dev/null");
        pb.environment().put("NO_COLOR", "1");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("terraform " + String.join(" ", args) + " did not finish");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
