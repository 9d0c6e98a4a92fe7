package dev.strata.providers.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.value.Value;
import dev.strata.provider.Provider.CallFunctionRequest;
import dev.strata.provider.Provider.CallFunctionResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The built-in provider's functions, called as the engine calls them (arguments known, not null). */
class TerraformFunctionsTest {
    private static CallFunctionResponse call(String name, Value arg) {
        try (TerraformProvider p = new TerraformProvider()) {
            assertThat(p.functions()).containsKey(name);
            return p.callFunction(new CallFunctionRequest(name, List.of(arg)));
        }
    }

    @Test
    void theProviderOffersTerraformsThreeFunctions() {
        try (TerraformProvider p = new TerraformProvider()) {
            assertThat(p.functions()).containsOnlyKeys("decode_tfvars", "encode_expr", "encode_tfvars");
            assertThat(p.functions().get("decode_tfvars").parameters())
                    .extracting(ProviderFunctionParameter -> ProviderFunctionParameter.name())
                    .containsExactly("src");
        }
    }

    @Test
    void encodeAndDecodeRoundTrip() {
        Value vars = Value.object(Map.of(
                "region", Value.string("eu-west-1"),
                "zones", Value.tuple(List.of(Value.string("a"), Value.string("b"))),
                "tags", Value.objectOf("Name", Value.string("${not a template}"))));
        CallFunctionResponse encoded = call("encode_tfvars", vars);
        assertThat(encoded.result().asString())
                .isEqualTo(
                        "region = \"eu-west-1\"\ntags = {\n  Name = \"$${not a template}\"\n}\nzones = [\"a\", \"b\"]\n");
        assertThat(call("decode_tfvars", encoded.result()).result()).isEqualTo(vars);
        assertThat(call("encode_expr", vars.attributes().get("zones")).result())
                .isEqualTo(Value.string("[\"a\", \"b\"]"));
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(
                        "encode_tfvars",
                        Value.string("x"),
                        "invalid value to encode: must be an object whose attribute names will become the encoded variable names"),
                Arguments.of(
                        "encode_tfvars",
                        Value.objectOf("ok", Value.TRUE, "a b", Value.TRUE),
                        "invalid variable name \"a b\": must be a valid identifier, per Terraform's rules for input variable declarations"),
                Arguments.of(
                        "decode_tfvars",
                        Value.string("a = "),
                        "invalid tfvars syntax: <decode_tfvars argument>:1,5-5: Missing expression; Expected the start of an expression, but found the end of the file."),
                Arguments.of(
                        "decode_tfvars",
                        Value.string("b {\n}\n"),
                        "invalid tfvars content: <decode_tfvars argument>:1,1-2: Unexpected \"b\" block; Blocks are not allowed here."),
                Arguments.of(
                        "decode_tfvars",
                        Value.string("z = 1\nb = var.x + var.y\na = upper(1)\n"),
                        "invalid expression for variable \"b\": <decode_tfvars argument>:2,5-8: Variables not allowed; Variables may not be used here., and 1 other diagnostic(s)"));
    }

    @ParameterizedTest(name = "{0}({1})")
    @MethodSource("failures")
    void failuresAreWordedAsTerraformWordsThem(String name, Value arg, String error) {
        CallFunctionResponse r = call(name, arg);
        assertThat(r.error()).isEqualTo(error);
        assertThat(r.errorArgument()).isEmpty();
    }
}
