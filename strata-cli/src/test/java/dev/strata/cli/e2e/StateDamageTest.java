package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.state.LocalBackend;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adversarial: damaged state files driven through the real CLI (in-process). Every mutant from
 * {@link StateDamage} (200 per run; {@code -Dstrata.damage.count=N}, {@code -Dstrata.damage.seed=S}
 * to replay the seed printed) must end with a clear error and exit 1, no stack trace or Java class
 * name in the output, the state file and its backup byte-identical, no other file written, and the
 * lock released (the next command can lock).
 */
class StateDamageTest {
    private static final Pattern JAVA_LEAK = Pattern.compile(
            "Exception|\\tat |\\b(java|javax|jdk|sun|com|dev|org)\\.[a-z]+\\.[A-Za-z]|StackOverflow|OutOfMemory");

    @TempDir
    static Path root;

    static Path template;

    static final String CONFIG = """
            resource "terraform_data" "a" {
              count = 2
              input = { name = "n${count.index}", tags = ["x", "y"] }
            }
            resource "terraform_data" "b" {
              input            = terraform_data.a[0].output.name
              triggers_replace = [VERSION]
            }
            output "o" {
              value = terraform_data.b.output
            }
            """;

    @BeforeAll
    static void baseline() throws IOException {
        template = Files.createDirectories(root.resolve("template"));
        Files.writeString(template.resolve("main.tf"), CONFIG.replace("VERSION", "1"));
        CliRunner.Result first = CliRunner.in(template).run("apply", "-auto-approve", "-no-color");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        // A second change, so that a backup exists to be named and kept.
        Files.writeString(template.resolve("main.tf"), CONFIG.replace("VERSION", "2"));
        CliRunner.Result second = CliRunner.in(template).run("apply", "-auto-approve", "-no-color");
        assertThat(second.exitCode()).as(second.toString()).isZero();
        assertThat(template.resolve("terraform.tfstate.backup")).exists();
    }

    /** Commands that read the state: those that plan reach the schema check, the others stop at the codec. */
    private static final List<List<String>> PLANNING = List.of(
            List.of("plan", "-no-color"),
            List.of("apply", "-auto-approve", "-no-color"),
            List.of("destroy", "-auto-approve", "-no-color"),
            List.of("refresh", "-no-color"),
            List.of("plan", "-refresh=false", "-no-color"));

    private static final List<List<String>> READING = List.of(
            List.of("state", "rm", "-no-color", "terraform_data.b"),
            List.of("state", "mv", "-no-color", "terraform_data.b", "terraform_data.c"),
            List.of("state", "list"),
            List.of("state", "show", "-no-color", "terraform_data.b"),
            List.of("output", "-no-color"),
            List.of("show", "-no-color"),
            List.of("import", "-no-color", "terraform_data.z", "x"));

    @Test
    void everyDamagedStateIsRefusedAndLeftAsItWas() throws Exception {
        int count = Integer.getInteger("strata.damage.count", 200);
        long seed = StateDamage.announceSeed("StateDamageTest", count);
        byte[] good = Files.readAllBytes(template.resolve("terraform.tfstate"));
        StateDamage damage = new StateDamage(good, seed);
        java.util.Random pick = new java.util.Random(seed ^ 0x5eed);
        List<String> failures = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            StateDamage.Mutant m = i == 0 ? damage.duplicateResource() : damage.next();
            List<List<String>> commands = new ArrayList<>(PLANNING);
            if (m.layer() == StateDamage.Layer.CODEC) {
                commands.addAll(READING);
            }
            List<String> command = commands.get(pick.nextInt(commands.size()));
            String problem = check(i, m, command);
            if (problem != null) {
                failures.add("#" + i + " " + m + " | strata " + String.join(" ", command) + ": " + problem);
            }
        }
        System.out.printf("StateDamageTest: %d mutants in %.1f s%n", count, (System.nanoTime() - start) / 1e9);
        assertThat(failures).as("seed " + seed).isEmpty();
    }

    /** Runs one mutant; the problem found, or null. */
    private static String check(int i, StateDamage.Mutant m, List<String> command) throws IOException {
        Path dir = Files.createDirectories(root.resolve("m" + i));
        Files.copy(template.resolve("main.tf"), dir.resolve("main.tf"));
        Files.copy(template.resolve("terraform.tfstate.backup"), dir.resolve("terraform.tfstate.backup"));
        Files.write(dir.resolve("terraform.tfstate"), m.bytes());
        try {
            return refusedAndUntouched(dir, command);
        } finally {
            deleteTree(dir);
        }
    }

    /**
     * Runs {@code command} in {@code dir}; what is wrong with the outcome, or null when it was refused
     * with exit 1 and a clear error, without Java in the output, nothing written, and the lock free.
     */
    static String refusedAndUntouched(Path dir, List<String> command) throws IOException {
        Map<String, byte[]> before = files(dir);
        CliRunner.Result r = CliRunner.in(dir).run(command.toArray(String[]::new));
        String out = r.stdout() + r.stderr();
        if (r.exitCode() != 1) {
            return "exit " + r.exitCode() + "\n" + out;
        }
        if (!r.stderr().contains("Error: ")) {
            return "no error message\n" + out;
        }
        if (JAVA_LEAK.matcher(out).find()) {
            return "Java leaks into the output\n" + out;
        }
        Map<String, byte[]> after = files(dir);
        if (!after.keySet().equals(before.keySet())) {
            return "files changed: " + before.keySet() + " -> " + after.keySet();
        }
        for (var e : before.entrySet()) {
            if (!java.util.Arrays.equals(e.getValue(), after.get(e.getKey()))) {
                return e.getKey() + " was rewritten";
            }
        }
        Result<StateManager> probe =
                LocalBackend.in(dir, "probe").open("default", LockRequest.of("probe", Duration.ZERO));
        if (probe.value() != null) {
            probe.value().close();
        }
        for (Diagnostic d : probe.diagnostics().asList()) {
            if (d.summary().contains("lock")) {
                return "the next command cannot lock: " + d.summary() + ": " + d.detail();
            }
        }
        return null;
    }

    static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return out;
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
