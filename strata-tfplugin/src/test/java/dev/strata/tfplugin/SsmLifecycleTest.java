package dev.strata.tfplugin;

import static dev.strata.tfplugin.AwsTestValues.noErrors;
import static dev.strata.tfplugin.AwsTestValues.offlineProviderConfig;
import static dev.strata.tfplugin.AwsTestValues.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.addr.VersionConstraint;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.PrivateState;
import dev.strata.provider.ProposedNewState;
import dev.strata.provider.Provider;
import dev.strata.testing.Terraform;
import dev.strata.tfplugin.install.LockFile;
import dev.strata.tfplugin.install.Platform;
import dev.strata.tfplugin.install.ProviderInstaller;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real AWS provider creates, reads, updates, imports and deletes an {@code aws_ssm_parameter}
 * through the provider SPI, against the cloud simulator's SSM API. Skipped without the provider.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SsmLifecycleTest {
    static final Path MIRROR = Path.of(System.getProperty("strata.test.pluginMirror", "/opt/tf-plugins"));
    static final String TYPE = "aws_ssm_parameter";

    @TempDir
    Path dir;

    private Provider provider() throws IOException {
        Files.writeString(
                dir.resolve("cli.tfrc"),
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + MIRROR + "\"\n  }\n}\n");
        var r = ProviderInstaller.install(
                new ProviderInstaller.Options(
                        dir,
                        dir.resolve(".terraform"),
                        Map.of("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString()),
                        dir.resolve("home"),
                        Platform.current(),
                        false),
                List.of(new ProviderInstaller.Requirement(
                        new dev.strata.addr.Provider("registry.terraform.io", "hashicorp", "aws"), List.of())),
                LockFile.empty(),
                line -> {});
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        Files.writeString(dir.resolve(LockFile.FILENAME), r.value().lock().render());
        return InstalledProviders.forWorkingDirectory(dir, Map.of())
                .resolve(dev.strata.addr.Provider.hashicorp("aws"), VersionConstraint.ANY)
                .value()
                .create();
    }

    private Provider.ApplyResponse planAndApply(
            Provider aws, Block schema, Value prior, Value config, PrivateState priv) {
        Value proposed = ProposedNewState.of(schema, prior, config);
        Provider.PlanResponse plan =
                aws.planResourceChange(new Provider.PlanRequest(TYPE, prior, proposed, config, priv));
        noErrors(plan.diagnostics());
        Provider.ApplyResponse applied = aws.applyResourceChange(
                new Provider.ApplyRequest(TYPE, prior, plan.plannedState(), config, plan.plannedPrivate(), null));
        noErrors(applied.diagnostics());
        assertThat(applied.newState().isWhollyKnown()).isTrue();
        return applied;
    }

    private Value configFor(Provider aws, String url) {
        Block pschema = aws.schema().provider().block();
        Block endpoints = pschema.blockType("endpoints").block();
        return with(
                offlineProviderConfig(pschema.emptyValue()),
                Map.of(
                        "endpoints",
                        Value.set(
                                endpoints.impliedType(),
                                List.of(with(endpoints.emptyValue(), Map.of("ssm", Value.string(url)))))));
    }

    /**
     * The same parameter created through the SPI and by {@code terraform apply}, each against its own
     * simulator: the resulting state attributes are identical.
     */
    @Test
    void createdStateEqualsTerraforms() throws Exception {
        assumeTrue(
                Files.isDirectory(MIRROR.resolve("registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64"))
                        && Platform.current().toString().equals("linux_amd64"),
                "AWS provider not in " + MIRROR);
        Terraform.assumeInstalled();
        JsonNode ours;
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT);
                Provider aws = provider()) {
            Value config = configFor(aws, sim.url());
            noErrors(aws.configure(new Provider.ConfigureRequest(config, "")));
            Block ssm = aws.schema().resourceType(TYPE).block();
            Value want = with(
                    ssm.emptyValue(),
                    Map.of(
                            "name",
                            Value.string("/strata/cmp"),
                            "type",
                            Value.string("SecureString"),
                            "value",
                            Value.string("s3cret"),
                            "description",
                            Value.string("compared with terraform"),
                            "tags",
                            Value.map(Type.STRING, Map.of("team", Value.string("platform")))));
            Value state = planAndApply(aws, ssm, ssm.nullValue(), want, PrivateState.EMPTY)
                    .newState();
            ours = new ObjectMapper().readTree(dev.strata.provider.ValueJson.encode(state, ssm.impliedType()));
        }
        JsonNode theirs;
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            Path tf = Files.createDirectories(dir.resolve("tf"));
            Files.writeString(tf.resolve("main.tf"), """
                provider "aws" {
                  region                      = "us-east-1"
                  access_key                  = "mock"
                  secret_key                  = "mock"
                  skip_credentials_validation = true
                  skip_requesting_account_id  = true
                  skip_metadata_api_check     = true
                  endpoints {
                    ssm = "%s"
                  }
                }
                resource "aws_ssm_parameter" "p" {
                  name        = "/strata/cmp"
                  type        = "SecureString"
                  value       = "s3cret"
                  description = "compared with terraform"
                  tags        = { team = "platform" }
                }
                """.formatted(sim.url()));
            terraform(tf, "init", "-input=false", "-no-color");
            terraform(tf, "apply", "-auto-approve", "-input=false", "-no-color");
            JsonNode tfstate =
                    new ObjectMapper().readTree(tf.resolve("terraform.tfstate").toFile());
            theirs = tfstate.get("resources").get(0).get("instances").get(0).get("attributes");
        }
        assertThat(ours).isEqualTo(theirs);
    }

    private String terraform(Path wd, String... args) throws IOException, InterruptedException {
        return Terraform.in(wd)
                .cliConfig(dir.resolve("cli.tfrc"))
                .mergeStderr()
                .timeout(Duration.ofMinutes(3))
                .ok(args);
    }

    @Test
    void fullLifecycleAgainstTheSimulator() throws Exception {
        assumeTrue(
                Files.isDirectory(MIRROR.resolve("registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64"))
                        && Platform.current().toString().equals("linux_amd64"),
                "AWS provider not in " + MIRROR);
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT);
                Provider aws = provider()) {
            Value config = configFor(aws, sim.url());
            noErrors(aws.validateProviderConfig(config));
            noErrors(aws.configure(new Provider.ConfigureRequest(config, "")));

            Block ssm = aws.schema().resourceType(TYPE).block();
            Value want = with(
                    ssm.emptyValue(),
                    Map.of(
                            "name",
                            Value.string("/strata/test"),
                            "type",
                            Value.string("String"),
                            "value",
                            Value.string("hello"),
                            "tags",
                            Value.map(Type.STRING, Map.of("team", Value.string("platform")))));

            // Create.
            Provider.ApplyResponse created = planAndApply(aws, ssm, ssm.nullValue(), want, PrivateState.EMPTY);
            Value state = created.newState();
            assertThat(state.attributes().get("arn"))
                    .isEqualTo(Value.string("arn:aws:ssm:us-east-1:123456789012:parameter/strata/test"));
            assertThat(state.attributes().get("id")).isEqualTo(Value.string("/strata/test"));
            assertThat(state.attributes().get("version")).isEqualTo(Value.number(1));
            assertThat(state.attributes().get("tags_all").attributes()).containsEntry("team", Value.string("platform"));

            // Read: nothing changed remotely.
            Provider.ReadResponse read = aws.readResource(new Provider.ReadRequest(TYPE, state, created.newPrivate()));
            noErrors(read.diagnostics());
            assertThat(read.newState().attributes().get("value")).isEqualTo(Value.string("hello"));
            assertThat(read.newState().attributes().get("version")).isEqualTo(Value.number(1));

            // Update in place.
            Value changed = with(want, Map.of("value", Value.string("world")));
            Provider.ApplyResponse updated = planAndApply(aws, ssm, read.newState(), changed, read.newPrivate());
            assertThat(updated.newState().attributes().get("value")).isEqualTo(Value.string("world"));
            assertThat(updated.newState().attributes().get("version")).isEqualTo(Value.number(2));

            // Import by name, then read fills in the rest.
            Provider.ImportResponse imported =
                    aws.importResourceState(new Provider.ImportRequest(TYPE, "/strata/test"));
            noErrors(imported.diagnostics());
            Provider.ReadResponse importedRead = aws.readResource(new Provider.ReadRequest(
                    TYPE,
                    imported.imported().get(0).state(),
                    imported.imported().get(0).privateState()));
            noErrors(importedRead.diagnostics());
            assertThat(importedRead.newState().attributes().get("value")).isEqualTo(Value.string("world"));

            // Delete.
            Provider.ApplyResponse deleted = aws.applyResourceChange(new Provider.ApplyRequest(
                    TYPE, updated.newState(), ssm.nullValue(), ssm.nullValue(), updated.newPrivate(), null));
            noErrors(deleted.diagnostics());
            assertThat(deleted.newState().isNull()).isTrue();

            // Gone remotely: a read says so with a null object.
            Provider.ReadResponse gone =
                    aws.readResource(new Provider.ReadRequest(TYPE, updated.newState(), updated.newPrivate()));
            noErrors(gone.diagnostics());
            assertThat(gone.newState().isNull()).isTrue();
        }
    }
}
