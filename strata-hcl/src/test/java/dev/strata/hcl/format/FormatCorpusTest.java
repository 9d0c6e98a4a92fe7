package dev.strata.hcl.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every .tf file of the shared corpora formats byte for byte as HashiCorp's formatter does
 * ({@code .fmt}), or as {@code terraform fmt} does where that differs ({@code .tffmt}). Files the
 * oracle could not format (syntax errors) must be refused and left unchanged.
 */
class FormatCorpusTest {

    static Path corpus() {
        return Path.of(System.getProperty("strata.shared.dir", "../../shared")).resolve("corpus");
    }

    static List<Path> tfFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".tf")).sorted().toList();
        }
    }

    @ParameterizedTest
    @CsvSource({"hcl, hcl-oracle, 400", "hcl-fmt-perturbed, hcl-fmt-perturbed-oracle, 400"})
    void corpusFormatsLikeTerraform(String inputDir, String oracleDir, int minFiles) throws IOException {
        Path in = corpus().resolve(inputDir);
        Path oracle = corpus().resolve(oracleDir);
        assumeTrue(Files.isDirectory(in) && Files.isDirectory(oracle), "shared corpus not present");
        List<Path> files = tfFiles(in);
        assertThat(files).hasSizeGreaterThan(minFiles);
        List<String> failures = new ArrayList<>();
        int compared = 0;
        for (Path f : files) {
            String rel = in.relativize(f).toString();
            byte[] src = Files.readAllBytes(f);
            Path expectedFile = oracle.resolve(rel + ".tffmt");
            if (!Files.exists(expectedFile)) {
                expectedFile = oracle.resolve(rel + ".fmt");
            }
            Result<byte[]> r = Formatter.format(src, rel);
            if (!Files.exists(expectedFile)) {
                if (!r.hasErrors() || !Arrays.equals(r.value(), src)) {
                    failures.add(rel + ": the oracle did not format it (syntax error), but we did");
                }
                continue;
            }
            compared++;
            byte[] expected = Files.readAllBytes(expectedFile);
            if (r.hasErrors()) {
                failures.add(rel + ": refused: " + r.diagnostics());
            } else if (!Arrays.equals(r.value(), expected)) {
                failures.add(rel + ": differs\n" + FormatTestSupport.firstDifference(expected, r.value()));
            }
        }
        System.out.printf(
                "%s: %d files, %d compared with the oracle, %d failures%n",
                inputDir, files.size(), compared, failures.size());
        assertThat(failures)
                .as("corpus files formatted differently from the oracle")
                .isEmpty();
    }
}
