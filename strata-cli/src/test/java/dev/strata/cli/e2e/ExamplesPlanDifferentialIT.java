package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example directory of the shared corpus ({@code <repo>/examples/<name>}), planned by
 * {@code terraform} 1.11 and by Strata side by side, offline, with the real AWS provider 5.100 against
 * a local {@link CloudSim}, each on its own copy of the repository adapted to 5.100
 * ({@link AwsExamples#adaptTo5}; registry module sources that name a corpus repository read from that
 * copy instead). Each example is classified:
 * <ul>
 * <li><b>identical</b>: the same resource changes and output changes in {@code show -json}, and the
 *     same human plan text ({@code -no-color}; only the data-source progress lines, whose order is a
 *     race, and the tool's name in the apply hint are left out);
 * <li><b>differs</b>: terraform plans it, Strata plans it differently or fails (what differs is
 *     reported);
 * <li><b>terraform cannot plan</b>: offline, terraform itself fails ({@code init}: a registry module
 *     or a provider not available here; {@code plan}: an API the simulator lacks, or an error of the
 *     example itself), so there is nothing to compare.
 * </ul>
 * The test requires exactly the identical set below, and exactly the set whose resource and output
 * changes agree, so that a regression fails, and so does an example that becomes identical (move it
 * into the set and update {@code docs/parity.md}). The table
 * is written to {@code target/parity-report.md} and printed.
 *
 * <p>Slow (terraform and Strata each start the AWS provider for every plannable example: several
 * minutes), hence an IT; it starts its own simulator and works in its own temporary directory, so it
 * can run in a parallel fork. Skipped without terraform, the AWS provider mirror or the corpus.
 */
class ExamplesPlanDifferentialIT {
    private static final String VPC = "terraform-aws-modules__terraform-aws-vpc/examples/";

    /** The examples that plan identically (resource changes, outputs and plan text). */
    private static final Set<String> IDENTICAL = Set.of(
            VPC + "block-public-access",
            VPC + "complete",
            VPC + "ipv6-dualstack",
            VPC + "ipv6-only",
            VPC + "manage-default-vpc",
            VPC + "network-acls",
            VPC + "secondary-cidr-blocks",
            VPC + "separate-route-tables",
            VPC + "simple");

    /** The examples whose resource changes and output changes are identical, whatever the plan text. */
    private static final Set<String> SAME_CHANGES = IDENTICAL;

    private static final Pattern REGISTRY_SOURCE = Pattern.compile(
            "source\\s*=\\s*\"([a-z0-9-]+)/([a-z0-9-]+)/([a-z0-9-]+)(//[^\"]*)?\"([ \\t]*\\n[ \\t]*version[ \\t]*=[ \\t]*\"[^\"]*\")?");
    private static final Pattern READ_PROGRESS = Pattern.compile("^\\S.*: (Reading\\.\\.\\.|Read complete after .*)$");

    @AutoClose
    private static CloudSim sim;

    @TempDir
    static Path work;

    @BeforeAll
    static void startSimulator() throws IOException {
        sim = CloudSim.start(0, null, Knobs.DEFAULT);
    }

    /** What became of one example. */
    sealed interface Outcome {
        record Identical(int resources) implements Outcome {}

        /** {@code sameChanges}: only the plan text differs. */
        record Differs(int resources, boolean sameChanges, String what) implements Outcome {}

        record TerraformCannotPlan(String why) implements Outcome {}
    }

    @Test
    void everyExampleTerraformPlansOfflinePlansIdentically() throws Exception {
        Path terraform = AwsExamples.prerequisites();
        assumeTrue(Files.isDirectory(AwsExamples.corpus()), "no corpus at " + AwsExamples.corpus());
        Path cliConfig = AwsExamples.cliConfig(work);
        Map<String, Outcome> results = new TreeMap<>();
        Map<String, String> timings = new TreeMap<>();
        List<Path> repos;
        try (Stream<Path> s = Files.list(AwsExamples.corpus())) {
            repos = s.filter(p -> Files.isDirectory(p.resolve("examples")))
                    .sorted()
                    .toList();
        }
        for (Path tool : List.of(work.resolve("tf"), work.resolve("st"))) {
            for (Path repo : repos) {
                AwsExamples.adaptTo5(repo, tool.resolve(repo.getFileName().toString()));
            }
        }
        for (Path repo : repos) {
            for (String example : examples(repo)) {
                String name = repo.getFileName() + "/examples/" + example;
                long t0 = System.nanoTime();
                Outcome o = classify(terraform, cliConfig, name);
                results.put(name, o);
                timings.put(name, String.format("%.0f s", (System.nanoTime() - t0) / 1e9));
            }
        }
        String table = table(results, timings);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/parity-report.md"), table);
        System.out.println(table);
        Set<String> identical = new TreeSet<>();
        results.forEach((n, o) -> {
            if (o instanceof Outcome.Identical) {
                identical.add(n);
            }
        });
        Set<String> sameChanges = new TreeSet<>(identical);
        results.forEach((n, o) -> {
            if (o instanceof Outcome.Differs d && d.sameChanges()) {
                sameChanges.add(n);
            }
        });
        assertThat(sameChanges).as(table).isEqualTo(new TreeSet<>(SAME_CHANGES));
        assertThat(identical).as(table).isEqualTo(new TreeSet<>(IDENTICAL));
    }

    /** The example directories of a repository: those under {@code examples/} with {@code .tf} files of their own. */
    private static List<String> examples(Path repo) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(repo.resolve("examples"))) {
            for (Path d : s.filter(Files::isDirectory).sorted().toList()) {
                try (Stream<Path> f = Files.list(d)) {
                    if (f.anyMatch(p -> p.toString().endsWith(".tf"))) {
                        out.add(d.getFileName().toString());
                    }
                }
            }
        }
        return out;
    }

    private Outcome classify(Path terraform, Path cliConfig, String name) throws Exception {
        Path tfDir = work.resolve("tf").resolve(name);
        Path stDir = work.resolve("st").resolve(name);
        for (Path d : List.of(tfDir, stDir)) {
            String missing = localModuleSources(d);
            if (missing != null) {
                return new Outcome.TerraformCannotPlan("calls registry module `" + missing + "`, not in the corpus");
            }
            AwsExamples.simulatorOverride(d, sim.url());
        }
        AwsExamples.Run init = AwsExamples.terraform(terraform, tfDir, cliConfig, "init", "-input=false", "-no-color");
        if (!init.ok()) {
            return new Outcome.TerraformCannotPlan("`init`: " + firstError(init.stderr()));
        }
        AwsExamples.Run plan =
                AwsExamples.terraform(terraform, tfDir, cliConfig, "plan", "-out=tf.plan", "-input=false", "-no-color");
        if (!plan.ok()) {
            return new Outcome.TerraformCannotPlan("`plan`: " + firstError(plan.stderr()));
        }
        AwsExamples.Run show = AwsExamples.terraform(terraform, tfDir, cliConfig, "show", "-json", "tf.plan");
        assertThat(show.exitCode()).as(show.stderr()).isZero();
        JsonNode theirs = AwsExamples.JSON.readTree(show.stdout());
        int resources = theirs.path("resource_changes").size();

        CliRunner strata = CliRunner.in(stDir).env("TF_CLI_CONFIG_FILE", cliConfig.toString());
        CliRunner.Result stInit = strata.run("init", "-input=false", "-no-color");
        if (stInit.exitCode() != 0) {
            return new Outcome.Differs(resources, false, "Strata's `init` fails: " + firstError(stInit.stderr()));
        }
        CliRunner.Result stPlan = strata.run("plan", "-out=tf.plan", "-input=false", "-no-color");
        if (stPlan.exitCode() != 0) {
            return new Outcome.Differs(resources, false, "Strata's `plan` fails: " + firstError(stPlan.stderr()));
        }
        CliRunner.Result stShow = strata.run("show", "-json", "tf.plan");
        assertThat(stShow.exitCode()).as(stShow.toString()).isZero();
        JsonNode ours = AwsExamples.JSON.readTree(stShow.stdout());
        List<String> what = new ArrayList<>();
        difference("resource changes", AwsExamples.changes(theirs), AwsExamples.changes(ours), what);
        difference("output changes", AwsExamples.outputs(theirs), AwsExamples.outputs(ours), what);
        boolean sameChanges = what.isEmpty();
        String text = textDifference(plan.stdout(), stPlan.stdout());
        if (text != null) {
            what.add("plan text: " + text);
        }
        // Both texts are kept for a closer look at what differs.
        Path texts = Files.createDirectories(Path.of("target/parity-plans"));
        Files.writeString(texts.resolve(name.replace('/', '_') + ".terraform.txt"), plan.stdout());
        Files.writeString(texts.resolve(name.replace('/', '_') + ".strata.txt"), stPlan.stdout());
        return what.isEmpty()
                ? new Outcome.Identical(resources)
                : new Outcome.Differs(resources, sameChanges, String.join("; ", what));
    }

    /**
     * Points the registry module calls of the {@code .tf} files in {@code dir} that name a corpus
     * repository ({@code NS/NAME/PROVIDER} is {@code NS__terraform-PROVIDER-NAME}) at that repository's
     * adapted copy next to it; returns the first one that names no corpus repository, or null.
     */
    private static String localModuleSources(Path dir) throws IOException {
        Path root = dir.getParent().getParent().getParent();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".tf")).sorted().toList()) {
                String src = Files.readString(f);
                Matcher m = REGISTRY_SOURCE.matcher(src);
                StringBuilder sb = new StringBuilder();
                while (m.find()) {
                    String repo = m.group(1) + "__terraform-" + m.group(3) + "-" + m.group(2);
                    if (!Files.isDirectory(root.resolve(repo))) {
                        return m.group(1) + "/" + m.group(2) + "/" + m.group(3);
                    }
                    String sub = m.group(4) == null ? "" : m.group(4).substring(1);
                    m.appendReplacement(
                            sb,
                            Matcher.quoteReplacement("source = \"" + dir.relativize(root.resolve(repo)) + sub + "\""));
                }
                m.appendTail(sb);
                Files.writeString(f, sb.toString());
            }
        }
        return null;
    }

    /** The first error's summary and the first line of its detail, from {@code -no-color} output. */
    static String firstError(String stderr) {
        List<String> lines = stderr.lines().map(String::strip).toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("Error: ")) {
                String summary = lines.get(i).substring("Error: ".length());
                for (int j = i + 1; j < lines.size(); j++) {
                    String l = lines.get(j);
                    if (l.isEmpty()
                            || l.startsWith("on ")
                            || l.startsWith("with ")
                            || l.matches("^\\d+:.*")
                            || l.startsWith("├")
                            || l.startsWith("│")) {
                        continue;
                    }
                    return summary + " (" + l + ")";
                }
                return summary;
            }
        }
        return stderr.isBlank()
                ? "no message"
                : stderr.strip().lines().findFirst().orElse("");
    }

    private static void difference(String kind, Map<String, String> theirs, Map<String, String> ours, List<String> out)
            throws IOException {
        List<String> items = new ArrayList<>();
        Set<String> keys = new TreeSet<>(theirs.keySet());
        keys.addAll(ours.keySet());
        for (String k : keys) {
            String a = theirs.get(k);
            String b = ours.get(k);
            if (a == null) {
                items.add(k + " only in Strata's plan");
            } else if (b == null) {
                items.add(k + " missing from Strata's plan");
            } else if (!a.equals(b)) {
                List<String> fields = new ArrayList<>();
                fieldDifferences("", AwsExamples.JSON.readTree(a), AwsExamples.JSON.readTree(b), fields, 2);
                items.add(k + " (" + String.join(", ", fields) + ")");
            }
        }
        if (!items.isEmpty()) {
            int shown = Math.min(items.size(), 4);
            out.add(items.size() + " " + kind + " differ: " + String.join("; ", items.subList(0, shown))
                    + (items.size() > shown ? "; ..." : ""));
        }
    }

    /** The paths (to {@code depth} levels) where two JSON values differ, with both values at the leaves. */
    private static void fieldDifferences(String path, JsonNode a, JsonNode b, List<String> out, int depth) {
        if (a.equals(b)) {
            return;
        }
        if (depth > 0 && a.isObject() && b.isObject()) {
            Set<String> names = new TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                fieldDifferences(path.isEmpty() ? n : path + "." + n, a.path(n), b.path(n), out, depth - 1);
            }
            return;
        }
        out.add(path + ": terraform " + abbreviate(a.toString()) + " vs Strata " + abbreviate(b.toString()));
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    /**
     * The differences between the two plan texts, after {@link #comparable}: how many lines each side
     * has that the other lacks (a longest-common-subsequence diff), and the first few; null when
     * they agree.
     */
    static String textDifference(String theirs, String ours) {
        List<String> a = comparable(theirs);
        List<String> b = comparable(ours);
        int[][] lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<String> hunks = new ArrayList<>();
        int onlyTheirs = 0;
        int onlyOurs = 0;
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
                i++;
                j++;
                continue;
            }
            int line = i + 1;
            List<String> minus = new ArrayList<>();
            List<String> plus = new ArrayList<>();
            while (i < a.size() || j < b.size()) {
                if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
                    break;
                }
                if (j >= b.size() || (i < a.size() && lcs[i + 1][j] >= lcs[i][j + 1])) {
                    minus.add(a.get(i++));
                } else {
                    plus.add(b.get(j++));
                }
            }
            onlyTheirs += minus.size();
            onlyOurs += plus.size();
            hunks.add("at terraform line " + line + ": "
                    + (minus.isEmpty()
                            ? ""
                            : "terraform `"
                                    + abbreviate(String.join(
                                            " ⏎ ",
                                            minus.stream().map(String::strip).toList())) + "`")
                    + (minus.isEmpty() || plus.isEmpty() ? "" : " vs ")
                    + (plus.isEmpty()
                            ? ""
                            : "Strata `"
                                    + abbreviate(String.join(
                                            " ⏎ ",
                                            plus.stream().map(String::strip).toList())) + "`"));
        }
        if (hunks.isEmpty()) {
            return null;
        }
        int shown = Math.min(hunks.size(), 3);
        return hunks.size() + " places, " + onlyTheirs + " lines only terraform's, " + onlyOurs + " only Strata's; "
                + String.join("; ", hunks.subList(0, shown)) + (hunks.size() > shown ? "; ..." : "");
    }

    /**
     * Plan text without the data-source progress lines (their order and timing are a race), with the
     * tool's own name ("Terraform will perform...", "terraform apply") neutral, and with each prose
     * paragraph (lines starting in the first column) on one line, since the names' lengths move
     * where the prose wraps.
     */
    static List<String> comparable(String text) {
        List<String> out = new ArrayList<>();
        boolean prose = false;
        for (String l : text.lines().toList()) {
            if (READ_PROGRESS.matcher(l).matches()) {
                continue;
            }
            String n = l.replaceAll("\\b(Terraform|Strata)\\b", "<tool>")
                    .replaceAll("\\b(terraform|strata) apply\\b", "<tool> apply");
            boolean startsProse = !n.isEmpty() && !Character.isWhitespace(n.charAt(0)) && n.charAt(0) != '─';
            if (prose && startsProse) {
                out.set(out.size() - 1, out.getLast() + " " + n);
            } else {
                out.add(n);
            }
            prose = startsProse;
        }
        return out;
    }

    private static String table(Map<String, Outcome> results, Map<String, String> timings) {
        StringBuilder sb =
                new StringBuilder("| example | resources | result | notes | time |\n|---|---|---|---|---|\n");
        results.forEach((name, o) -> {
            String row = switch (o) {
                case Outcome.Identical i -> i.resources() + " | identical | ";
                case Outcome.Differs d ->
                    d.resources() + " | " + (d.sameChanges() ? "same changes, plan text differs" : "differs") + " | "
                            + d.what().replace("|", "\\|");
                case Outcome.TerraformCannotPlan t ->
                    "– | terraform cannot plan offline | " + t.why().replace("|", "\\|");
            };
            sb.append("| ")
                    .append(name)
                    .append(" | ")
                    .append(row)
                    .append(" | ")
                    .append(timings.get(name))
                    .append(" |\n");
        });
        return sb.toString();
    }
}
