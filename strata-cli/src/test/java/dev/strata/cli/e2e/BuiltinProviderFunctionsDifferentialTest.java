package dev.strata.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The functions of the built-in {@code terraform} provider ({@code provider::terraform::encode_tfvars},
 * {@code decode_tfvars}, {@code encode_expr}) in {@code console}, against the real {@code terraform
 * console}: the text they write (layout, key order and quoting, string escapes, numbers), the values they
 * read, and their errors. Skipped when {@code terraform} is not on the PATH.
 */
class BuiltinProviderFunctionsDifferentialTest {
    private static final String CONFIG = """
            terraform {
              required_providers {
                terraform = { source = "terraform.io/builtin/terraform" }
              }
            }
            """;

    @TempDir
    static Path dir;

    @BeforeAll
    static void write() throws IOException {
        Files.writeString(dir.resolve("main.tf"), CONFIG);
        Files.writeString(dir.resolve("x.tfvars"), "region = \"eu-west-1\"\ncount  = 3\ntags = {\n  Name = \"x\"\n}\n");
    }

    static List<String> expressions() {
        return List.of(
                "provider::terraform::encode_expr({})",
                "provider::terraform::encode_expr([])",
                "provider::terraform::encode_expr(tomap({}))",
                "provider::terraform::encode_expr(\"a\\nb\\t\\\"c\\\" $${x} %%{y} $ % \\\\ é \\u0001 \\u00a0 \\U0001F600\")",
                "provider::terraform::encode_expr([\"a\\u007fb\\u200bc\\u0085d\\r\"])",
                "provider::terraform::encode_expr(1.5)",
                "provider::terraform::encode_expr(100000000000000000000000)",
                "provider::terraform::encode_expr(0.1 + 0.2)",
                "provider::terraform::encode_expr(-3)",
                "provider::terraform::encode_expr(1e-7)",
                "provider::terraform::encode_expr(true)",
                "provider::terraform::encode_expr({ \"a b\" = 1, \"1x\" = 2, x-y = 3, \"\" = 4, \"é\" = 5 })",
                "provider::terraform::encode_expr({ a = { b = { c = [{ d = 1 }] } } })",
                "provider::terraform::encode_expr([{ a = 1, bb = [{}] }, {}])",
                "provider::terraform::encode_expr(toset([\"b\", \"a\"]))",
                "provider::terraform::encode_expr(toset([3, 1, 2]))",
                "provider::terraform::encode_expr(tomap({ z = 1, a = 2 }))",
                "provider::terraform::encode_expr({ a = null, b = tolist(null) })",
                "provider::terraform::encode_expr(sensitive(\"x\"))",
                "provider::terraform::encode_tfvars({ a = 1, bbbbbbb = \"x\", c = [1, 2], d = { e = 1, ffff = 2 }, g = 3 })",
                "jsonencode(provider::terraform::encode_tfvars({ a = 1, b = { c = 1 }, d = [{ e = 1 }], ff = \"x\" }))",
                "provider::terraform::encode_tfvars({})",
                "provider::terraform::encode_tfvars(tomap({ a = 1 }))",
                "provider::terraform::encode_tfvars({ a = null, count = 1 })",
                "provider::terraform::decode_tfvars(file(\"x.tfvars\"))",
                "provider::terraform::decode_tfvars(\"a = null\\nb = [null, {}]\\nc = -1.5e3\\n\")",
                "provider::terraform::decode_tfvars(\"a = { \\\"x y\\\" = 1, (\\\"z\\\") = 2 }\")",
                "provider::terraform::decode_tfvars(\"a = [for x in [1, 2]: x * 2]\\nb = \\\"${1 + 1}\\\"\")",
                "provider::terraform::decode_tfvars(\"a = true ? 1 : var.x\")",
                "provider::terraform::decode_tfvars(\"# c\\na = 1 # x\\n\")",
                "provider::terraform::decode_tfvars(\"\")",
                "type(provider::terraform::decode_tfvars(\"a = [1]\\nb = { c = \\\"d\\\" }\"))",
                "provider::terraform::encode_expr(provider::terraform::decode_tfvars(\"a = { b = [1, { c = \\\"d\\\" }] }\"))");
    }

    static List<String> errors() {
        return List.of(
                "provider::terraform::encode_expr(null)",
                "provider::terraform::encode_tfvars(null)",
                "provider::terraform::encode_tfvars(\"x\")",
                "provider::terraform::encode_tfvars([1])",
                "provider::terraform::encode_tfvars({ \"a b\" = 1 })",
                "provider::terraform::encode_tfvars({ \"1a\" = 1 })",
                "provider::terraform::decode_tfvars(null)",
                "provider::terraform::decode_tfvars(\"a = \")",
                "provider::terraform::decode_tfvars(\"a = var.x\")",
                "provider::terraform::decode_tfvars(\"a = var.x + var.y\")",
                "provider::terraform::decode_tfvars(\"a = [for x in [1] : y]\")",
                "provider::terraform::decode_tfvars(\"a = [for x in [1] : x + xx.w]\")",
                "provider::terraform::decode_tfvars(\"a = upper(\\\"x\\\")\")",
                "provider::terraform::decode_tfvars(\"a = try(1, 2)\")",
                "provider::terraform::decode_tfvars(\"block {\\n}\\n\")",
                "provider::terraform::decode_tfvars(\"a = 1\\na = 2\\n\")",
                "provider::terraform::decode_tfvars(\"a = \\\"\\\\q\\\"\")",
                "provider::terraform::decode_tfvars(1)",
                "provider::terraform::encode_expr(1, 2)",
                "provider::terraform::nope(1)");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("expressions")
    void sameAsTerraformConsole(String expr) throws Exception {
        ConsoleComparison.sameValue(dir, dir, expr);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void sameErrorAsTerraformConsole(String expr) throws Exception {
        ConsoleComparison.sameError(dir, dir, expr);
    }

    /** Without the provider in required_providers, the functions are unknown, as in Terraform. */
    @Test
    void theFunctionsNeedTheProviderRequired(@TempDir Path bare) throws Exception {
        ConsoleComparison.sameError(bare, bare, "provider::terraform::encode_expr(1)");
    }
}
