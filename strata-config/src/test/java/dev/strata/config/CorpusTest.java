package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every configuration directory of the shared corpus (real modules from public repositories)
 * validates without language-level errors: the only errors allowed are the documented limitations,
 * remote module sources (not installable yet). Provisioners
 * load (planning refuses them).
 */
class CorpusTest {
    private static final Set<String> ALLOWED = Set.of("Module not installed");

    /**
     * The random provider's examples are documentation snippets that use variables they never
     * declare; Terraform rejects them for the same reason.
     */
    private static boolean knownTrueError(Path dir, Diagnostic d) {
        return corpus().relativize(dir).startsWith("hashicorp__terraform-provider-random")
                && d.summary().equals("Reference to undeclared input variable");
    }

    static Path corpus() {
        return Path.of(System.getProperty("strata.shared.dir", "../../shared")).resolve("corpus/hcl");
    }

    @Test
    void corpusValidatesWithoutFalseErrors() throws IOException {
        assumeTrue(Files.isDirectory(corpus()), "the shared corpus is not available");
        List<Path> dirs;
        try (Stream<Path> s = Files.walk(corpus())) {
            dirs = s.filter(Files::isDirectory)
                    .filter(ConfigLoader::hasConfigFiles)
                    .sorted()
                    .toList();
        }
        assertThat(dirs.size()).isGreaterThan(50);
        List<String> unexpected = new ArrayList<>();
        for (Path d : dirs) {
            Result<ConfigTree> t = ConfigLoader.loadTree(d, Fixtures.OPTIONS);
            Diagnostics ds = t.diagnostics().with(Validator.validate(t.value()));
            for (Diagnostic x : ds) {
                if (x.isError() && !ALLOWED.contains(x.summary()) && !knownTrueError(d, x)) {
                    unexpected.add(corpus().relativize(d) + ": " + x);
                }
            }
        }
        assertThat(unexpected).isEmpty();
    }
}
