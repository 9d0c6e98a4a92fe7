package dev.strata.hcl.syntax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.HclOracle;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Mutates corpus files at random and checks that we accept or reject each mutant exactly as
 * HashiCorp's parser does, and build the same tree when both accept. Seeded, so failures reproduce.
 */
class ParserDifferentialTest {
    private static HclOracle oracle;

    @BeforeAll
    static void start() throws IOException {
        assumeTrue(HclOracle.available(), "node or the HCL oracle packages are not installed");
        oracle = HclOracle.start();
    }

    @AfterAll
    static void stop() {
        if (oracle != null) {
            oracle.close();
        }
    }

    private static final String[] INSERTS = {
        "{", "}", "[", "]", "(", ")", "\"", "=", ",", "\n", " ", ".", "*", "?", ":", "${", "%{", "~", "!", "-", "#",
        "//", "/*", "*/", "<<EOT\n", "\nEOT\n", "...", "=>", "for ", " in ", "if ", "x", "1", "0.5", "\\", "$${", "&&",
        "||", "==", "<", ">=", "null", "true", "::", "[*]", ".*", ".0", "'", ";", "\t", "\r", "\r\n", "EOT \n",
    };

    static String mutate(String s, Random rnd) {
        int n = 1 + rnd.nextInt(3);
        StringBuilder sb = new StringBuilder(s);
        for (int k = 0; k < n && sb.length() > 0; k++) {
            int at = rnd.nextInt(sb.length());
            switch (rnd.nextInt(4)) {
                case 0 -> sb.deleteCharAt(at);
                case 1 -> sb.insert(at, INSERTS[rnd.nextInt(INSERTS.length)]);
                case 2 -> {
                    int end = Math.min(sb.length(), at + 1 + rnd.nextInt(20));
                    sb.delete(at, end);
                }
                default -> {
                    int end = Math.min(sb.length(), at + 1 + rnd.nextInt(30));
                    String piece = sb.substring(at, end);
                    sb.insert(rnd.nextInt(sb.length()), piece);
                }
            }
        }
        return sb.toString();
    }

    /** Small windows of corpus files, so mutants stay small and failures readable. */
    static List<String> snippets() throws IOException {
        Path hcl = CorpusParseTest.corpus().resolve("hcl");
        List<String> out = new ArrayList<>();
        for (Path f : CorpusParseTest.tfFiles(hcl)) {
            String[] lines = Files.readString(f, StandardCharsets.UTF_8).split("\n", -1);
            for (int i = 0; i < lines.length; i += 12) {
                out.add(String.join("\n", java.util.Arrays.copyOfRange(lines, i, Math.min(lines.length, i + 12)))
                        + "\n");
            }
        }
        return out;
    }

    @Test
    void mutantsAgreeWithOracle() throws IOException {
        assumeTrue(Files.isDirectory(CorpusParseTest.corpus().resolve("hcl")), "shared corpus not present");
        List<String> snippets = snippets();
        Random rnd = new Random(Long.parseLong(System.getenv().getOrDefault("STRATA_FUZZ_SEED", "20261125")));
        List<String> failures = new ArrayList<>();
        int agreedAccept = 0;
        int agreedReject = 0;
        for (int i = 0;
                i < Integer.parseInt(System.getenv().getOrDefault("STRATA_FUZZ_COUNT", "3000")) && failures.size() < 15;
                i++) {
            String src = mutate(snippets.get(rnd.nextInt(snippets.size())), rnd);
            HclOracle.Reply reply = oracle.parse("t.tf", src);
            byte[] bytes = src.getBytes(StandardCharsets.UTF_8);
            Result<HclFile> ours = NativeSyntax.parseConfig(bytes, "t.tf");
            if (!reply.ok() && reply.error() != null && reply.error().startsWith("unable to convert")) {
                continue; // hcl2json itself fails on some shapes (a block and an attribute of one name)
            }
            if (reply.ok() != !ours.hasErrors()) {
                failures.add("case " + i + ": oracle " + (reply.ok() ? "accepts" : "rejects: " + reply.error())
                        + "; we " + (ours.hasErrors() ? "reject: " + ours.diagnostics() : "accept")
                        + "\n---\n" + src + "\n---");
                continue;
            }
            if (reply.ok()) {
                JsonNode actual =
                        new Hcl2JsonShape(bytes).body((SyntaxBody) ours.value().body());
                if (!Hcl2JsonShape.sameJson(actual, reply.out())) {
                    failures.add("case " + i + ": trees differ\n expected " + reply.out() + "\n actual   " + actual
                            + "\n---\n" + src + "\n---");
                    continue;
                }
                agreedAccept++;
            } else {
                agreedReject++;
            }
        }
        assertThat(failures)
                .as("mutants where we disagree with HashiCorp's parser")
                .isEmpty();
        assertThat(agreedAccept).isGreaterThan(100);
        assertThat(agreedReject).isGreaterThan(100);
    }
}
