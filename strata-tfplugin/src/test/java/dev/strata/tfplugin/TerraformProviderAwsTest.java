package dev.strata.tfplugin;

import static dev.strata.tfplugin.AwsTestValues.noErrors;
import static dev.strata.tfplugin.AwsTestValues.offlineProviderConfig;
import static dev.strata.tfplugin.AwsTestValues.strings;
import static dev.strata.tfplugin.AwsTestValues.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.addr.AttributePath;
import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Result;
import dev.strata.lang.funcs.CallResult;
import dev.strata.lang.funcs.Function;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.NestingMode;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderFunction;
import dev.strata.provider.ProviderSchema;
import dev.strata.testing.Terraform;
import dev.strata.tfplugin.install.LockFile;
import dev.strata.tfplugin.install.Platform;
import dev.strata.tfplugin.install.ProviderInstaller;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real AWS provider through the provider SPI: installed from the mirror by
 * {@link ProviderInstaller}, resolved through {@link InstalledProviders}, driven as a
 * {@link Provider} offline. Skipped when the provider is not on this machine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TerraformProviderAwsTest {
    static final Path MIRROR = Path.of(System.getProperty("strata.test.pluginMirror", "/opt/tf-plugins"));
    static final dev.strata.addr.Provider AWS = dev.strata.addr.Provider.hashicorp("aws");

    @TempDir
    static Path dir;

    private InstalledProviders installed;
    private Provider aws;
    private ProviderSchema schema;
    private final List<Provider> opened = new ArrayList<>();

    @BeforeAll
    void install() throws IOException {
        assumeTrue(
                Files.isDirectory(MIRROR.resolve("registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64"))
                        && Platform.current().toString().equals("linux_amd64"),
                "AWS provider not in " + MIRROR);
        Files.writeString(
                dir.resolve("cli.tfrc"),
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + MIRROR + "\"\n  }\n  direct {}\n}\n");
        Map<String, String> env =
                Map.of("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString());
        ProviderInstaller.Options o = new ProviderInstaller.Options(
                dir, dir.resolve(".terraform"), env, dir.resolve("home"), Platform.current(), false);
        var r = ProviderInstaller.install(
                o,
                List.of(new ProviderInstaller.Requirement(
                        new dev.strata.addr.Provider("registry.terraform.io", "hashicorp", "aws"),
                        List.of(">= 5.0, < 6.0"))),
                LockFile.empty(),
                line -> {});
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        Files.writeString(dir.resolve(LockFile.FILENAME), r.value().lock().render());
        installed = InstalledProviders.forWorkingDirectory(dir, Map.of());
        aws = create();
    }

    private Provider create() {
        Result<ProviderFactory> f =
                installed.resolve(AWS, VersionConstraint.parse("~> 5.100").value());
        assertThat(f.diagnostics().hasErrors()).as(f.diagnostics().toString()).isFalse();
        assertThat(f.value().version().toString()).isEqualTo("5.100.0");
        Provider p = f.value().create();
        opened.add(p);
        return p;
    }

    @AfterAll
    void close() {
        opened.forEach(Provider::close);
    }

    private ProviderSchema schema() {
        if (schema == null) {
            long t0 = System.nanoTime();
            schema = aws.schema();
            System.out.printf("AWS schema through the SPI, cold: %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        }
        return schema;
    }

    @Test
    @Order(1)
    void schemaIsConvertedAndCachedByPackageHash() {
        ProviderSchema s = schema();
        assertThat(s.resourceTypes()).hasSizeGreaterThan(1000).containsKey("aws_ssm_parameter");
        Block ssm = s.resourceType("aws_ssm_parameter").block();
        assertThat(ssm.attribute("name").required()).isTrue();
        assertThat(ssm.attribute("value").sensitive()).isTrue();
        assertThat(ssm.attribute("arn").optional()).isTrue();
        assertThat(ssm.attribute("arn").computed()).isTrue();
        assertThat(ssm.attribute("tags").type()).isEqualTo(Type.map(Type.STRING));
        Block policy = s.dataSource("aws_iam_policy_document").block();
        assertThat(policy.blockType("statement").nesting()).isEqualTo(NestingMode.LIST);
        assertThat(policy.blockType("statement").block().blockType("principals").nesting())
                .isEqualTo(NestingMode.SET);
        assertThat(s.provider().block().attribute("region").optional()).isTrue();

        // A second instance finds the schema in the cache, so it does not start a plugin for it.
        long t0 = System.nanoTime();
        TerraformProvider warm = (TerraformProvider) create();
        ProviderSchema again = warm.schema();
        System.out.printf("AWS schema through the SPI, warm (cache): %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        assertThat(warm.started()).isFalse();
        assertThat(again).isEqualTo(s);
        assertThat(warm.functions()).containsKey("arn_parse");
    }

    private Value providerConfig() {
        return offlineProviderConfig(schema().provider().block().emptyValue());
    }

    @Test
    @Order(2)
    void validatesAndConfiguresOffline() {
        noErrors(aws.validateProviderConfig(providerConfig()));
        noErrors(aws.configure(new Provider.ConfigureRequest(providerConfig(), "0.1.0")));
    }

    private Value readData(String type, Map<String, Value> attrs) {
        Value config = with(schema().dataSource(type).block().emptyValue(), attrs);
        noErrors(aws.validateDataResourceConfig(type, config));
        Provider.ReadDataResponse r = aws.readDataSource(new Provider.ReadDataRequest(type, config));
        noErrors(r.diagnostics());
        assertThat(r.state().type()).isEqualTo(schema().dataSource(type).block().impliedType());
        return r.state();
    }

    @Test
    @Order(3)
    void readsDataSourcesThatNeedNoNetwork() throws Exception {
        Value partition = readData("aws_partition", Map.of());
        assertThat(partition.attributes().get("partition")).isEqualTo(Value.string("aws"));
        assertThat(partition.attributes().get("dns_suffix")).isEqualTo(Value.string("amazonaws.com"));

        Value region = readData("aws_region", Map.of());
        assertThat(region.attributes().get("name")).isEqualTo(Value.string("us-east-1"));

        Value arn = readData("aws_arn", Map.of("arn", Value.string("arn:aws:iam::123456789012:role/example")));
        assertThat(arn.attributes().get("account")).isEqualTo(Value.string("123456789012"));
        assertThat(arn.attributes().get("service")).isEqualTo(Value.string("iam"));

        Block statement = schema().dataSource("aws_iam_policy_document")
                .block()
                .blockType("statement")
                .block();
        Value st = with(
                statement.emptyValue(),
                Map.of(
                        "effect",
                        Value.string("Allow"),
                        "actions",
                        strings("s3:GetObject"),
                        "resources",
                        strings("arn:aws:s3:::example/*")));
        Value doc = readData(
                "aws_iam_policy_document", Map.of("statement", Value.list(statement.impliedType(), List.of(st))));
        JsonNode json = new ObjectMapper().readTree(doc.attributes().get("json").asString());
        assertThat(json.get("Statement").get(0).get("Action").asText()).isEqualTo("s3:GetObject");
    }

    @Test
    @Order(4)
    void diagnosticsCarryAttributePaths() {
        Block policy = schema().dataSource("aws_iam_policy_document").block();
        Block statement = policy.blockType("statement").block();
        Value bad = with(statement.emptyValue(), Map.of("effect", Value.string("Maybe"), "actions", strings("s3:*")));
        ProviderDiagnostics ds = aws.validateDataResourceConfig(
                "aws_iam_policy_document",
                with(policy.emptyValue(), Map.of("statement", Value.list(statement.impliedType(), List.of(bad)))));
        assertThat(ds.hasErrors()).isTrue();
        ProviderDiagnostic d = ds.asList().get(0);
        assertThat(d.attribute()).isNotNull();
        assertThat(d.attribute().startsWith(AttributePath.of("statement")))
                .as(d.attribute().toString())
                .isTrue();
        assertThat(d.attribute().toString()).isEqualTo("statement[0].effect");
    }

    @Test
    @Order(5)
    void callsProviderFunctions() {
        TerraformProvider p = (TerraformProvider) aws;
        Provider.CallFunctionResponse r = p.callFunction(new Provider.CallFunctionRequest(
                "arn_parse", List.of(Value.string("arn:aws:iam::123456789012:role/example"))));
        assertThat(r.error()).isNull();
        assertThat(r.result().attributes().get("resource")).isEqualTo(Value.string("role/example"));
        assertThat(p.functions().get("arn_build").parameters())
                .extracting(ProviderFunction.Parameter::name)
                .containsExactly("partition", "service", "region", "account_id", "resource");

        Function f = p.languageFunctions("aws").stream()
                .filter(fn -> fn.name().equals("provider::aws::arn_parse"))
                .findFirst()
                .orElseThrow();
        CallResult ok = f.call(Value.string("arn:aws:s3:::bucket"));
        assertThat(ok.value().attributes().get("service")).isEqualTo(Value.string("s3"));
        CallResult unknown = f.call(Value.unknown(Type.STRING));
        assertThat(unknown.value().isKnown()).isFalse();
        CallResult bad = f.call(Value.string("not-an-arn"));
        assertThat(bad).isInstanceOf(CallResult.Failure.class);
        assertThat(((CallResult.Failure) bad).summary()).isEqualTo("Error in function call");
        assertThat(((CallResult.Failure) bad).detail())
                .isEqualTo("Call to function \"provider::aws::arn_parse\" failed: arn: invalid prefix.");
        // Sensitive arguments make a sensitive result.
        CallResult secret = f.call(Value.string("arn:aws:s3:::bucket")
                .withMarks(java.util.EnumSet.of(dev.strata.lang.value.Mark.SENSITIVE)));
        assertThat(secret.value().hasMarkDeep(dev.strata.lang.value.Mark.SENSITIVE))
                .isTrue();
    }

    @Test
    @Order(6)
    void plansAnSsmParameterCreate() {
        Block ssm = schema().resourceType("aws_ssm_parameter").block();
        Value config = with(
                ssm.emptyValue(),
                Map.of(
                        "name",
                        Value.string("/strata/test"),
                        "type",
                        Value.string("String"),
                        "value",
                        Value.string("hello")));
        noErrors(aws.validateResourceConfig("aws_ssm_parameter", config));
        Value proposed = dev.strata.provider.ProposedNewState.of(ssm, ssm.nullValue(), config);
        Provider.PlanResponse plan = aws.planResourceChange(
                new Provider.PlanRequest("aws_ssm_parameter", ssm.nullValue(), proposed, config, null));
        noErrors(plan.diagnostics());
        Value planned = plan.plannedState();
        assertThat(planned.attributes().get("name")).isEqualTo(Value.string("/strata/test"));
        assertThat(planned.attributes().get("value")).isEqualTo(Value.string("hello"));
        assertThat(planned.attributes().get("arn").isKnown()).isFalse();
        assertThat(planned.attributes().get("version").isKnown()).isFalse();
        assertThat(planned.attributes().get("tags_all").isKnown()).isFalse();
    }

    @Test
    @Order(7)
    void upgradesStoredStateAndStops() {
        String raw = "{\"id\":\"/strata/x\",\"name\":\"/strata/x\",\"type\":\"String\",\"value\":\"v\","
                + "\"arn\":\"arn:aws:ssm:us-east-1:123456789012:parameter/strata/x\",\"tier\":\"Standard\",\"version\":3}";
        Provider.UpgradeResponse up = aws.upgradeResourceState(new Provider.UpgradeRequest(
                "aws_ssm_parameter", schema().resourceType("aws_ssm_parameter").version(), raw));
        noErrors(up.diagnostics());
        assertThat(up.upgradedState().type())
                .isEqualTo(schema().resourceType("aws_ssm_parameter").block().impliedType());
        assertThat(up.upgradedState().attributes().get("version")).isEqualTo(Value.number(3));
        assertThat(up.upgradedState().attributes().get("description").isNull()).isTrue();
        noErrors(aws.stop());
        // A provider whose plugin never started has nothing to stop.
        TerraformProvider idle = (TerraformProvider) create();
        assertThat(idle.stop().isEmpty()).isTrue();
        assertThat(idle.started()).isFalse();
    }

    @Test
    @Order(7)
    void unknownTypeIsADiagnostic() {
        ProviderDiagnostics ds = aws.validateResourceConfig("aws_no_such_thing", Value.EMPTY_OBJECT);
        assertThat(ds.hasErrors()).isTrue();
        assertThat(ds.asList().get(0).detail()).contains("aws_no_such_thing");
    }

    /** The provider process dies during a call: the call ends with a diagnostic naming it, and nothing hangs. */
    @Test
    @Order(8)
    void killedMidCallBecomesADiagnostic() throws Exception {
        // Without a cache the first call is GetProviderSchema, which takes the AWS provider seconds.
        Result<ProviderFactory> f = installed.resolve(AWS, VersionConstraint.ANY);
        InstalledProviders.Installed pkg = (InstalledProviders.Installed) f.value();
        TerraformProvider p = TerraformProvider.of(pkg.launch(), InstalledProviders.CALL_TIMEOUT);
        opened.add(p);
        CompletableFuture<Result<ProviderSchema>> call = CompletableFuture.supplyAsync(p::checkSchema);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (p.pid().isEmpty() && !call.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(p.pid()).as("plugin started").isPresent();
        ProcessHandle.of(p.pid().getAsLong()).orElseThrow().destroyForcibly();
        Result<ProviderSchema> r = call.get(60, TimeUnit.SECONDS);
        assertThat(r.value()).isNull();
        var d = r.diagnostics().asList().get(0);
        assertThat(d.summary()).isEqualTo("Plugin did not respond");
        assertThat(d.detail())
                .contains("registry.terraform.io/hashicorp/aws")
                .contains("exited with status")
                .contains("stderr");
        // Later calls report the failure instead of hanging or starting another process.
        ProviderDiagnostics later = p.validateProviderConfig(Value.EMPTY_OBJECT);
        assertThat(later.hasErrors()).isTrue();
    }

    /** {@link SchemaJson} writes what {@code terraform providers schema -json} prints for the provider. */
    @Test
    @Order(9)
    void schemaJsonEqualsTerraformsOutput() throws Exception {
        Terraform.assumeInstalled();
        Files.writeString(
                dir.resolve("main.tf"),
                "terraform {\n  required_providers {\n"
                        + "    aws = { source = \"hashicorp/aws\", version = \">= 5.0, < 6.0\" }\n  }\n}\n");
        Path tfDir = Files.createDirectories(dir.resolve("tf"));
        // Terraform would query the registry for a "direct" method, so its configuration names the mirror only.
        Files.writeString(
                tfDir.resolve("cli.tfrc"),
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + MIRROR + "\"\n  }\n}\n");
        Files.copy(dir.resolve("main.tf"), tfDir.resolve("main.tf"));
        terraform(tfDir, "init", "-input=false", "-no-color");
        JsonNode tf = new ObjectMapper()
                .readTree(terraform(tfDir, "providers", "schema", "-json"))
                .get("provider_schemas")
                .get("registry.terraform.io/hashicorp/aws");
        TerraformProvider p = (TerraformProvider) aws;
        JsonNode ours = new ObjectMapper()
                .readTree(new ObjectMapper()
                        .writeValueAsBytes(
                                SchemaJson.write(p.checkPluginSchema().value())));
        assertThat(ours.equals(tf)).as("schema JSON differs from terraform's").isTrue();
    }

    private String terraform(Path wd, String... args) throws IOException, InterruptedException {
        return Terraform.in(wd)
                .cliConfig(wd.resolve("cli.tfrc"))
                .timeout(Duration.ofMinutes(2))
                .ok(args);
    }
}
