package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adversarial: damaged and foreign saved plans given to {@code apply PLANFILE} (and {@code show}):
 * torn, bit-flipped and altered files, a plan made against another state (another lineage), and a
 * plan whose state has moved on (serial). Each must be refused with exit 1 and a clear error, no
 * Java in the output, the state and its backup byte-identical, nothing written, the lock free.
 * Seeded like {@link StateDamageTest} ({@code -Dstrata.damage.seed}, {@code -Dstrata.plandamage.count}).
 */
class PlanDamageTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path root;

    static Path template;

    static final String CONFIG = """
            resource "terraform_data" "a" {
              count = 2
              input = "VALUE-${count.index}"
            }
            """;

    @BeforeAll
    static void planned() throws IOException {
        template = Files.createDirectories(root.resolve("template"));
        Files.writeString(template.resolve("main.tf"), CONFIG.replace("VALUE", "one"));
        assertThat(CliRunner.in(template)
                        .run("apply", "-auto-approve", "-no-color")
                        .exitCode())
                .isZero();
        Files.writeString(template.resolve("main.tf"), CONFIG.replace("VALUE", "two"));
        assertThat(CliRunner.in(template)
                        .run("apply", "-auto-approve", "-no-color")
                        .exitCode())
                .isZero();
        Files.writeString(template.resolve("main.tf"), CONFIG.replace("VALUE", "three"));
        CliRunner.Result plan = CliRunner.in(template).run("plan", "-out=tf.plan", "-no-color");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout()).contains("2 to change");
    }

    private Path copy(String name) throws IOException {
        Path dir = Files.createDirectories(root.resolve(name));
        for (String f : List.of("main.tf", "terraform.tfstate", "terraform.tfstate.backup", "tf.plan")) {
            Files.copy(template.resolve(f), dir.resolve(f));
        }
        return dir;
    }

    private static List<String> command(Random r) {
        return r.nextInt(4) == 0 ? List.of("show", "-no-color", "tf.plan") : List.of("apply", "-no-color", "tf.plan");
    }

    @Test
    void damagedPlanFilesAreRefusedAndNothingIsWritten() throws Exception {
        int count = Integer.getInteger("strata.plandamage.count", 60);
        long seed = StateDamage.announceSeed("PlanDamageTest", count);
        byte[] good = Files.readAllBytes(template.resolve("tf.plan"));
        StateDamage text = new StateDamage(good, seed);
        Random r = new Random(seed);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int kind = r.nextInt(5);
            StateDamage.Mutant m = switch (kind) {
                case 0 -> text.truncate();
                case 1 -> text.deleteStructural();
                case 2 -> text.flipStructural();
                case 3 -> altered(good, r);
                default -> valueChanged(good, r);
            };
            Path dir = copy("p" + i);
            Files.write(dir.resolve("tf.plan"), m.bytes());
            // A plan of another workspace or configuration is still readable: only applying it is wrong.
            List<String> cmd = kind >= 3 ? List.of("apply", "-no-color", "tf.plan") : command(r);
            try {
                String problem = StateDamageTest.refusedAndUntouched(dir, cmd);
                if (problem != null) {
                    failures.add("#" + i + " " + m + " | strata " + String.join(" ", cmd) + ": " + problem);
                }
            } finally {
                StateDamageTest.deleteTree(dir);
            }
        }
        assertThat(failures).as("seed " + seed).isEmpty();
    }

    /** A well-formed plan file with one part changed so that it no longer belongs here. */
    private static StateDamage.Mutant altered(byte[] good, Random r) throws IOException {
        List<String> names = List.of(
                "magic", "format", "mode", "plan removed", "prior_state", "config_hash", "workspace", "targets");
        List<Consumer<ObjectNode>> edits = List.of(
                n -> n.put("magic", "terraform-plan"),
                n -> ((ObjectNode) n.get("plan")).put("format", 99),
                n -> ((ObjectNode) n.get("plan")).put("mode", "EVERYTHING"),
                n -> n.remove("plan"),
                n -> ((ObjectNode) n.get("plan")).put("prior_state", "{\"version\": 4, \"resources\": 1}"),
                n -> n.put("config_hash", "0".repeat(64)),
                n -> n.put("workspace", "elsewhere"),
                n -> n.putArray("targets").add("not an address["));
        int k = r.nextInt(edits.size());
        ObjectNode n = (ObjectNode) JSON.readTree(good);
        edits.get(k).accept(n);
        return new StateDamage.Mutant("altered: " + names.get(k), JSON.writeValueAsBytes(n), StateDamage.Layer.CODEC);
    }

    /** One planned value changed in place: still valid JSON, still the same size, no longer what was reviewed. */
    private static StateDamage.Mutant valueChanged(byte[] good, Random r) {
        String text = new String(good, java.nio.charset.StandardCharsets.UTF_8);
        List<Integer> at = new ArrayList<>();
        for (int i = text.indexOf("three-"); i >= 0; i = text.indexOf("three-", i + 1)) {
            at.add(i);
        }
        int i = at.get(r.nextInt(at.size()));
        String changed = text.substring(0, i) + "thre3-" + text.substring(i + "three-".length());
        return new StateDamage.Mutant(
                "planned value at char " + i + " changed in place",
                changed.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                StateDamage.Layer.CODEC);
    }

    @Test
    void aPlanOfAnotherStateLineageIsRefused() throws Exception {
        // The same configuration applied elsewhere: a state of its own lineage, planned there.
        Path other = Files.createDirectories(root.resolve("other"));
        Files.writeString(other.resolve("main.tf"), CONFIG.replace("VALUE", "one"));
        assertThat(CliRunner.in(other)
                        .run("apply", "-auto-approve", "-no-color")
                        .exitCode())
                .isZero();
        Files.writeString(other.resolve("main.tf"), CONFIG.replace("VALUE", "three"));
        assertThat(CliRunner.in(other).run("plan", "-out=tf.plan", "-no-color").exitCode())
                .isZero();

        Path dir = copy("lineage");
        Files.copy(other.resolve("tf.plan"), dir.resolve("tf.plan"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String problem = StateDamageTest.refusedAndUntouched(dir, List.of("apply", "-no-color", "tf.plan"));
        assertThat(problem).isNull();
        CliRunner.Result r = CliRunner.in(dir).run("apply", "-no-color", "tf.plan");
        assertThat(r.stderr()).contains("lineage");
    }

    @Test
    void aPlanWhoseStateMovedOnIsRefused() throws Exception {
        Path dir = copy("serial");
        // Someone applied something else after the plan was made: the state's serial moved on.
        Files.writeString(dir.resolve("main.tf"), CONFIG.replace("VALUE", "four"));
        assertThat(CliRunner.in(dir).run("apply", "-auto-approve", "-no-color").exitCode())
                .isZero();
        Files.writeString(dir.resolve("main.tf"), CONFIG.replace("VALUE", "three"));
        String problem = StateDamageTest.refusedAndUntouched(dir, List.of("apply", "-no-color", "tf.plan"));
        assertThat(problem).isNull();
        CliRunner.Result r = CliRunner.in(dir).run("apply", "-no-color", "tf.plan");
        assertThat(r.stderr()).contains("stale");
    }
}
