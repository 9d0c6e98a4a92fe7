package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Terraform's "attributes as blocks": an argument of a list or set of objects (the legacy SDK's
 * {@code ingress} of {@code aws_security_group}) may be written as nested blocks, also dynamic ones.
 */
class BodyDecoderTest {
    private static final Type RULE = Type.object(Map.of("port", Type.NUMBER, "cidrs", Type.list(Type.STRING)));
    private static final Block SCHEMA = Block.builder()
            .attribute("name", Attribute.optional(Type.STRING))
            .attribute("rule", Attribute.optionalComputed(Type.set(RULE)))
            .attribute("step", Attribute.optional(Type.list(RULE)))
            .build();

    private static Result<Value> decode(String src) {
        var file = NativeSyntax.parseConfig(src.getBytes(StandardCharsets.UTF_8), "main.tf")
                .value();
        Scope scope = Scope.empty(TemplateFunctions.builtins(FunctionContext.system(Path.of("."))));
        return BodyDecoder.decode(file.body(), SCHEMA, scope);
    }

    private static Value rule(int port, String... cidrs) {
        return Value.objectOf(
                "port",
                Value.number(port),
                "cidrs",
                Value.list(
                        Type.STRING, List.of(cidrs).stream().map(Value::string).toList()));
    }

    @Test
    void blocksBecomeTheSetOrListTheArgumentDeclares() {
        Result<Value> r = decode("""
                name = "a"
                rule {
                  port  = 80
                  cidrs = ["10.0.0.0/16"]
                }
                rule {
                  port  = 443
                  cidrs = []
                }
                dynamic "step" {
                  for_each = [1, 2]
                  content {
                    port = step.value
                  }
                }
                """);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        Value v = r.value();
        assertThat(v.attributes().get("rule")).isEqualTo(Value.set(RULE, List.of(rule(80, "10.0.0.0/16"), rule(443))));
        assertThat(v.attributes().get("step").elements()).hasSize(2);
        assertThat(v.attributes().get("step").elements().get(1).attributes().get("port"))
                .isEqualTo(Value.number(2));
        assertThat(v.attributes()
                        .get("step")
                        .elements()
                        .get(1)
                        .attributes()
                        .get("cidrs")
                        .isNull())
                .isTrue();
    }

    @Test
    void theAttributeFormStillWorksAndAnAbsentArgumentIsNull() {
        Result<Value> r = decode("step = [{ port = 1, cidrs = [\"a\"] }]\n");
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().attributes().get("step")).isEqualTo(Value.list(RULE, List.of(rule(1, "a"))));
        assertThat(r.value().attributes().get("rule").isNull()).isTrue();
        assertThat(r.value().attributes().get("rule").type()).isEqualTo(Type.set(RULE));
    }

    @Test
    void instancesOfOneBlockShareItsLayoutAndDecodeAsAlone() {
        Block schema = Block.builder()
                .attribute("name", Attribute.optional(Type.STRING))
                .block(
                        "tag",
                        dev.strata.provider.NestedBlock.of(
                                dev.strata.provider.NestingMode.LIST,
                                Block.builder()
                                        .attribute("key", Attribute.required(Type.STRING))
                                        .build()))
                .build();
        var body = NativeSyntax.parseConfig("""
                        name  = "n-${x}"
                        other = 1
                        tag {
                          key = x
                        }
                        tag {
                          key = "${x}2"
                        }
                        """.getBytes(StandardCharsets.UTF_8), "main.tf")
                .value()
                .body();
        Scope base = Scope.empty(TemplateFunctions.builtins(FunctionContext.system(Path.of("."))));
        BodyDecoder.Shapes shapes = new BodyDecoder.Shapes();
        for (String x : List.of("a", "b", "c")) {
            Scope scope = Scope.binding(base, Map.of("x", Value.string(x)));
            Result<Value> shared = BodyDecoder.decode(body, schema, scope, shapes);
            Result<Value> alone = BodyDecoder.decode(body, schema, scope);
            assertThat(shared.value()).isEqualTo(alone.value());
            assertThat(shared.value().attributes().get("name")).isEqualTo(Value.string("n-" + x));
            // The unexpected argument is reported by every decode, as without sharing.
            assertThat(shared.diagnostics().asList())
                    .extracting(d -> d.summary())
                    .containsExactly("Unsupported argument");
            assertThat(shared.diagnostics().asList())
                    .isEqualTo(alone.diagnostics().asList());
        }
        // The body and its two nested blocks' bodies: worked out by the first decode only.
        assertThat(shapes.computed()).isEqualTo(3);
    }
}
