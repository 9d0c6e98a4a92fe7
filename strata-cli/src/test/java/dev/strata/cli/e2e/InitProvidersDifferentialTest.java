package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code init} of a provider from a filesystem mirror against the real terraform 1.11, as text and as the
 * {@code -json} stream: the provider's steps, the note on the lock file made, the warning that its checksums
 * were computed here (this platform's only), the closing message; then a second run, which reuses the
 * locked version and warns of nothing. The mirror's provider is a stand-in (init does not run providers),
 * so the test needs no real package. Skipped without terraform.
 */
class InitProvidersDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tf;

    @TempDir
    Path st;

    @TempDir
    Path home;

    private Path terraform;
    private Map<String, String> env;
    private Path cliConfig;

    @BeforeEach
    void setUp() throws Exception {
        terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Path mirror = home.resolve("mirror");
        for (String v : List.of("1.0.0", "1.2.0")) {
            Path p = Files.createDirectories(mirror.resolve("registry.terraform.io/acme/thing/" + v + "/linux_amd64"));
            Path exe = p.resolve("terraform-provider-thing_v" + v);
            Files.writeString(exe, "#!/bin/sh\nexit 1\n");
            assertThat(exe.toFile().setExecutable(true)).isTrue();
        }
        cliConfig = Files.writeString(
                home.resolve("cli.tfrc"),
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror + "\"\n  }\n}\n");
        env = Map.of("TF_CLI_CONFIG_FILE", cliConfig.toString(), "HOME", home.toString());
        String config = """
                terraform {
                  required_providers {
                    thing = { source = "acme/thing", version = "~> 1.0" }
                  }
                }
                """;
        for (Path d : new Path[] {tf, st}) {
            Files.writeString(d.resolve("main.tf"), config);
        }
    }

    @Test
    void theFirstInitNotesTheLockFileAndWarnsItHoldsThisPlatformsChecksumsAlone() throws Exception {
        String first = same("init", "-no-color");
        assertThat(first)
                .contains(
                        "- Finding acme/thing versions matching \"~> 1.0\"...\n"
                                + "- Installing acme/thing v1.2.0...\n"
                                + "- Installed acme/thing v1.2.0 (unauthenticated)\n"
                                + "<tool> has created a lock file",
                        "Warning: Incomplete lock file information for providers",
                        "  <tool> providers lock -platform=",
                        "is the platform to generate)\n<tool> has been successfully initialized!\n");
        String second = same("init", "-no-color");
        assertThat(second)
                .contains("- Reusing previous version of acme/thing from the dependency lock file\n"
                        + "- Using previously-installed acme/thing v1.2.0\n\n<tool> has been successfully")
                .doesNotContain("Warning");
    }

    @Test
    void theJsonStreamHasTerraformsMessages() throws Exception {
        List<String> first = sameJson("init", "-json");
        assertThat(first)
                .contains(
                        "info init_output initializing_provider_plugin_message Initializing provider plugins...",
                        "info log - Finding matching versions for provider: acme/thing, version_constraint: \"~> 1.0\"",
                        "info log - Installing provider version: acme/thing v1.2.0...",
                        "info log - Installed provider version: acme/thing v1.2.0 (unauthenticated)",
                        "info init_output output_init_success_message <tool> has been successfully initialized!");
        assertThat(first).anyMatch(m -> m.startsWith("warn diagnostic - Warning: Incomplete lock file information"));
        List<String> second = sameJson("init", "-json");
        assertThat(second)
                .contains(
                        "info log - acme/thing: Reusing previous version from the dependency lock file",
                        "info log - acme/thing v1.2.0: Using previously-installed provider version")
                .noneMatch(m -> m.startsWith("warn"));
    }

    @Test
    void anEmptyDirectorysStreamSaysItIsEmpty() throws Exception {
        for (Path d : new Path[] {tf, st}) {
            Files.delete(d.resolve("main.tf"));
        }
        assertThat(sameJson("init", "-json"))
                .singleElement()
                .asString()
                .startsWith("info init_output output_init_empty_message <tool> initialized in an empty directory!\n\n");
        assertThat(st.resolve(".terraform")).doesNotExist();
    }

    /** As terraform's stream: the root module's problems first, then the note on why init needs them fixed. */
    @Test
    void anInvalidRootModulesStreamEndsWithTheNote() throws Exception {
        for (Path d : new Path[] {tf, st}) {
            Files.writeString(d.resolve("main.tf"), "resource \"terraform_data\" \"a\" {\n  input = \n}\n");
        }
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-json");
        CliRunner.Result ours = CliRunner.in(st).env(env).run("init", "-json");
        assertThat(ours.exitCode()).isEqualTo(theirs.exitCode()).isEqualTo(1);
        List<String> mine = messages(ours.stdout());
        assertThat(mine).isEqualTo(messages(theirs.stdout()));
        assertThat(mine.getLast())
                .startsWith("error diagnostic - Error: <tool> encountered problems during initialisation")
                .endsWith("need to be installed. | ");
    }

    @Test
    void migratingStateIsRefusedWithJson() throws Exception {
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-json", "-migrate-state");
        CliRunner.Result ours = CliRunner.in(st).env(env).run("init", "-json", "-migrate-state");
        assertThat(ours.exitCode()).isEqualTo(theirs.exitCode()).isEqualTo(1);
        assertThat(messages(ours.stdout())).isEqualTo(messages(theirs.stdout()));
        assertThat(messages(ours.stdout()))
                .singleElement()
                .asString()
                .startsWith("error diagnostic - Error: The -migrate-state and -json options are mutually-exclusive | "
                        + "<tool> cannot ask for interactive approval when -json is set.");
    }

    /** Both tools' runs of the same command. */
    private record Both(String theirs, String ours) {}

    /** Runs init in both; asserts that both succeed; their standard outputs. */
    private Both both(String... args) throws Exception {
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, args);
        CliRunner.Result ours = CliRunner.in(st).env(env).run(args);
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isZero();
        return new Both(theirs.stdout(), ours.stdout());
    }

    /**
     * Runs init in both; asserts the same text, made neutral, up to where a diagnostic's lines break (the
     * renderer wraps at 78 columns, and the tools' names differ in length); returns ours.
     */
    private String same(String... args) throws Exception {
        Both b = both(args);
        String mine = neutral(b.ours());
        assertThat(unwrapped(mine)).as(b.ours()).isEqualTo(unwrapped(neutral(b.theirs())));
        return mine;
    }

    /** As {@link #same}, for the {@code -json} streams: their messages, compared by {@link #messages}. */
    private List<String> sameJson(String... args) throws Exception {
        Both b = both(args);
        List<String> mine = messages(b.ours());
        assertThat(mine).isEqualTo(messages(b.theirs()));
        return mine;
    }

    /**
     * Each message but the version's as "level type code message" (code "-" where there is none), made neutral,
     * with a diagnostic's detail; every line must be JSON (Terraform's own backend note is not, and is left out).
     */
    private static List<String> messages(String stdout) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            if (!line.startsWith("{")) {
                continue;
            }
            JsonNode m = JSON.readTree(line);
            assertThat(m.get("@module").asText()).matches("(terraform|strata)\\.ui");
            assertThat(m.get("@timestamp").asText()).isNotEmpty();
            if (m.get("type").asText().equals("version")) {
                continue;
            }
            String code = m.has("message_code") ? m.get("message_code").asText() : "-";
            String text = m.get("@message").asText();
            if (m.has("diagnostic")) {
                text = text + " | " + m.get("diagnostic").get("detail").asText();
            }
            out.add(neutral(m.get("@level").asText() + " " + m.get("type").asText() + " " + code + " " + text));
        }
        return out;
    }

    /** Lines joined where a paragraph was wrapped (a line break between two non-blank characters). */
    private static String unwrapped(String text) {
        return text.replaceAll("(?<=\\S)\n(?=\\S)", " ");
    }

    private static String neutral(String text) {
        return text.replaceAll("\\b(Terraform|Strata)\\b", "<tool>")
                .replaceAll("\\b(terraform|strata) (plan|init|providers)\\b", "<tool> $2");
    }
}
