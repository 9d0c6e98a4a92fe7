package dev.strata.tfplugin;

import static dev.strata.tfplugin.AwsTestValues.offlineProviderConfig;
import static dev.strata.tfplugin.AwsTestValues.strings;
import static dev.strata.tfplugin.AwsTestValues.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.hcl.Result;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.PrivateState;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.testing.Terraform;
import dev.strata.tfplugin.ProviderSchema.Block;
import dev.strata.tfplugin.ProviderSchema.NestingMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Against the real AWS provider (protocol 5), offline: schema, provider configuration, an
 * offline data source compared with what Terraform itself produces, a provider function, Stop.
 * Skipped when the provider binary is not on this machine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AwsProviderTest {
    static final String NAME = "registry.terraform.io/hashicorp/aws";
    static final Path MIRROR = Path.of(System.getProperty("strata.test.pluginMirror", "/opt/tf-plugins"));
    static final Path EXE = MIRROR.resolve(
            "registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64/terraform-provider-aws_v5.100.0_x5");

    private ProviderClient aws;
    private ProviderSchema schema;

    @BeforeAll
    void start() {
        assumeTrue(Files.isExecutable(EXE), "AWS provider not installed at " + EXE);
        long t0 = System.nanoTime();
        Result<ProviderClient> r = ProviderClient.start(PluginLaunch.of(NAME, EXE), Duration.ofSeconds(120));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        aws = r.value();
        report("start + handshake", t0);
    }

    @AfterAll
    void stop() throws IOException {
        if (terraformDir != null) {
            try (var walk = Files.walk(terraformDir)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        if (aws != null) {
            long t0 = System.nanoTime();
            long pid = aws.plugin().pid();
            aws.close();
            report("shutdown", t0);
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .isFalse();
        }
    }

    private static void report(String what, long t0) {
        System.out.printf("AWS provider %s: %d ms%n", what, (System.nanoTime() - t0) / 1_000_000);
    }

    private ProviderSchema schema() {
        if (schema == null) {
            long t0 = System.nanoTime();
            Result<ProviderSchema> r = aws.getProviderSchema();
            report("GetSchema", t0);
            assertThat(r.diagnostics().hasErrors())
                    .as(r.diagnostics().toString())
                    .isFalse();
            schema = r.value();
        }
        return schema;
    }

    private Value providerConfig() {
        return offlineProviderConfig(schema().provider().block().emptyConfig());
    }

    @Test
    @Order(1)
    void schemaDescribesTheWholeProvider() {
        ProviderSchema s = schema();
        System.out.printf(
                "AWS schema: %d resource types, %d data sources, %d functions%n",
                s.resourceSchemas().size(),
                s.dataSourceSchemas().size(),
                s.functions().size());
        assertThat(s.resourceSchemas()).hasSizeGreaterThan(1000).containsKey("aws_s3_bucket");
        assertThat(s.dataSourceSchemas()).containsKeys("aws_iam_policy_document", "aws_partition", "aws_region");
        assertThat(s.functions()).containsKey("arn_parse");
        Block policy = s.dataSourceSchemas().get("aws_iam_policy_document").block();
        assertThat(policy.attributes().get("json").computed()).isTrue();
        assertThat(policy.blockTypes().get("statement").nesting()).isEqualTo(NestingMode.LIST);
        assertThat(policy.blockTypes()
                        .get("statement")
                        .block()
                        .blockTypes()
                        .get("principals")
                        .nesting())
                .isEqualTo(NestingMode.SET);
        assertThat(s.provider().block().attributes().get("region").optional()).isTrue();
        assertThat(s.resourceSchemas()
                        .get("aws_s3_bucket")
                        .block()
                        .impliedType()
                        .typeExpr())
                .contains("bucket=string");
    }

    @Test
    @Order(2)
    void validatesAndConfiguresOffline() {
        long t0 = System.nanoTime();
        ProviderDiagnostics valid = aws.validateProviderConfig(providerConfig());
        report("PrepareProviderConfig", t0);
        assertThat(valid.hasErrors()).as(valid.toString()).isFalse();

        configure(providerConfig());
    }

    private boolean configured;

    /** The AWS provider, like any SDK provider, may be configured only once per process. */
    private void configure(Value config) {
        if (!configured) {
            long t0 = System.nanoTime();
            ProviderDiagnostics r = aws.configureProvider("1.11.0", config);
            report("Configure", t0);
            assertThat(r.hasErrors()).as(r.toString()).isFalse();
            configured = true;
        }
    }

    private Value policyConfig() {
        Block policy =
                schema().dataSourceSchemas().get("aws_iam_policy_document").block();
        Block statement = policy.blockTypes().get("statement").block();
        Block principals = statement.blockTypes().get("principals").block();
        Block condition = statement.blockTypes().get("condition").block();
        Value allow = with(
                statement.emptyConfig(),
                Map.of(
                        "sid", Value.string("AllowRead"),
                        "effect", Value.string("Allow"),
                        "actions", strings("s3:GetObject", "s3:ListBucket"),
                        "resources", strings("arn:aws:s3:::example", "arn:aws:s3:::example/*"),
                        "principals",
                                Value.set(
                                        principals.impliedType(),
                                        List.of(with(
                                                principals.emptyConfig(),
                                                Map.of(
                                                        "type", Value.string("AWS"),
                                                        "identifiers", strings("arn:aws:iam::123456789012:root"))))),
                        "condition",
                                Value.set(
                                        condition.impliedType(),
                                        List.of(with(
                                                condition.emptyConfig(),
                                                Map.of(
                                                        "test", Value.string("StringEquals"),
                                                        "variable", Value.string("aws:PrincipalTag/team"),
                                                        "values",
                                                                Value.list(
                                                                        Type.STRING,
                                                                        List.of(Value.string("platform")))))))));
        Value deny = with(
                statement.emptyConfig(),
                Map.of(
                        "effect", Value.string("Deny"),
                        "actions", strings("s3:DeleteObject"),
                        "resources", strings("*")));
        return with(
                policy.emptyConfig(), Map.of("statement", Value.list(statement.impliedType(), List.of(allow, deny))));
    }

    @Test
    @Order(3)
    void readsPolicyDocumentLikeTerraform() throws Exception {
        configure(providerConfig());
        Value config = policyConfig();
        long t0 = System.nanoTime();
        ProviderDiagnostics valid = aws.validateDataResourceConfig("aws_iam_policy_document", config);
        report("ValidateDataSourceConfig", t0);
        assertThat(valid.hasErrors()).as(valid.toString()).isFalse();

        t0 = System.nanoTime();
        Provider.ReadDataResponse read =
                aws.readDataSource(new Provider.ReadDataRequest("aws_iam_policy_document", config));
        report("ReadDataSource", t0);
        assertThat(read.diagnostics().hasErrors())
                .as(read.diagnostics().toString())
                .isFalse();
        Value state = read.state();
        String json = state.attributes().get("json").asString();
        assertThat(new ObjectMapper().readTree(json).get("Statement")).hasSize(2);

        Value maybe = with(
                config,
                Map.of(
                        "statement",
                        Value.list(
                                config.attributes()
                                        .get("statement")
                                        .elements()
                                        .get(0)
                                        .type(),
                                List.of(with(
                                        config.attributes()
                                                .get("statement")
                                                .elements()
                                                .get(1),
                                        Map.of("effect", Value.string("Maybe")))))));
        ProviderDiagnostics invalid = aws.validateDataResourceConfig("aws_iam_policy_document", maybe);
        assertThat(invalid.hasErrors()).isTrue();
        assertThat(invalid.asList().get(0).attribute().toString()).startsWith("statement");

        JsonNode terraform = terraformOutputs();
        assumeTrue(terraform != null, "terraform not on PATH; compared with itself only");
        assertThat(json).isEqualTo(terraform.get("json").get("value").asText());
    }

    @Test
    @Order(4)
    void callsArnParse() throws Exception {
        long t0 = System.nanoTime();
        Provider.CallFunctionResponse r = aws.callFunction(new Provider.CallFunctionRequest(
                "arn_parse", List.of(Value.string("arn:aws:iam::123456789012:role/example"))));
        report("CallFunction arn_parse", t0);
        assertThat(r.error()).isNull();
        Value v = r.result();
        assertThat(v.attributes().get("account_id")).isEqualTo(Value.string("123456789012"));
        assertThat(v.attributes().get("resource")).isEqualTo(Value.string("role/example"));
        assertThat(v.attributes().get("region")).isEqualTo(Value.string(""));

        JsonNode terraform = terraformOutputs();
        if (terraform != null) {
            assertThat(new ObjectMapper().readTree(dev.strata.provider.ValueJson.encode(v, v.type())))
                    .isEqualTo(terraform.get("arn").get("value"));
        }

        // The function's own failure is an answer (as Terraform words it), not a failed call.
        Provider.CallFunctionResponse bad =
                aws.callFunction(new Provider.CallFunctionRequest("arn_parse", List.of(Value.string("not-an-arn"))));
        assertThat(bad.error()).isEqualTo("arn: invalid prefix");
        assertThat(bad.errorArgument()).isEmpty();

        assertThat(schema().functions()).containsKeys("arn_parse", "arn_build");
    }

    @Test
    @Order(5)
    void stopIsAcceptedAndTheProcessKeepsServing() {
        long t0 = System.nanoTime();
        ProviderDiagnostics stopped = aws.stopProvider();
        report("Stop", t0);
        assertThat(stopped.hasErrors()).as(stopped.toString()).isFalse();
        assertThat(aws.plugin().isAlive()).isTrue();
    }

    @Test
    @Order(6)
    void unknownDataSourceIsADiagnostic() {
        Provider.ReadDataResponse r =
                aws.readDataSource(new Provider.ReadDataRequest("aws_no_such_thing", Value.EMPTY_OBJECT));
        assertThat(r.diagnostics().hasErrors()).isTrue();
        assertThat(r.diagnostics().asList().get(0).detail()).contains("aws_no_such_thing");
    }

    @Test
    @Order(7)
    void schemaEqualsWhatTerraformReports() throws Exception {
        assumeTrue(terraformDir() != null, "terraform not on PATH");
        JsonNode tf = new ObjectMapper()
                .readTree(terraform(terraformDir(), "providers", "schema", "-json"))
                .get("provider_schemas")
                .get(NAME);
        ProviderSchema s = schema();
        compareBlock("provider", s.provider().block(), tf.get("provider").get("block"));
        assertThat(s.resourceSchemas().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        iterable(tf.get("resource_schemas").fieldNames()));
        assertThat(s.dataSourceSchemas().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        iterable(tf.get("data_source_schemas").fieldNames()));
        s.resourceSchemas().forEach((n, rs) -> {
            assertThat(rs.version())
                    .as(n)
                    .isEqualTo(tf.get("resource_schemas").get(n).path("version").asLong());
            compareBlock(n, rs.block(), tf.get("resource_schemas").get(n).get("block"));
        });
        s.dataSourceSchemas()
                .forEach((n, ds) -> compareBlock(
                        n, ds.block(), tf.get("data_source_schemas").get(n).get("block")));
        assertThat(s.functions().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        iterable(tf.get("functions").fieldNames()));
    }

    private Value ssmConfig() {
        Block ssm = schema().resourceSchemas().get("aws_ssm_parameter").block();
        return with(
                ssm.emptyConfig(),
                Map.of(
                        "name", Value.string("strata-test"),
                        "type", Value.string("String"),
                        "value", Value.string("hello")));
    }

    @Test
    @Order(8)
    void plansACreateOffline() {
        configure(providerConfig());
        Type t = schema().resourceSchemas().get("aws_ssm_parameter").block().impliedType();
        Value config = ssmConfig();
        assertThat(aws.validateResourceConfig("aws_ssm_parameter", config).hasErrors())
                .isFalse();
        long t0 = System.nanoTime();
        Provider.PlanResponse plan = aws.planResourceChange(
                new Provider.PlanRequest("aws_ssm_parameter", Value.nullValue(t), config, config, PrivateState.EMPTY));
        report("PlanResourceChange", t0);
        assertThat(plan.diagnostics().hasErrors())
                .as(plan.diagnostics().toString())
                .isFalse();
        Value planned = plan.plannedState();
        assertThat(planned.attributes().get("name")).isEqualTo(Value.string("strata-test"));
        assertThat(planned.attributes().get("arn").isKnown()).isFalse();
        assertThat(planned.attributes().get("id").isKnown()).isFalse();
        assertThat(plan.diagnostics().isEmpty()).as("not deferred").isTrue();
    }

    @Test
    @Order(9)
    void upgradesStoredStateAndImportsById() {
        configure(providerConfig());
        long version = schema().resourceSchemas().get("aws_ssm_parameter").version();
        String raw = "{\"id\":\"strata-test\",\"name\":\"strata-test\",\"type\":\"String\",\"value\":\"hello\","
                + "\"arn\":\"arn:aws:ssm:us-east-1:123456789012:parameter/strata-test\",\"tier\":\"Standard\",\"version\":1}";
        long t0 = System.nanoTime();
        Provider.UpgradeResponse up =
                aws.upgradeResourceState(new Provider.UpgradeRequest("aws_ssm_parameter", version, raw));
        report("UpgradeResourceState", t0);
        assertThat(up.diagnostics().hasErrors()).as(up.diagnostics().toString()).isFalse();
        Value v = up.upgradedState();
        assertThat(v.attributes().get("arn"))
                .isEqualTo(Value.string("arn:aws:ssm:us-east-1:123456789012:parameter/strata-test"));
        assertThat(v.attributes().get("version")).isEqualTo(Value.number(1));
        assertThat(v.attributes().get("description").isNull()).isTrue();

        Provider.ImportResponse imported =
                aws.importResourceState(new Provider.ImportRequest("aws_ssm_parameter", "strata-test"));
        assertThat(imported.diagnostics().hasErrors())
                .as(imported.diagnostics().toString())
                .isFalse();
        assertThat(imported.imported()).hasSize(1);
        assertThat(imported.imported().get(0).state().attributes().get("id")).isEqualTo(Value.string("strata-test"));
    }

    /** Last: a provider killed under Strata becomes a diagnostic with its exit status, and close() still returns. */
    @Test
    @Order(100)
    void killedProviderBecomesADiagnostic() throws Exception {
        ProcessHandle h = ProcessHandle.of(aws.plugin().pid()).orElseThrow();
        h.destroyForcibly();
        h.onExit().get(10, TimeUnit.SECONDS);
        Provider.CallFunctionResponse r = aws.callFunction(new Provider.CallFunctionRequest(
                "arn_parse", List.of(Value.string("arn:aws:iam::123456789012:role/x"))));
        // A call that could not be made is the function's error: the crash diagnostic's summary and detail.
        assertThat(r.error())
                .startsWith("Plugin did not respond: ")
                .contains(NAME)
                .contains("exited with status 137")
                .contains("CallFunction");
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    private static void compareBlock(String where, Block ours, JsonNode theirs) {
        JsonNode attrs = theirs.path("attributes");
        assertThat(ours.attributes().keySet())
                .as(where)
                .containsExactlyInAnyOrderElementsOf(iterable(attrs.fieldNames()));
        ours.attributes().forEach((n, a) -> {
            JsonNode t = attrs.get(n);
            String at = where + "." + n;
            assertThat(a.type()).as(at).isEqualTo(dev.strata.tfplugin.wire.TypeJson.parse(t.get("type")));
            assertThat(List.of(a.required(), a.optional(), a.computed(), a.sensitive(), a.deprecated()))
                    .as(at)
                    .isEqualTo(List.of(
                            t.path("required").asBoolean(),
                            t.path("optional").asBoolean(),
                            t.path("computed").asBoolean(),
                            t.path("sensitive").asBoolean(),
                            t.path("deprecated").asBoolean()));
        });
        JsonNode blocks = theirs.path("block_types");
        assertThat(ours.blockTypes().keySet())
                .as(where)
                .containsExactlyInAnyOrderElementsOf(iterable(blocks.fieldNames()));
        ours.blockTypes().forEach((n, b) -> {
            JsonNode t = blocks.get(n);
            assertThat(b.nesting().name().toLowerCase(java.util.Locale.ROOT))
                    .as(where + "." + n)
                    .isEqualTo(t.get("nesting_mode").asText());
            assertThat(List.of(b.minItems(), b.maxItems()))
                    .as(where + "." + n)
                    .isEqualTo(List.of(
                            t.path("min_items").asLong(), t.path("max_items").asLong()));
            compareBlock(where + "." + n, b.block(), t.get("block"));
        });
    }

    private static Path terraformDir;
    private static boolean terraformTried;

    /** A directory where the same configuration has been initialised and applied by terraform, offline. */
    private static synchronized Path terraformDir() throws IOException, InterruptedException {
        if (!terraformTried) {
            terraformTried = true;
            if (Terraform.find().isPresent()) {
                Path dir = Files.createTempDirectory("strata-tf-aws");
                Files.writeString(
                        dir.resolve("cli.tfrc"),
                        "provider_installation {\n  filesystem_mirror {\n    path = \"" + MIRROR + "\"\n  }\n}\n");
                try (var in = AwsProviderTest.class.getResourceAsStream("/aws-policy/main.tf")) {
                    Files.write(dir.resolve("main.tf"), in.readAllBytes());
                }
                terraform(dir, "init", "-input=false", "-no-color");
                terraform(dir, "apply", "-auto-approve", "-input=false", "-no-color");
                terraformDir = dir;
            }
        }
        return terraformDir;
    }

    /** The outputs of the same configuration run through the terraform binary, or null without terraform. */
    private static JsonNode terraformOutputs() throws IOException, InterruptedException {
        Path dir = terraformDir();
        if (dir == null) {
            return null;
        }
        return new ObjectMapper().readTree(terraform(dir, "output", "-json"));
    }

    /** terraform in {@code dir} with its {@code cli.tfrc} (the mirror); fails unless it exits 0. */
    private static String terraform(Path dir, String... args) throws IOException, InterruptedException {
        return Terraform.at(Terraform.find().orElseThrow(), dir)
                .cliConfig(dir.resolve("cli.tfrc"))
                .mergeStderr()
                .timeout(Duration.ofMinutes(2))
                .ok(args);
    }
}
