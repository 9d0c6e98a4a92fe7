package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.cli.CliRunner;
import dev.strata.testing.GitRepos;
import dev.strata.testing.Terraform;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How diagnostics read, against the real terraform 1.11 on the same files (output not a terminal: 78
 * columns): which source lines a snippet shows, that a summary is never wrapped, the note of a failed
 * {@code init}, an unknown argument in a backend block, a module package that cannot be downloaded or lacks
 * its {@code //subdir}, and scp-like Git sources as the {@code ssh://} URLs Terraform shows.
 * The whole error output is compared, with the tools' names made neutral. Skipped without terraform.
 */
class DiagnosticParityDifferentialTest {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    @TempDir
    Path home;

    @TempDir
    Path repo;

    private Path terraform;
    private Path cliConfig;

    @BeforeEach
    void setUp() throws Exception {
        terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        cliConfig = AwsExamples.cliConfig(home);
    }

    private void write(String name, String text) throws Exception {
        for (Path d : new Path[] {tf, st}) {
            Files.write(d.resolve(name), text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Runs both, asserts the same exit code, and returns their standard errors, the names made neutral. */
    private String[] both(String... args) throws Exception {
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, args);
        CliRunner.Result ours = CliRunner.in(st).run(args);
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(theirs.exitCode());
        return new String[] {neutral(theirs.stderr()), neutral(ours.stderr())};
    }

    private String sameErrors(String... args) throws Exception {
        String[] r = both(args);
        assertThat(r[1]).isEqualTo(r[0]);
        return r[1];
    }

    private static String neutral(String text) {
        // Each tool's own data directory, where git clones a module ("Cloning into '.strata/modules/g'...").
        return text.replaceAll("\\b(Terraform|Strata)\\b", "<tool>")
                .replaceAll("'\\.(terraform|strata)/modules/", "'<data>/modules/");
    }

    /**
     * The lines a snippet shows: those that share a byte with the range, its end counted in, so a range that
     * ends where the next line starts shows that line (but not an empty one); without carriage returns.
     * The same lines in {@code validate -json}'s snippet, with the same highlight offsets.
     */
    @Test
    void snippetsShowTheLinesTerraformShows() throws Exception {
        String[] files = {
            "resource \"terraform_data\" \"x\" {\n  input = \n}\n",
            "resource \"terraform_data\" \"x\" {\n  input = \n\n}\n",
            "resource \"terraform_data\" \"x\" {\r\n  input = \r\n}\r\n",
            "resource \"terraform_data\" \"x\" {\n  input = 1 + {\n    a = 1\n  }\n}\n",
        };
        for (String file : files) {
            write("main.tf", file);
            assertThat(sameErrors("validate", "-no-color")).as(file).contains("Error: ");
            AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "validate", "-json");
            CliRunner.Result ours = CliRunner.in(st).run("validate", "-json");
            JsonNode t = AwsExamples.JSON.readTree(theirs.stdout()).get("diagnostics");
            JsonNode o = AwsExamples.JSON.readTree(ours.stdout()).get("diagnostics");
            assertThat(o).as(file).isEqualTo(t);
        }
        write("main.tf", files[0]);
        assertThat(sameErrors("validate", "-no-color")).contains("   2:   input = \n   3: }\n");
    }

    /**
     * An expression that fails to evaluate: under the snippet, the function being called and what each
     * reference held (a failing reference shortened until it evaluates; unknown values by their type; never
     * the symbols of a for expression), and why conditional results do not unify, as Terraform words it.
     * In plan as in validate; the JSON snippet lists the same values.
     */
    @Test
    void evaluationErrorsShowWhatTheirReferencesHeld() throws Exception {
        String values = """
                variable "c" {
                  type    = bool
                  default = true
                }
                variable "o" {
                  type    = object({ a = string })
                  default = { a = "x" }
                }
                locals {
                  n = 5
                }
                output "a" { value = var.c ? { a = 1, b = "x", c = [1, 2] } : { a = 1, b = "y", d = true } }
                output "b" { value = var.c ? ["a", [1]] : ["b", 2] }
                output "c" { value = var.c ? { a = { b = 1 } } : { a = { b = [1] } } }
                output "d" { value = var.c ? [1] : ["a", [2]] }
                output "e" { value = var.o.nope }
                output "f" { value = local.n.foo }
                output "g" { value = [for x in local.n : x] }
                output "h" { value = local.n + "x" }
                """;
        write("main.tf", values);
        sameErrors("validate", "-no-color");
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "validate", "-json");
        CliRunner.Result ours = CliRunner.in(st).run("validate", "-json");
        // Terraform's validate walk reports in no fixed order: compared by place.
        assertThat(byPlace(AwsExamples.JSON.readTree(ours.stdout()).get("diagnostics")))
                .isEqualTo(byPlace(AwsExamples.JSON.readTree(theirs.stdout()).get("diagnostics")));

        write("main.tf", """
                variable "l" {
                  type    = list(string)
                  default = ["a"]
                }
                variable "m" {
                  type    = map(number)
                  default = { a = 1 }
                }
                locals {
                  n = 5
                }
                output "a" { value = var.l[1] }
                output "b" { value = var.l[3] }
                output "c" { value = tolist([])[0] }
                output "d" { value = var.m["zz"] }
                output "e" { value = [for x in var.l : x + 1] }
                output "f" { value = tonumber(var.l[0]) }
                output "g" { value = upper(local.n, 1) }
                output "h" { value = format("%d", "x") }
                output "i" { value = { for k, v in var.m : k => v.foo } }
                output "j" { value = coalesce() }
                output "k" { value = timestamp(1) }
                output "l" { value = core::upper(1, 2) }
                output "m" { value = lookup({ a = 1 }, "b") }
                """);
        assertThat(sameErrors("plan", "-no-color")).contains("│ while calling format(format, args...)");
        // The JSON forms: validate's document and plan's stream give the same snippets, values and function
        // signatures.
        assertThat(byPlace(AwsExamples.JSON
                        .readTree(CliRunner.in(st).run("validate", "-json").stdout())
                        .get("diagnostics")))
                .isEqualTo(byPlace(AwsExamples.JSON
                        .readTree(AwsExamples.terraform(terraform, tf, cliConfig, "validate", "-json")
                                .stdout())
                        .get("diagnostics")));
        JsonNode ourPlan = streamed(CliRunner.in(st).run("plan", "-json").stdout());
        assertThat(ourPlan.toString()).contains("\"function_call\"");
        assertThat(byPlace(ourPlan))
                .isEqualTo(byPlace(streamed(AwsExamples.terraform(terraform, tf, cliConfig, "plan", "-json")
                        .stdout())));
    }

    /** The {@code diagnostic} objects of a JSON stream ({@code plan -json}), in the stream's order. */
    private static JsonNode streamed(String stream) throws Exception {
        var out = AwsExamples.JSON.createArrayNode();
        for (String line : stream.split("\n")) {
            JsonNode m = AwsExamples.JSON.readTree(line);
            if (m.path("type").asText().equals("diagnostic")) {
                out.add(m.get("diagnostic"));
            }
        }
        return out;
    }

    /**
     * Syntax errors where the file ends inside a construct, or a template's directives do not balance, are
     * reported as HCL reports them: which error, its words, and its range (the end of the file is one column
     * wide), in {@code validate -json}.
     */
    @Test
    void syntaxErrorsAtTheEndOfAFileAreReportedAsTerraformReportsThem() throws Exception {
        String[] inputs = {
            "a = [\n",
            "a = [1, 2\n",
            "a = [1, 2",
            "a = [1,\n",
            "a = {\n",
            "a = { b = 1\n",
            "a = { b = 1",
            "a = { b = 1,\n",
            "a = (1\n",
            "a = (1",
            "a = f(1\n",
            "a = boop(\"a\"",
            "a = f(\n",
            "a = f(1,\n",
            "a = [for x in y : x\n",
            "a = [for x in y : x",
            "a = {for k, v in y : k => v\n",
            "a = \"abc\n",
            "a = \"abc",
            "a = \"${a",
            "a = \"${a}",
            "a = x[1\n",
            "b {\n",
            "b { a = 1",
            "a = 1 +",
            "a = 1 +\n",
            "a = \"abc\ndef\"\n",
            "a = <<EOT\n${a\nEOT\n",
            "a = \"%{ if true }x\"",
            "a = \"%{ if true }x%{ endfor }\"",
            "a = \"%{ for x in [1] }x\"",
            "a = \"%{ for x in [1] }x%{ else }y%{ endfor }\"",
            "a = \"x%{ endif }\"",
            "a = <<EOT\n%{ if true }\nx\nEOT\n",
            "a = \"%{ if true",
            "a = \"${a b}\""
        };
        for (String input : inputs) {
            write("main.tf", input);
            AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "validate", "-json");
            CliRunner.Result ours = CliRunner.in(st).run("validate", "-json");
            assertThat(syntaxErrors(ours.stdout())).as(input).isNotEmpty().isEqualTo(syntaxErrors(theirs.stdout()));
        }
    }

    /** {@code fmt} reports a file it cannot parse, or cannot find, with an empty line after each problem. */
    @Test
    void fmtReportsEachProblemAsTerraformsFmtDoes() throws Exception {
        for (Path d : new Path[] {tf, st}) {
            Files.createDirectories(d.resolve("broken"));
            Files.writeString(d.resolve("broken/a.tf"), "a = [\n");
            Files.writeString(d.resolve("broken/b.tf"), "b = \"abc\n");
        }
        sameErrors("fmt", "-no-color", "broken");
        sameErrors("fmt", "-no-color", "nosuch.tf");
    }

    /** A validate -json document's diagnostics other than the root module's unexpected argument, by place. */
    private static List<String> syntaxErrors(String document) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        for (JsonNode d : AwsExamples.JSON.readTree(document).get("diagnostics")) {
            if (d.path("summary").asText().startsWith("Unsupported ")) {
                continue;
            }
            out.add(d.path("range") + " " + d.path("summary").asText() + ": "
                    + d.path("detail").asText());
        }
        return out.stream().sorted().toList();
    }

    private static java.util.List<JsonNode> byPlace(JsonNode diagnostics) {
        java.util.List<JsonNode> out = new java.util.ArrayList<>();
        diagnostics.forEach(out::add);
        out.sort(java.util.Comparator.comparingInt(
                d -> d.path("range").path("start").path("byte").asInt()));
        return out;
    }

    /** A summary longer than the width stays on one line; the detail wraps at 77 columns. */
    @Test
    void aLongSummaryIsNotWrapped() throws Exception {
        String type = "a".repeat(90) + "_x";
        write("main.tf", "resource \"" + type + "\" \"b\" {\n}\nresource \"" + type + "\" \"b\" {\n}\n");
        assertThat(sameErrors("validate", "-no-color"))
                .contains("\nError: Duplicate resource \"" + type + "\" configuration\n");
    }

    /** {@code init} of a root module that does not read: the note's own line breaks, a blank line after it. */
    @Test
    void theNoteOfAFailedInitBreaksWhereTerraformsDoes() throws Exception {
        write("main.tf", "resource \"terraform_data\" \"x\" {\n  input = \n}\n");
        assertThat(sameErrors("init", "-no-color"))
                .startsWith("\nError: <tool> encountered problems during initialisation, including problems\n"
                        + "with the configuration, described below.\n\n")
                .contains("need to be installed.\n\n\nError: Invalid expression\n");
    }

    /**
     * An argument a backend does not take is "Unsupported argument" at its name, with a suggestion when a
     * setting's name is close; a block is "Unsupported block type" (local, s3 and http backends).
     */
    @Test
    void anUnknownBackendArgumentIsAnUnsupportedArgument() throws Exception {
        write("main.tf", """
                terraform {
                  backend "local" {
                    pat = "x"
                    workspace_dirr = "y"
                    nope = 1
                    foo {
                    }
                  }
                }
                """);
        assertThat(sameErrors("init", "-no-color"))
                .contains("Error: Unsupported argument\n\n  on main.tf line 3, in terraform:\n   3:     pat = \"x\"\n\n"
                        + "An argument named \"pat\" is not expected here. Did you mean \"path\"?\n")
                .contains("Error: Unsupported block type");
        write("main.tf", "terraform {\n  backend \"s3\" {\n    bucket = \"b\"\n    nope   = 1\n  }\n}\n");
        assertThat(sameErrors("init", "-no-color")).contains("An argument named \"nope\" is not expected here.\n");
        write(
                "main.tf",
                "terraform {\n  backend \"http\" {\n    address = \"http://127.0.0.1:1/x\"\n    nope = true\n  }\n}\n");
        assertThat(sameErrors("init", "-no-color")).contains("An argument named \"nope\" is not expected here.\n");
    }

    /** {@code -backend-config}: a file's unknown setting as the block's; {@code KEY=VALUE}'s in terraform's words. */
    @Test
    void anUnknownBackendConfigArgumentIsReportedAsTerraformReportsIt() throws Exception {
        write("main.tf", "terraform {\n  backend \"local\" {}\n}\n");
        write("x.tfbackend", "path = \"a\"\nnope = \"b\"\n");
        assertThat(sameErrors("init", "-no-color", "-backend-config=x.tfbackend"))
                .isEqualTo("\nError: Unsupported argument\n\n  on x.tfbackend line 2:\n   2: nope = \"b\"\n\n"
                        + "An argument named \"nope\" is not expected here.\n");
        assertThat(sameErrors("init", "-no-color", "-backend-config=nope=1"))
                .isEqualTo("\nError: Invalid backend configuration argument\n\nThe backend configuration argument "
                        + "\"nope\" given on the command line is not\nexpected for the selected backend type.\n");
    }

    /**
     * A Git repository that is not there, a ref it does not have (with and without a depth), a directory
     * that is not there: "Failed to download module" at the module block's header, with go-getter's words,
     * git's path, exit code and output as terraform gives them.
     */
    @Test
    void aModuleThatCannotBeDownloadedIsReportedAsTerraformReportsIt() throws Exception {
        GitRepos.commit(repo, Map.of("main.tf", "output \"x\" {\n  value = 1\n}\n"));
        String[] sources = {
            "git::file://" + repo.resolve("nope"),
            "git::" + repo.resolve("nope"),
            "git::file://" + repo + "?ref=nope",
            "git::file://" + repo + "?ref=nope&depth=1",
            repo.resolve("nodir") + "//x",
            "file://" + repo.resolve("nodir.zip"),
        };
        for (String source : sources) {
            write(
                    "main.tf",
                    "resource \"terraform_data\" \"a\" {}\n\nmodule \"g\" {\n  source = \"" + source
                            + "\"\n  # comment\n}\n");
            for (Path d : new Path[] {tf, st}) {
                deleteTree(d.resolve(".terraform"));
            }
            assertThat(sameErrors("init", "-no-color"))
                    .as(source)
                    .startsWith("\nError: Failed to download module\n\n  on main.tf line 3:\n   3: module \"g\" {\n\n"
                            + "Could not download module \"g\" (main.tf:3) source code from\n");
        }
    }

    /** Writes a configuration calling module "g" from {@code source} into both directories, without old installs. */
    private void callModule(String source) throws Exception {
        write("main.tf", "resource \"terraform_data\" \"a\" {}\n\nmodule \"g\" {\n  source = \"" + source + "\"\n}\n");
        for (Path d : new Path[] {tf, st}) {
            deleteTree(d.resolve(".terraform"));
            deleteTree(d.resolve(".strata"));
        }
    }

    /** {@code init}'s standard output and error under both, the same but for the tools' and data directories' names. */
    private String sameInit() throws Exception {
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("init", "-no-color");
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(theirs.exitCode());
        assertThat(dataNeutral(ours.stdout())).isEqualTo(dataNeutral(theirs.stdout()));
        assertThat(dataNeutral(ours.stderr())).isEqualTo(dataNeutral(theirs.stderr()));
        return dataNeutral(ours.stdout() + ours.stderr());
    }

    private static String dataNeutral(String text) {
        return neutral(text)
                .replaceAll("\\.(terraform|strata)/modules/", "<data>/modules/")
                .replaceAll("\"(terraform|strata) plan\"", "\"<tool> plan\"");
    }

    /**
     * A package that downloads but lacks the {@code //subdir} its source names (a Git repository, a directory,
     * a zip archive), a pattern matching two paths and a malformed one: "Failed to expand subdir globs" with no
     * source location, after the "Downloading" line, exit code 1; a pattern matching one path installs it.
     */
    @Test
    void aSubdirThePackageLacksIsReportedAsTerraformReportsIt() throws Exception {
        GitRepos.commit(
                repo,
                Map.of(
                        "net/main.tf", "output \"x\" {\n  value = 1\n}\n",
                        "nat/main.tf", "output \"y\" {\n  value = 2\n}\n"));
        Path zip = home.resolve("pkg.zip");
        try (java.util.zip.ZipOutputStream z = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            z.putNextEntry(new java.util.zip.ZipEntry("net/main.tf"));
            z.write("output \"x\" {\n  value = 1\n}\n".getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
        }
        String[][] cases = {
            {"git::file://" + repo + "//nope", "subdir \"nope\" not found"},
            {"git::file://" + repo + "//net/deeper?ref=main", "subdir \"net/deeper\" not found"},
            {"git::file://" + repo + "//n*", "subdir \"n*\" matches multiple paths"},
            {repo + "//missing", "subdir \"missing\" not found"},
            {repo + "//[", "syntax error in pattern"},
            // A "?" starts the query, for a path too.
            {repo + "//n?t", "subdir \"n\" not found"},
            {zip + "//missing", "subdir \"missing\" not found"},
        };
        for (String[] c : cases) {
            callModule(c[0]);
            assertThat(sameInit())
                    .as(c[0])
                    .contains("Downloading ")
                    .contains("\nError: Failed to expand subdir globs\n\n" + c[1] + "\n")
                    .doesNotContain(" on main.tf line");
        }
        // One match installs it; the manifest and modules -json name the source as the URL it stands for.
        for (String source : new String[] {"git::file://" + repo + "//ne*?ref=main&depth=1", repo + "//nope/../ne*"}) {
            callModule(source);
            assertThat(sameInit()).as(source).contains("- g in <data>/modules/g/net\n");
            assertThat(CliRunner.in(st).run("modules", "-json").stdout())
                    .isEqualTo(AwsExamples.terraform(terraform, tf, cliConfig, "modules", "-json")
                            .stdout());
            assertThat(Files.readString(st.resolve(".strata/modules/modules.json"))
                            .replace(".strata/", "<data>/"))
                    .isEqualTo(Files.readString(tf.resolve(".terraform/modules/modules.json"))
                                    .replace(".terraform/", "<data>/")
                            + "\n");
        }
    }

    /**
     * The scp-like Git form, with and without {@code git::}: shown as the {@code ssh://} URL Terraform makes of it
     * in the "Downloading" line and the failed clone's detail (its query sorted and escaped), and cloned as that
     * URL. Offline: nothing listens on the loopback's SSH port, so the clone fails at once (where something does,
     * only the lines before git's own output are compared).
     */
    @Test
    void scpLikeGitSourcesAreShownAsSshUrls() throws Exception {
        boolean sshListens;
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", 22), 1000);
            sshListens = true;
        } catch (java.io.IOException e) {
            sshListens = false;
        }
        String[][] cases = {
            {"git@127.0.0.1:nope/repo.git//sub?ref=a/b&depth=1", "ssh://git@127.0.0.1/nope/repo.git?depth=1&ref=a%2Fb"},
            {"git::git@127.0.0.1:/abs/repo.git", "ssh://git@127.0.0.1/abs/repo.git"},
        };
        for (String[] c : cases) {
            callModule(c[0]);
            String expected = "Downloading git::" + c[1] + " for g...\n";
            String detail = "Could not download module \"g\" (main.tf:3) source code from\n\"git::" + c[1] + "\":";
            if (!sshListens) {
                assertThat(sameInit()).as(c[0]).contains(expected).contains(detail);
                continue;
            }
            AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-no-color");
            CliRunner.Result ours = CliRunner.in(st).run("init", "-no-color");
            assertThat(ours.exitCode()).isEqualTo(theirs.exitCode()).isEqualTo(1);
            assertThat(dataNeutral(ours.stdout()))
                    .isEqualTo(dataNeutral(theirs.stdout()))
                    .contains(expected);
            String before = " exited with";
            String t = dataNeutral(theirs.stderr());
            String o = dataNeutral(ours.stderr());
            assertThat(o.substring(0, o.indexOf(before)))
                    .isEqualTo(t.substring(0, t.indexOf(before)))
                    .contains(detail);
        }
    }

    /**
     * An address no installation method recognises (a directory without its "./", a host without a scheme, a
     * user other than git@ after git::): "Invalid module source address" at the source argument, from init and
     * from validate alike, with the same exit codes; the detail is in our own words, naming the package and
     * the "./" form.
     */
    @Test
    void anAddressNoInstallationMethodRecognisesIsInvalid() throws Exception {
        for (String[] c : new String[][] {
            {"modules/vpc", "modules/vpc"},
            {"example.com/org/repo.git", "example.com/org/repo.git"},
            {"git::me@127.0.0.1:org/repo.git", "me@127.0.0.1:org/repo.git"},
        }) {
            callModule(c[0]);
            for (String command : new String[] {"init", "validate"}) {
                String[] r = both(command, "-no-color");
                String head = "\nError: Invalid module source address\n\n  on main.tf line 4, in module \"g\":\n"
                        + "   4:   source = \"" + c[0] + "\"\n\n";
                assertThat(r[0]).as(c[0] + " " + command + " (terraform)").startsWith(head);
                assertThat(r[1])
                        .as(c[0] + " " + command)
                        .startsWith(head)
                        .contains("\"" + c[1] + "\"")
                        .contains("\"./" + c[1] + "\"");
            }
        }
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
