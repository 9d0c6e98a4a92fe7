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
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The VPC module's {@code examples/complete} written in Java ({@link VpcCompleteStack}) against the HCL
 * original: the original planned by {@code terraform}, the Java program's synthesised {@code main.tf.json}
 * planned by {@code terraform} and by {@code strata}; all three give the same resource changes and the
 * same outputs. Each plan runs in a copy of the module adapted to the AWS provider 5.100 (as
 * {@link VpcExamplePlanDifferentialTest} does), against the same local simulator; the Java copies have
 * the example's {@code .tf} files replaced by the synthesis. Skipped when terraform, the AWS provider
 * mirror or the corpus is absent.
 */
class SdkVpcPlanDifferentialIT {
    private static final Path VPC = AwsExamples.corpus().resolve("terraform-aws-modules__terraform-aws-vpc");

    @AutoClose
    private static CloudSim sim;

    @TempDir
    Path work;

    @BeforeAll
    static void startSimulator() throws IOException {
        sim = CloudSim.start(0, null, Knobs.DEFAULT);
    }

    @Test
    void theJavaRewriteOfTheVpcCompleteExamplePlansLikeTheHclOriginal() throws Exception {
        assumeTrue(Files.isDirectory(VPC.resolve("examples/complete")), "no VPC module in the corpus");
        Path terraform = AwsExamples.prerequisites();
        Path cliConfig = AwsExamples.cliConfig(work);

        Path hcl = VpcExamplePlanDifferentialTest.adaptTo5(VPC, work.resolve("hcl"))
                .resolve("examples/complete");
        Path javaTf = java(work.resolve("java-tf"));
        Path javaSt = java(work.resolve("java-st"));
        for (Path d : List.of(hcl, javaTf, javaSt)) {
            AwsExamples.simulatorOverride(d, sim.url());
        }

        JsonNode original = terraformPlan(terraform, hcl, cliConfig);
        JsonNode javaByTerraform = terraformPlan(terraform, javaTf, cliConfig);
        CliRunner strata = CliRunner.in(javaSt).env("TF_CLI_CONFIG_FILE", cliConfig.toString());
        ok(strata.run("init"));
        ok(strata.run("plan", "-out=st.plan"));
        JsonNode javaByStrata = AwsExamples.JSON.readTree(
                ok(strata.run("show", "-json", "st.plan")).stdout());

        assertThat(original.path("resource_changes").size()).isGreaterThanOrEqualTo(60);
        assertThat(AwsExamples.outputs(original)).hasSize(106);
        assertThat(AwsExamples.changes(javaByTerraform)).isEqualTo(AwsExamples.changes(original));
        assertThat(AwsExamples.outputs(javaByTerraform)).isEqualTo(AwsExamples.outputs(original));
        assertThat(AwsExamples.changes(javaByStrata)).isEqualTo(AwsExamples.changes(original));
        assertThat(AwsExamples.outputs(javaByStrata)).isEqualTo(AwsExamples.outputs(original));
    }

    /** An adapted copy of the module whose example directory holds the Java program's synthesis instead of HCL. */
    private static Path java(Path root) throws Exception {
        Path example = VpcExamplePlanDifferentialTest.adaptTo5(VPC, root).resolve("examples/complete");
        try (Stream<Path> files = Files.list(example)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".tf")).toList()) {
                Files.delete(f);
            }
        }
        new VpcCompleteStack().build().writeTo(example);
        return example;
    }

    private static JsonNode terraformPlan(Path terraform, Path dir, Path cliConfig) throws Exception {
        tool(terraform, dir, cliConfig, "init", "-input=false", "-no-color");
        tool(terraform, dir, cliConfig, "plan", "-out=tf.plan", "-input=false", "-no-color");
        return AwsExamples.JSON.readTree(tool(terraform, dir, cliConfig, "show", "-json", "tf.plan"));
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    private static String tool(Path exe, Path dir, Path cliConfig, String... args)
            throws IOException, InterruptedException {
        AwsExamples.Run r = AwsExamples.terraform(exe, dir, cliConfig, args);
        assertThat(r.exitCode())
                .as("terraform " + String.join(" ", args) + " in " + dir + "\n" + r.stderr())
                .isZero();
        return r.stdout();
    }
}
