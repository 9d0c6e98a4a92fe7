package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ephemeral input variables, ephemeral outputs, {@code ephemeralasnull()} and {@code terraform.applying}
 * against terraform 1.11 (offline, {@code terraform_data} only): where an ephemeral value would be
 * persisted — a resource or data source argument, a root or non-ephemeral output, a module input not
 * declared ephemeral, {@code count}, {@code for_each} — both refuse the configuration with the same
 * errors at the same places and exit codes, in {@code validate} and in {@code plan}; and a saved plan
 * keeps no ephemeral value, so its apply must be given the variable again. Skipped without
 * {@code terraform}.
 */
class EphemeralValuesDifferentialTest {
    private static final Pattern ERROR =
            Pattern.compile("Error: (.+)\\n\\n(?:  with [^\\n]*\\n)?(?:  on (\\S+) line (\\d+))?");
    private static final String MARKER = "eph-marker-5f1c0b7e";

    @TempDir
    Path tf;

    @TempDir
    Path st;

    private static final String SECRET_VAR = """
            variable "secret" {
              type      = string
              ephemeral = true
              default   = "d"
            }
            """;

    /** A resource whose precondition reads the ephemeral variable, and an output of {@code terraform.applying}. */
    private static final Map<String, String> CHECKED_SECRET = Map.of("main.tf", SECRET_VAR + """
            resource "terraform_data" "x" {
              input = "kept"
              lifecycle {
                precondition {
                  condition     = length(var.secret) > 3
                  error_message = "too short"
                }
              }
            }
            output "applying" { value = ephemeralasnull(terraform.applying) }
            """);

