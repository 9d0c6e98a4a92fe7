package dev.strata.stacks.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import dev.strata.provider.SchemaValues;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProviderConfigBodyTest {
    private static final Block ROLE = Block.builder()
            .attribute("role_arn", Attribute.required(Type.STRING))
            .build();
    private static final Block TAGS = Block.builder()
            .attribute("tags", Attribute.optional(Type.map(Type.STRING)))
            .build();
    private static final Block SCHEMA = Block.builder()
            .attribute("region", Attribute.optional(Type.STRING))
            .attribute("id", Attribute.computed(Type.STRING))
            .block("assume_role", NestedBlock.of(NestingMode.LIST, ROLE))
            .block("default_tags", NestedBlock.of(NestingMode.SINGLE, TAGS))
            .block("endpoint", NestedBlock.of(NestingMode.MAP, ROLE))
            .build();

    private static Result<Value> decode(String src) {
        var file = NativeSyntax.parseConfig(src.getBytes(StandardCharsets.UTF_8), "main.tfcomponent.hcl")
                .value();
        Scope scope = Scope.empty(TemplateFunctions.builtins(FunctionContext.system(Path.of("."))));
        return ProviderConfigBody.decode(
                file.body(),
                SCHEMA,
                a -> new Evaluator(scope).evaluate(a.expr()).value());
    }

    @Test
    void nestedBlocksAreGatheredAsTheirNestingModeSaysAndConformToTheSchema() {
        Result<Value> r = decode("""
                region = "eu-${"west"}-1"
                assume_role {
                  role_arn = "arn:a"
                }
                assume_role {
                  role_arn = "arn:b"
                }
                default_tags {
                  tags = { team = "x" }
                }
                endpoint "s3" {
                  role_arn = "arn:s3"
                }
                """);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        SchemaValues.Coerced c = SchemaValues.coerce(SCHEMA, r.value());
        assertThat(c.diagnostics().hasErrors()).as(c.diagnostics().toString()).isFalse();
        Value v = c.value();
        assertThat(v.attributes().get("region")).isEqualTo(Value.string("eu-west-1"));
        assertThat(v.attributes().get("assume_role").elements())
                .extracting(e -> e.attributes().get("role_arn").asString())
                .containsExactly("arn:a", "arn:b");
        assertThat(v.attributes()
                        .get("default_tags")
                        .attributes()
                        .get("tags")
                        .attributes()
                        .get("team"))
                .isEqualTo(Value.string("x"));
        assertThat(v.attributes()
                        .get("endpoint")
                        .attributes()
                        .get("s3")
                        .attributes()
                        .get("role_arn"))
                .isEqualTo(Value.string("arn:s3"));
    }

    @Test
    void argumentsAndBlocksTheSchemaLacksAreErrorsAtTheirRange() {
        Result<Value> r = decode("""
                regoin = "x"
                id     = "computed only"
                default_tags {
                  tags = {}
                }
                default_tags {
                  tags = {}
                }
                nope {
                }
                """);
        assertThat(r.diagnostics().asList())
                .extracting(d -> d.summary() + " @" + d.subject().start().line())
                .contains("Unsupported argument @1", "Unsupported argument @2", "Unsupported block type @9")
                .contains("Duplicate default_tags block @6");
    }
}
