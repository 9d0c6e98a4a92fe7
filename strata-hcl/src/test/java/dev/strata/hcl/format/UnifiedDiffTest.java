package dev.strata.hcl.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link UnifiedDiff} prints what {@code terraform fmt -diff} prints, which is GNU
 * {@code diff -u} with {@code old/} and {@code new/} labels. The expectations below were printed by
 * Terraform 1.11; the differential part runs the system's {@code diff} when there is one, on scattered
 * line edits, where a minimal diff and GNU diff's heuristics agree.
 */
class UnifiedDiffTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void equalFilesHaveNoDiff() {
        assertThat(UnifiedDiff.of("a.tf", b("x = 1\n"), b("x = 1\n"))).isEmpty();
    }

    @Test
    void asTerraformPrintsIt() {
        String before = "a=1\nbb = 2\n\nresource x y {\nz=\"${v}\"\n}\n# end\n";
        byte[] after = Formatter.format(b(before), "main.tf").value();
        assertThat(UnifiedDiff.of("main.tf", b(before), after)).isEqualTo("""
                --- old/main.tf
                +++ new/main.tf
                @@ -1,7 +1,7 @@
                -a=1
                +a  = 1
                 bb = 2
                \s
                -resource x y {
                -z="${v}"
                +resource "x" "y" {
                +  z = v
                 }
                 # end
                """);
    }

    @Test
    void missingFinalNewlineIsMarked() {
        assertThat(UnifiedDiff.of("sub/n.tf", b("x=1"), b("x = 1"))).isEqualTo("""
                --- old/sub/n.tf
                +++ new/sub/n.tf
                @@ -1 +1 @@
                -x=1
                \\ No newline at end of file
                +x = 1
                \\ No newline at end of file
                """);
    }

    @Test
    void agreesWithGnuDiff(@TempDir Path tmp) throws IOException, InterruptedException {
        assumeTrue(gnuDiffAvailable(), "no diff command");
        Path perturbed = FormatCorpusTest.corpus().resolve("hcl-fmt-perturbed");
        assumeTrue(Files.isDirectory(perturbed), "shared corpus not present");
        List<Path> files = FormatCorpusTest.tfFiles(perturbed);
        Random rnd = new Random(99);
        List<String> failures = new ArrayList<>();
        int compared = 0;
        for (int i = 0; i < files.size(); i += 5) {
            // Scattered small edits. (For wholesale rewrites GNU diff's heuristics, which drop lines
            // frequent in both files from the matching, can pick other common lines than a minimal
            // diff; see UnifiedDiff.)
            byte[] before =
                    Formatter.format(Files.readAllBytes(files.get(i)), "x.tf").value();
            byte[] after = mutateLines(before, rnd);
            String expected = gnuDiff(tmp, before, after);
            String actual = UnifiedDiff.of("x.tf", before, after);
            compared++;
            if (!expected.equals(actual) && failures.size() < 3) {
                failures.add(files.get(i) + "\n--- expected\n" + expected + "\n--- actual\n" + actual);
            }
        }
        assertThat(compared).isGreaterThan(50);
        assertThat(failures).isEmpty();
    }

    private static byte[] mutateLines(byte[] text, Random rnd) {
        List<String> lines = new ArrayList<>(List.of(new String(text, StandardCharsets.UTF_8).split("\n", -1)));
        for (int n = 1 + rnd.nextInt(4); n > 0 && lines.size() > 2; n--) {
            int at = rnd.nextInt(lines.size() - 1);
            switch (rnd.nextInt(3)) {
                case 0 -> lines.remove(at);
                case 1 -> lines.add(at, "# inserted " + n);
                default -> lines.set(at, lines.get(at) + " # changed");
            }
        }
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    private static boolean gnuDiffAvailable() {
        try {
            Process p = new ProcessBuilder("diff", "--version")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(10, TimeUnit.SECONDS) && out.contains("GNU");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String gnuDiff(Path tmp, byte[] before, byte[] after) throws IOException, InterruptedException {
        Path f1 = Files.write(tmp.resolve("old"), before);
        Path f2 = Files.write(tmp.resolve("new"), after);
        Process p = new ProcessBuilder(
                        "diff", "--label=old/x.tf", "--label=new/x.tf", "-u", f1.toString(), f2.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
