package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code console} against the real {@code terraform console} where the value library's rules show:
 * set element order (cty's order, objects by their set-hash serialization), unknown set elements
 * that stay distinct, and unknowns of unknown type through functions, {@code for} and conditionals.
 * In the configuration, {@code terraform_data.a.output} is unknown (nothing is applied) and
 * {@code local.d} is an unknown of unknown type. Skipped when {@code terraform} is not on the PATH.
 */
class UnknownsConsoleDifferentialTest {
    private static final String CONFIG = """
            resource "terraform_data" "a" {
              input = "x"
            }
            locals {
              d = try(terraform_data.a.output, "")
            }
            """;

    @TempDir
    static Path dir;

    @BeforeAll
    static void write() throws IOException {
        Files.writeString(dir.resolve("main.tf"), CONFIG);
    }

    static List<String> expressions() {
        return List.of(
                "toset([{a=1},{a=2},{a=3},{a=4},{a=5},{a=6}])",
                "toset([{a=9},{a=10}])",
                "toset([{a=1.3},{a=12345678901}])",
                "toset([{a=0.000012345},{a=0.0001}])",
                "toset([{a=\"Z\"},{a=\"\\u0001\"}])",
                "toset([{a=\"a\"},{a=\"\\u00a0\"}])",
                "toset([{a=\"x\",b=1},{a=\"y\",b=2},{a=\"z\",b=3},{a=\"w\",b=4}])",
                "toset([{a=null},{a=\"a\"}])",
                "toset([[\"b\",\"a\"],[\"a\"],[\"a\",\"b\"]])",
                "toset([tomap({b=\"1\"}),tomap({a=\"2\", c=\"0\"})])",
                "toset([{a=toset([\"b\"])},{a=toset([\"a\",\"c\"])}])",
                "tolist(toset([{n=\"b\", p=[1,2]}, {n=\"a\", p=[3]}, {n=\"c\", p=[]}]))",
                "[for x in toset([{k=2},{k=10},{k=1}]) : x.k]",
                "toset([terraform_data.a.output, null, \"b\", \"a\"])",
                "toset([terraform_data.a.output, \"${terraform_data.a.output}/*\"])",
                "length(toset([terraform_data.a.output, \"${terraform_data.a.output}/*\"]))",
                "length(toset([terraform_data.a.output]))",
                "toset([{a=terraform_data.a.output}, {a=terraform_data.a.output}])",
                "toset([{a=terraform_data.a.output}, {a=\"q\"}, {a=\"r\"}])",
                "toset([local.d, local.d])",
                "type(format(\"%s-x\", local.d))",
                "type(flatten([for v in [\"a\",\"b\"] : format(v, local.d)]))",
                "flatten([for v in [\"a\",\"b\"] : format(v, local.d)])",
                "type([for v in [\"a\",\"b\"] : format(v, local.d)])",
                "type(formatlist(\"%s\", local.d))",
                "type(contains(local.d, \"a\"))",
                "type(index([\"a\"], local.d))",
                "type(sum(local.d))",
                "type(parseint(local.d, 10))",
                "type(length(local.d))",
                "type(coalesce(local.d, \"a\"))",
                "type(local.d ? \"a\" : local.d)",
                "type(true ? local.d : 1)",
                "type(false ? local.d : 1)",
                "type([for v in local.d : v])",
                "format(\"%v\", null)",
                "format(\"%v\", tostring(null))",
                "format(\"%-6v|%v\", tostring(null), tonumber(null))",
                "formatlist(\"%v %v\", tolist(null), [\"a\", null])",
                "format(\"%v\", tostring(null), local.d)",
                "templatestring(\"hello\", local.d)",
                "templatestring(\"hello\", terraform_data.a.output)",
                "type(templatestring(\"hello\", local.d))",
                "lookup({a=\"b\"}, \"a\", local.d)",
                "lookup({a=\"b\"}, \"c\", local.d)");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("expressions")
    void sameAsTerraformConsole(String expr) throws Exception {
        Optional<Path> terraform = Terraform.find();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        String theirs = terraformConsole(terraform.get(), expr);
        CliRunner.Result ours = CliRunner.in(dir).width(400).stdin(expr + "\n").run("console");
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        assertThat(ours.stdout().strip()).isEqualTo(theirs.strip());
    }

    private static String terraformConsole(Path exe, String expr) throws IOException, InterruptedException {
        return Terraform.at(exe, dir)
                .stdin(expr + "\n")
                .timeout(Duration.ofMinutes(1))
                .ok("console", "-no-color");
    }
}
