package dev.strata.hcl.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** Formatting is idempotent: formatting formatted text changes nothing. */
class FormatIdempotenceTest {

    private static byte[] fmt(byte[] src) {
        Result<byte[]> r = Formatter.format(src, "idem.tf");
        return r.hasErrors() ? null : r.value();
    }

    @Property(tries = 500)
    void randomConfigurations(@ForAll long seed) {
        FormatInputs gen = new FormatInputs(seed);
        String text = seed % 2 == 0 ? gen.config() : gen.perturb(gen.config());
        byte[] once = fmt(text.getBytes(StandardCharsets.UTF_8));
        Assume.that(once != null);
        byte[] twice = fmt(once);
        assertThat(twice).as("formatted text must parse").isNotNull();
        assertThat(new String(twice, StandardCharsets.UTF_8)).isEqualTo(new String(once, StandardCharsets.UTF_8));
    }

    @Test
    void corpusFilesWithLegacySyntaxAndPerturbedLayout() throws IOException {
        Path perturbed = FormatCorpusTest.corpus().resolve("hcl-fmt-perturbed");
        assumeTrue(Files.isDirectory(perturbed), "shared corpus not present");
        List<String> failures = new ArrayList<>();
        FormatInputs gen = new FormatInputs(7L);
        for (Path f : FormatCorpusTest.tfFiles(perturbed)) {
            // Legacy forms make Terraform's rewrites fire too: quote-less labels, "${...}" values.
            String text = gen.perturb(Files.readString(f))
                    .replaceAll("(?m)^(\\s*)(resource|data) \"([a-z_]+)\" \"([a-z_]+)\"", "$1$2 $3 $4")
                    .replaceAll("(?m)= (var\\.[a-z_]+)$", "= \"\\${$1}\"");
            byte[] once = fmt(text.getBytes(StandardCharsets.UTF_8));
            if (once == null) {
                continue;
            }
            byte[] twice = fmt(once);
            if (twice == null) {
                failures.add(f + ": formatted text does not parse");
            } else if (!Arrays.equals(once, twice)) {
                failures.add(f + ":\n" + FormatTestSupport.firstDifference(once, twice));
            }
        }
        assertThat(failures).isEmpty();
    }
}
