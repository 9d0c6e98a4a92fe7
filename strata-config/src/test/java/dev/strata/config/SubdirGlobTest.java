package dev.strata.config;

import static dev.strata.config.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The //subdir of a package as a pattern, as terraform 1.11 expands it (checked against it: "n*" with one match
 * installs it, with two fails, "[" is a syntax error, a missing path is "not found").
 */
class SubdirGlobTest {
    @TempDir
    Path pkg;

    private void tree() {
        write(
                pkg,
                "net/main.tf",
                "",
                "nat/main.tf",
                "",
                "modules/vpc/main.tf",
                "",
                "modules/.hidden/main.tf",
                "",
                "a*b/main.tf",
                "",
                "file.txt",
                "x");
    }

    private String expand(String subdir) throws Exception {
        return SubdirGlob.expand(pkg, subdir);
    }

    private static String failure(ThrowingGlob g) {
        try {
            g.run();
        } catch (SubdirGlob.Failure f) {
            return f.getMessage();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("expanded");
    }

    private interface ThrowingGlob {
        void run() throws Exception;
    }

    @Test
    void literalPathsAreFoundOrNotFound() throws Exception {
        tree();
        assertThat(expand("net")).isEqualTo("net");
        assertThat(expand("modules/vpc")).isEqualTo("modules/vpc");
        // Cleaned as a path is: empty and "." parts go, ".." takes the part before it away.
        assertThat(expand("./modules//vpc/")).isEqualTo("modules/vpc");
        assertThat(expand("modules/../net")).isEqualTo("net");
        assertThat(expand("")).isEmpty();
        assertThat(expand(".")).isEmpty();
        // A file matches (what is there is then found not to be a module directory).
        assertThat(expand("file.txt")).isEqualTo("file.txt");
        assertThat(failure(() -> expand("nope"))).isEqualTo("subdir \"nope\" not found");
        assertThat(failure(() -> expand("net/deeper"))).isEqualTo("subdir \"net/deeper\" not found");
        assertThat(failure(() -> expand("../outside"))).isEqualTo("subdir \"../outside\" not found");
    }

    @Test
    void patternsMustMatchExactlyOnePath() throws Exception {
        tree();
        assertThat(expand("ne*")).isEqualTo("net");
        assertThat(expand("ne?")).isEqualTo("net");
        assertThat(failure(() -> expand("n?t/main.tf"))).isEqualTo("subdir \"n?t/main.tf\" matches multiple paths");
        assertThat(expand("modules/v*")).isEqualTo("modules/vpc");
        assertThat(expand("*/vpc")).isEqualTo("modules/vpc");
        assertThat(expand("n[e]t")).isEqualTo("net");
        assertThat(expand("n[^e]t")).isEqualTo("nat");
        assertThat(expand("n[a-c]t")).isEqualTo("nat");
        assertThat(expand("a\\*b")).isEqualTo("a*b");
        // As Go's filepath.Match: a star matches a leading dot.
        assertThat(expand("modules/.h*")).isEqualTo("modules/.hidden");
        assertThat(failure(() -> expand("n*"))).isEqualTo("subdir \"n*\" matches multiple paths");
        assertThat(failure(() -> expand("modules/*"))).isEqualTo("subdir \"modules/*\" matches multiple paths");
        assertThat(failure(() -> expand("x*"))).isEqualTo("subdir \"x*\" not found");
        // Looking inside a file finds nothing.
        assertThat(failure(() -> expand("file.txt/*"))).isEqualTo("subdir \"file.txt/*\" not found");
    }

    @Test
    void malformedPatternsAreSyntaxErrorsWhateverThePackageHolds() throws Exception {
        for (String bad : new String[] {"[", "n[", "[]", "[^]", "[-a]", "[a-]", "x\\", "nope/[", "net/[z-"}) {
            assertThat(failure(() -> expand(bad))).as(bad).isEqualTo("syntax error in pattern");
        }
        Files.createDirectories(pkg.resolve("]"));
        // A "]" outside a class is an ordinary character.
        assertThat(expand("]")).isEqualTo("]");
    }

    @Test
    void theSubdirIsMadeCleanAsTerraformCleansIt() {
        assertThat(SubdirGlob.clean("a/./b/../c")).containsExactly("a", "c");
        assertThat(SubdirGlob.clean("a/../..")).isNull();
    }
}
