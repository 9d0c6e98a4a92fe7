package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.json.JsonSyntax;
import dev.strata.hcl.syntax.NativeSyntax;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One expression as Terraform's plan JSON describes it (each row checked against terraform 1.11's
 * {@code show -json}; {@code PlanJsonDifferentialTest} compares whole configurations where terraform is
 * installed).
 */
class ConfigurationJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Stream<Arguments> expressions() {
        return Stream.of(
                Arguments.of("\"abc\"", "{\"constant_value\":\"abc\"}"),
                Arguments.of("null", "{\"constant_value\":null}"),
                Arguments.of("[1, \"two\", true]", "{\"constant_value\":[1,\"two\",true]}"),
                Arguments.of("true ? 1 : 2", "{\"constant_value\":1}"),
                Arguments.of("[for x in [1, 2] : x * 2]", "{\"constant_value\":[2,4]}"),
                // A function call is evaluated with no functions: neither a constant nor a reference.
                Arguments.of("upper(\"x\")", "{}"),
                Arguments.of("count.index", "{\"references\":[\"count.index\"]}"),
                Arguments.of("local.obj.k.v", "{\"references\":[\"local.obj.k.v\",\"local.obj.k\",\"local.obj\"]}"),
                Arguments.of(
                        "terraform_data.a[0].output",
                        "{\"references\":[\"terraform_data.a[0].output\",\"terraform_data.a[0]\",\"terraform_data.a\"]}"),
                // A splat refers to the whole resource; duplicates stay, in the order written.
                Arguments.of(
                        "[terraform_data.a[*].id, terraform_data.a.x]",
                        "{\"references\":[\"terraform_data.a\",\"terraform_data.a.x\",\"terraform_data.a\"]}"),
                Arguments.of("var.m[\"q\\\"x\"]", "{\"references\":[\"var.m[\\\"q\\\\\\\"x\\\"]\",\"var.m\"]}"),
                Arguments.of("module.m.out", "{\"references\":[\"module.m.out\",\"module.m\"]}"),
                Arguments.of("module.mc[1].out", "{\"references\":[\"module.mc[1].out\",\"module.mc[1]\"]}"),
                Arguments.of("module.mc[1]", "{\"references\":[\"module.mc[1]\",\"module.mc\"]}"),
                Arguments.of(
                        "data.x.y.outputs.z",
                        "{\"references\":[\"data.x.y.outputs.z\",\"data.x.y.outputs\",\"data.x.y\"]}"),
                Arguments.of("\"${self.id} ${each.value}\"", "{\"references\":[\"self.id\",\"self\",\"each.value\"]}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("expressions")
    void anExpressionIsItsConstantOrItsReferences(String source, String expected) throws Exception {
        Expression e = NativeSyntax.parseExpression(source.getBytes(StandardCharsets.UTF_8), "t.tf", SourcePos.START)
                .value();

        assertThat(ConfigurationJson.expression(e).toString())
                .isEqualTo(JSON.readTree(expected).toString());
    }

    @Test
    void aJsonStringIsALiteralAndItsTemplateStillRefers() throws Exception {
        Expression e = JsonSyntax.parseExpression(
                        "\"${var.v}-lit\"".getBytes(StandardCharsets.UTF_8), "t.tf.json", SourcePos.START)
                .value();

        assertThat(ConfigurationJson.expression(e))
                .isEqualTo(JSON.readTree("{\"constant_value\":\"${var.v}-lit\",\"references\":[\"var.v\"]}"));
    }

    @Test
    void modulesResourcesUseTheConfigurationTheyInheritAndCountsWithoutConstantsAreLeftOut() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "a" { count = length([1, 2]) }
                module "m" {
                  source     = "./m"
                  for_each   = toset(["a"])
                  x          = each.key
                  undeclared = 1
                  depends_on = [terraform_data.a[0]]
                }
                output "o" {
                  value      = 1
                  depends_on = [module.m]
                }
                """);
        Files.createDirectories(dir.resolve("m"));
        Files.writeString(dir.resolve("m/main.tf"), """
                variable "x" {}
                variable "secret" {
                  default   = "hidden"
                  sensitive = true
                }
                resource "terraform_data" "in" { input = var.x }
                """);
        ConfigTree tree =
                ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT).value();

        JsonNode c = ConfigurationJson.of(tree, null);

        assertThat(c.path("provider_config").toString())
                .isEqualTo("{\"terraform\":{\"name\":\"terraform\",\"full_name\":\"terraform.io/builtin/terraform\"}}");
        JsonNode root = c.path("root_module");
        assertThat(root.at("/resources/0").has("count_expression")).isFalse();
        assertThat(root.at("/outputs/o").toString())
                .isEqualTo("{\"expression\":{\"constant_value\":1},\"depends_on\":[\"module.m\"]}");
        JsonNode call = root.at("/module_calls/m");
        assertThat(call.has("for_each_expression")).isFalse();
        assertThat(call.path("expressions").toString()).isEqualTo("{\"x\":{\"references\":[\"each.key\"]}}");
        assertThat(call.path("depends_on").toString()).isEqualTo("[\"terraform_data.a[0]\"]");
        assertThat(call.at("/module/resources/0/provider_config_key").asText()).isEqualTo("terraform");
        assertThat(call.at("/module/variables/secret").toString()).isEqualTo("{\"sensitive\":true}");
    }
}
