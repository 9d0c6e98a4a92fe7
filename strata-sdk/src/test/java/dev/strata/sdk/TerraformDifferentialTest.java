package dev.strata.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.Validator;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synthesised stack is a configuration both Terraform and Strata accept: {@code terraform validate}
 * says valid, {@code terraform plan} plans the expected resources, and Strata's loader and validator
 * report nothing. Only terraform_data and a local module, so {@code terraform init} works offline;
 * skipped when no {@code terraform} is on the PATH.
 */
class TerraformDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void basicStackIsValidForStrataAndTerraformAndPlans() throws Exception {
        Stacks.basic().writeTo(dir);
        Files.createDirectories(dir.resolve("echo"));
        Files.writeString(dir.resolve("echo/main.tf"), Stacks.ECHO_MODULE);

        Result<ConfigTree> tree = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        Diagnostics strata = tree.diagnostics().with(Validator.validate(tree.value()));
        assertThat(strata.asList()).as("Strata's diagnostics").isEmpty();

        assumeTrue(terraformRuns(), "terraform is not on the PATH");
        run("init", "-backend=false", "-input=false", "-no-color");
        JsonNode validate = JSON.readTree(run("validate", "-json", "-no-color"));
        assertThat(validate.path("diagnostics").toString()).isEqualTo("[]");
        assertThat(validate.path("valid").asBoolean()).isTrue();

        run("plan", "-input=false", "-no-color", "-out=plan.bin");
        JsonNode plan = JSON.readTree(run("show", "-json", "plan.bin"));
        TreeSet<String> changes = new TreeSet<>();
        for (JsonNode rc : plan.path("resource_changes")) {
            changes.add(rc.path("address").asText() + " " + rc.path("change").path("actions"));
        }
        assertThat(changes)
                .containsExactly(
                        "terraform_data.named[\"blue\"] [\"create\"]",
                        "terraform_data.named[\"green\"] [\"create\"]",
                        "terraform_data.network [\"update\"]",
                        "terraform_data.subnet[0] [\"create\"]",
                        "terraform_data.subnet[1] [\"create\"]");
        // Literal text stays literal: the default is plain JSON, the output's text a template escaped by the SDK.
        assertThat(plan.path("planned_values")
                        .path("outputs")
                        .path("literal")
                        .path("value")
                        .asText())
                .isEqualTo("${not a template} %{x} true");
        JsonNode subnet = plan.path("configuration").path("root_module").path("resources");
        assertThat(subnet.toString())
                .contains("\"references\":[\"terraform_data.network.output.cidr\","
                        + "\"terraform_data.network.output\",\"terraform_data.network\",\"count.index\"]");
    }

    private String run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("terraform");
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(false);
        pb.environment().put("CHECKPOINT_DISABLE", "1");
        pb.environment().put("TF_IN_AUTOMATION", "1");
        Path err = dir.resolve("terraform.err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String stdout = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue())
                .as("terraform %s: %s%s", args[0], stdout, Files.readString(err))
                .isZero();
        return stdout;
    }

    /** The terraform on the PATH, if one starts. */
    private static boolean terraformRuns() {
        try {
            Process p = new ProcessBuilder("terraform", "version")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