    @Test
    void ephemeralValuesWherePersistedAreErrorsAsInTerraform() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Map<String, Map<String, String>> cases = new java.util.TreeMap<>(Map.of(
                "resource argument through a local",
                Map.of("main.tf", SECRET_VAR + """
                        locals { l = "${var.secret}-x" }
                        resource "terraform_data" "x" { input = local.l }
                        """),
                "data source argument, count and for_each",
                Map.of("main.tf", SECRET_VAR + """
                        data "terraform_remote_state" "x" {
                          backend = "local"
                          config  = { path = var.secret }
                        }
                        resource "terraform_data" "c" { count = length(var.secret) }
                        resource "terraform_data" "f" { for_each = toset([var.secret]) }
                        """),
                "root outputs",
                Map.of("main.tf", SECRET_VAR + """
                        output "o" { value = var.secret }
                        output "applying" { value = terraform.applying }
                        """),
                "ephemeral root output",
                Map.of("main.tf", """
                        output "o" {
                          value     = "x"
                          ephemeral = true
                        }
                        """),
                "module input and outputs",
                Map.of(
                        "main.tf",
                        SECRET_VAR + """
                        module "m" {
                          source = "./m"
                          in     = var.secret
                        }
                        module "n" {
                          source = "./n"
                          in     = var.secret
                        }
                        """,
                        "m/main.tf",
                        "variable \"in\" { type = string }\n",
                        "n/main.tf",
                        """
                        variable "in" {
                          type      = string
                          ephemeral = true
                        }
                        output "leak" { value = var.in }
                        output "plain" {
                          value     = "n"
                          ephemeral = true
                        }
                        """),
                "allowed uses",
                Map.of("main.tf", SECRET_VAR + """
                        locals { l = upper(var.secret) }
                        module "n" {
                          source = "./n"
                          in     = local.l
                        }
                        resource "terraform_data" "x" {
                          input = ephemeralasnull(module.n.e)
                          lifecycle {
                            precondition {
                              condition     = var.secret != ""
                              error_message = "empty"
                            }
                          }
                        }
                        output "o" { value = ephemeralasnull(terraform.applying) }
                        """, "n/main.tf", """
                        variable "in" {
                          type      = string
                          ephemeral = true
                        }
                        output "e" {
                          value     = var.in
                          ephemeral = true
                        }
                        """)));
        for (Map.Entry<String, Map<String, String>> c : cases.entrySet()) {
            String name = c.getKey().replace(' ', '-');
            Path t = Files.createDirectories(tf.resolve(name));
            Path s = Files.createDirectories(st.resolve(name));
            write(t, c.getValue());
            write(s, c.getValue());
            Terraform.at(terraform, t).ok("init", "-input=false", "-no-color");
            for (String command : List.of("validate", "plan")) {
                List<String> args = command.equals("plan")
                        ? List.of("plan", "-input=false", "-no-color", "-var", "secret=" + MARKER)
                        : List.of("validate", "-no-color");
                if (c.getKey().equals("ephemeral root output") && command.equals("plan")) {
                    args = List.of("plan", "-input=false", "-no-color");
                }
                ProcessResult theirs = Terraform.at(terraform, t).run(args.toArray(String[]::new));
                CliRunner.Result ours = CliRunner.in(s).run(args.toArray(String[]::new));
                String what = c.getKey() + ": " + command;
                assertThat(ours.exitCode())
                        .as(what + "\n" + ours + "\n" + theirs.stderr())
                        .isEqualTo(theirs.exitCode());
                assertThat(errors(ours.stderr())).as(what).isEqualTo(errors(theirs.stderr()));
                assertThat(ours.stdout() + ours.stderr()).as(what).doesNotContain(MARKER);
            }
        }
    }

    @Test
    void aSavedPlanKeepsNoEphemeralValueAndItsApplyNeedsTheVariableAgain() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        write(tf, CHECKED_SECRET);
        write(st, CHECKED_SECRET);
        Path log = st.resolve("trace.log");
        CliRunner strata = CliRunner.in(st).env("STRATA_LOG", "trace").env("STRATA_LOG_PATH", log.toString());
        Terraform.at(terraform, tf).ok("init", "-input=false", "-no-color");
        Terraform.at(terraform, tf).ok("plan", "-out=tf.plan", "-input=false", "-no-color", "-var", "secret=" + MARKER);
        ok(strata.run("plan", "-out=st.plan", "-var", "secret=" + MARKER));

        ProcessResult theirs = Terraform.at(terraform, tf).run("apply", "-input=false", "-no-color", "tf.plan");
        CliRunner.Result ours = strata.run("apply", "-no-color", "st.plan");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        assertThat(errors(ours.stderr())).isEqualTo(errors(theirs.stderr()));
        assertThat(ours.stderr())
                .contains("The ephemeral input variable \"secret\" was set during the plan phase, and so\nmust");

        Terraform.at(terraform, tf).ok("apply", "-input=false", "-no-color", "-var", "secret=" + MARKER, "tf.plan");
        ours = ok(strata.run("apply", "-no-color", "-var", "secret=" + MARKER, "st.plan"));
        assertThat(ours.stdout()).contains("Apply complete! Resources: 1 added");
        // A second apply (a backup of the state) and a state round trip write every file Strata keeps.
        ok(strata.run("apply", "-auto-approve", "-var", "secret=" + MARKER));
        CliRunner.Result pulled = ok(strata.run("state", "pull"));
        Files.writeString(st.resolve("pulled.tfstate"), pulled.stdout());
        ok(strata.run("state", "push", "-force", "pulled.tfstate"));
        ok(strata.run("show", "-json", "st.plan"));

        assertTracedWithoutTheMarker(log);
        assertThat(filesContaining(tf, MARKER)).as("terraform's files").isEmpty();
    }

    /**
     * Destroying: a saved destroy plan keeps no ephemeral value and its apply needs the variable again
     * (the same error as Terraform's); with it, the destroy runs, and no file Strata writes holds it.
     */
    @Test
    void aSavedDestroyPlanNeedsTheEphemeralVariableAgainAndKeepsNoValue() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        write(tf, CHECKED_SECRET);
        write(st, CHECKED_SECRET);
        Path log = st.resolve("trace.log");
        CliRunner strata = CliRunner.in(st).env("STRATA_LOG", "trace").env("STRATA_LOG_PATH", log.toString());
        Terraform their = Terraform.at(terraform, tf);
        their.ok("init", "-input=false", "-no-color");
        their.ok("apply", "-auto-approve", "-input=false", "-no-color", "-var", "secret=" + MARKER);
        ok(strata.run("apply", "-auto-approve", "-no-color", "-var", "secret=" + MARKER));

        their.ok("plan", "-destroy", "-out=tf.plan", "-input=false", "-no-color", "-var", "secret=" + MARKER);
        ok(strata.run("plan", "-destroy", "-out=st.plan", "-no-color", "-var", "secret=" + MARKER));
        ProcessResult theirs = their.run("apply", "-input=false", "-no-color", "tf.plan");
        CliRunner.Result ours = strata.run("apply", "-no-color", "st.plan");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        assertThat(errors(ours.stderr())).isEqualTo(errors(theirs.stderr())).isNotEmpty();

        String theirOut = their.ok("apply", "-input=false", "-no-color", "-var", "secret=" + MARKER, "tf.plan");
        ours = ok(strata.run("apply", "-no-color", "-var", "secret=" + MARKER, "st.plan"));
        assertThat(theirOut).contains("Apply complete! Resources: 0 added, 0 changed, 1 destroyed.");
        assertThat(ours.stdout()).contains("Apply complete! Resources: 0 added, 0 changed, 1 destroyed.");

        // destroy on a state made again: as in Terraform, a destroy does not check the precondition.
        their.ok("apply", "-auto-approve", "-input=false", "-no-color", "-var", "secret=" + MARKER);
        ok(strata.run("apply", "-auto-approve", "-no-color", "-var", "secret=" + MARKER));
        theirOut = their.ok("destroy", "-auto-approve", "-input=false", "-no-color", "-var", "secret=ab");
        ours = ok(strata.run("destroy", "-auto-approve", "-no-color", "-var", "secret=ab"));
        assertThat(theirOut).contains("Destroy complete! Resources: 1 destroyed.");
        assertThat(ours.stdout()).contains("Destroy complete! Resources: 1 destroyed.");

        assertTracedWithoutTheMarker(log);
    }

    /** Strata traced into {@code log} (not empty) and wrote the marker to no file. */
    private void assertTracedWithoutTheMarker(Path log) throws IOException {
        assertThat(Files.size(log)).isPositive();
        assertThat(filesContaining(st, MARKER))
                .as("files holding the ephemeral value")
                .isEmpty();
    }

    /** Every regular file under {@code dir} (recursively) whose bytes contain {@code text}. */
    static List<Path> filesContaining(Path dir, String text) throws IOException {
        List<Path> found = new ArrayList<>();
        byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).sorted().toList()) {
                if (p.toString().contains("/.terraform/providers/")) {
                    continue;
                }
                byte[] b = Files.readAllBytes(p);
                if (indexOf(b, needle) >= 0) {
                    found.add(dir.relativize(p));
                }
            }
        }
        return found;
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Each error's summary and place, in order. */
    private static List<String> errors(String stderr) {
        List<String> out = new ArrayList<>();
        Matcher m = ERROR.matcher(stderr.replaceAll("\\x1b\\[[0-9;]*m", "").replaceAll("(?m)^[│╷╵] ?", ""));
        while (m.find()) {
            out.add(m.group(1).strip() + (m.group(2) == null ? "" : " @ " + m.group(2) + ":" + m.group(3)));
        }
        return out;
    }

    private static void write(Path dir, Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = dir.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }
}
