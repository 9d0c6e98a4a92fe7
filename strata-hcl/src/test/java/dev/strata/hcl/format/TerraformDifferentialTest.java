package dev.strata.hcl.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.hcl.Result;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test against the real {@code terraform fmt}, for the rewrites plain HCL formatting
 * does not do: corpus files turned back into legacy syntax (bare labels, {@code "${...}"} values,
 * quoted variable types) and re-spaced, all formatted by one {@code terraform fmt DIR} run. Skipped
 * when {@code terraform} is not on the PATH.
 */
class TerraformDifferentialTest {

    @Test
    void legacySyntaxFormatsLikeTerraform(@TempDir Path dir) throws IOException, InterruptedException {
        Path terraform = Terraform.assumeInstalled();
        Path hcl = FormatCorpusTest.corpus().resolve("hcl");
        assumeTrue(Files.isDirectory(hcl), "shared corpus not present");
        List<Path> sources = FormatCorpusTest.tfFiles(hcl);
        FormatInputs gen = new FormatInputs(2026L);
        Random rnd = new Random(2026L);
        List<byte[]> inputs = new ArrayList<>();
        for (int i = 0; i < sources.size(); i += 3) {
            String text = legacy(Files.readString(sources.get(i)), rnd);
            inputs.add((i % 2 == 0 ? gen.perturb(text) : text).getBytes(StandardCharsets.UTF_8));
        }
        for (int i = 0; i < inputs.size(); i++) {
            Files.write(dir.resolve(String.format("f%04d.tf", i)), inputs.get(i));
        }
        Terraform.at(terraform, dir)
                .mergeStderr()
                .timeout(Duration.ofMinutes(5))
                .run("fmt", "-list=false", dir.toString());

        List<String> failures = new ArrayList<>();
        int rewritten = 0;
        for (int i = 0; i < inputs.size(); i++) {
            byte[] expected = Files.readAllBytes(dir.resolve(String.format("f%04d.tf", i)));
            Result<byte[]> r = Formatter.format(inputs.get(i), "f.tf");
            if (r.hasErrors()) {
                // terraform must have refused it too, leaving it as it was
                if (!Arrays.equals(expected, inputs.get(i))) {
                    failures.add("input " + i + ": we refuse it but terraform formatted it: " + r.diagnostics());
                }
                continue;
            }
            if (!Arrays.equals(Formatter.layout(inputs.get(i)), r.value())) {
                rewritten++;
            }
            if (!Arrays.equals(expected, r.value()) && failures.size() < 5) {
                failures.add("input " + i + " (from " + sources.get(3 * i) + "):\n"
                        + FormatTestSupport.firstDifference(expected, r.value()));
            }
        }
        System.out.printf(
                "terraform differential: %d files, %d needing Terraform's rewrites%n", inputs.size(), rewritten);
        assertThat(rewritten).as("inputs where the rewrites mattered").isGreaterThan(inputs.size() / 2);
        assertThat(failures).isEmpty();
    }

    /** Puts pre-0.12 spellings back, the way old configurations wrote them. */
    private static String legacy(String text, Random rnd) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("(?<=\n)")) {
            String l = line;
            if (rnd.nextInt(2) == 0) {
                l = l.replaceFirst(
                        "^(\\s*)(resource|data|module|variable|output|provider) \"([A-Za-z0-9_]+)\"", "$1$2 $3");
                l = l.replaceFirst("^(\\s*)(resource|data) ([A-Za-z0-9_]+) \"([A-Za-z0-9_]+)\"", "$1$2 $3 $4");
            }
            if (rnd.nextInt(2) == 0) {
                l = l.replaceFirst(
                        "^(\\s*[a-z_]+\\s*=\\s*)((?:var|local|module|data)\\.[A-Za-z0-9_.\\[\\]\"]+)(\\s*)$",
                        "$1\"\\${$2}\"$3");
            }
            l = l.replaceFirst("^(\\s*type\\s*=\\s*)(string)(\\s*)$", "$1\"$2\"$3");
            l = l.replaceFirst("^(\\s*type\\s*=\\s*)(list|map)\\((string)\\)(\\s*)$", "$1\"$2\"$4");
            l = l.replaceFirst("^(\\s*type\\s*=\\s*)(list|map|set)\\(any\\)(\\s*)$", "$1$2$3");
            out.append(l);
        }
        return out.toString();
    }
}
