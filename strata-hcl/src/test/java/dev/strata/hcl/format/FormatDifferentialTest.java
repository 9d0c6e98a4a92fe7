package dev.strata.hcl.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.hcl.HclOracle;
import dev.strata.hcl.Result;
import dev.strata.hcl.syntax.NativeSyntax;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Differential test against HashiCorp's formatter itself, running in node: generated and perturbed
 * inputs are formatted by both and must agree byte for byte. Skipped when node or the oracle's npm
 * packages are missing ({@code cd tools/oracle && npm ci}).
 */
class FormatDifferentialTest {
    private static HclOracle oracle;

    @BeforeAll
    static void startOracle() throws IOException {
        assumeTrue(HclOracle.available(), "node or tools/oracle/node_modules missing");
        oracle = HclOracle.start();
    }

    @AfterAll
    static void stopOracle() {
        if (oracle != null) {
            oracle.close();
        }
    }

    @Test
    void perturbedCorpusFilesFormatLikeHclwrite() throws IOException {
        Path hcl = FormatCorpusTest.corpus().resolve("hcl");
        assumeTrue(Files.isDirectory(hcl), "shared corpus not present");
        List<Path> files = FormatCorpusTest.tfFiles(hcl);
        FormatInputs gen = new FormatInputs(20261125L);
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < files.size(); i += 2) {
            inputs.add(gen.perturb(Files.readString(files.get(i))));
        }
        check(inputs, 150);
    }

    @Test
    void randomConfigurationsFormatLikeHclwrite() throws IOException {
        FormatInputs gen = new FormatInputs(42L);
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            String text = gen.config();
            inputs.add(i % 3 == 0 ? gen.perturb(text) : text);
        }
        check(inputs, 1000);
    }

    /** Formats every input that parses with both formatters; at least {@code minChecked} must. */
    private static void check(List<String> inputs, int minChecked) throws IOException {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (String text : inputs) {
            byte[] src = text.getBytes(StandardCharsets.UTF_8);
            if (NativeSyntax.parseConfig(src, "gen.tf").hasErrors()) {
                continue;
            }
            checked++;
            HclOracle.Reply reply = oracle.format(text);
            if (!reply.ok()) {
                throw new IOException("hclwrite failed: " + reply.error());
            }
            String expected = reply.out().asText();
            String laidOut = new String(Formatter.layout(src), StandardCharsets.UTF_8);
            Result<byte[]> full = Formatter.format(src, "gen.tf");
            String formatted = new String(full.value(), StandardCharsets.UTF_8);
            // The inputs need none of Terraform's rewrites, so terraform fmt = hclwrite here.
            if (!laidOut.equals(expected) || !formatted.equals(expected)) {
                if (failures.size() < 10) {
                    failures.add("input:\n" + text + "\n"
                            + FormatTestSupport.firstDifference(
                                    expected.getBytes(StandardCharsets.UTF_8),
                                    (laidOut.equals(expected) ? formatted : laidOut).getBytes(StandardCharsets.UTF_8)));
                } else {
                    failures.add("(more)");
                }
            }
        }
        System.out.printf(
                "differential: %d inputs, %d parsed and compared, %d failures%n",
                inputs.size(), checked, failures.size());
        assertThat(checked).as("inputs that parsed").isGreaterThanOrEqualTo(minChecked);
        assertThat(failures).as("inputs formatted differently from hclwrite").isEmpty();
    }
}
