package dev.strata.hcl.syntax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every .tf file of the shared corpus parses exactly as HashiCorp's parser does: accepted or
 * rejected alike, and for accepted files the same tree, down to the source text of every expression.
 */
class CorpusParseTest {
    static Path corpus() {
        return Path.of(System.getProperty("strata.shared.dir", "../../shared")).resolve("corpus");
    }

    static List<Path> tfFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".tf")).sorted().toList();
        }
    }

    @Test
    void corpusMatchesOracle() throws IOException {
        Path hcl = corpus().resolve("hcl");
        assumeTrue(Files.isDirectory(hcl), "shared corpus not present");
        ObjectMapper om = new ObjectMapper();
        List<String> failures = new ArrayList<>();
        List<Path> files = tfFiles(hcl);
        assertThat(files).hasSizeGreaterThan(400);
        for (Path f : files) {
            String rel = hcl.relativize(f).toString();
            byte[] src = Files.readAllBytes(f);
            Result<HclFile> r = NativeSyntax.parseConfig(src, rel);
            JsonNode expected = om.readTree(
                    corpus().resolve("hcl-oracle").resolve(rel + ".parse.json").toFile());
            if (expected.has("error")) {
                if (!r.hasErrors()) {
                    failures.add(rel + ": accepted, but the oracle rejects it: " + expected.get("error"));
                }
                continue;
            }
            if (r.hasErrors()) {
                failures.add(rel + ": rejected: " + r.diagnostics());
                continue;
            }
            JsonNode actual = new Hcl2JsonShape(src).body((SyntaxBody) r.value().body());
            if (!Hcl2JsonShape.sameJson(actual, expected)) {
                failures.add(rel + ": tree differs\n  expected: " + expected + "\n  actual:   " + actual);
            }
        }
        assertThat(failures).as("corpus files that differ from the oracle").isEmpty();
    }
}
