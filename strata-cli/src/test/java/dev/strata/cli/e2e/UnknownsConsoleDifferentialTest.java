package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.io.InputStream;
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
              t = "$${x}"
              tl = "$${[1]}"
            }
            """;

    @TempDir
    static Path dir;

    /** Text encrypted (PKCS#1 v1.5) to the OpenSSH-format test key: "hello". */
    private static final String CIPHERTEXT =
            "tcHQ2EmCqyP7HoZmoRLw249JGQleNFv5eENzx27H2CVY8dFIsEZNkZcTtISvjVkpOqZUHuwP7H/sCJfERPjJ4uB9uvObklDJYHqWtl"
                    + "olQaDi2K8HsrWqbTn0e0Fks7EE/tD4LKnoZPckyDP08uqvCRW11NKdjh3fBDaEwrYUXgM=";

    @BeforeAll
    static void write() throws IOException {
        Files.writeString(dir.resolve("main.tf"), CONFIG);
        try (InputStream key = UnknownsConsoleDifferentialTest.class.getResourceAsStream("openssh-rsa-test-key")) {
            Files.write(dir.resolve("openssh-rsa-test-key"), key.readAllBytes());
        }
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
                "lookup({a=\"b\"}, \"c\", local.d)",
                // Functions and console (issue 18, item 6): one or more rows per former difference.
                "cidrhost(\"010.001.0.0/24\", 6)",
                "cidrsubnets(\"010.001.0.0/16\", 8, 8)",
                "cidrhost(\"::ffff:10.1.0.0/120\", 6)",
                "cidrhost(\"::ffff:10.1.0.0/120\", 0)",
                "cidrsubnet(\"::ffff:10.0.0.0/104\", 8, 3)",
                "cidrnetmask(\"::ffff:10.0.0.0/104\")",
                "format(\"%v\", tobool(null))",
                "formatlist(\"%v-%v\", [null, \"a\"], \"x\")",
                "coalescelist(tolist(null), [\"a\"])",
                "concat(tolist([\"a\"]), tolist([1]))",
                "concat(tolist([1]), tolist([true]))",
                "merge(tomap({a=1}), null)",
                "type(merge(null))",
                "path.module",
                "path.root",
                "terraform.workspace",
                "element(tolist([1,2,3]), -1)",
                "element(tolist([\"a\",\"b\"]), -3)",
                "yamldecode(\"!!binary aGVsbG8=\")",
                "yamldecode(\"- !!int 12\\n- !!int '5'\")",
                "fileset(\"missing-dir\", \"*\")",
                "flatten([sensitive([\"a\"]), [\"b\"]])",
                "flatten([[sensitive(\"a\")], [\"b\"]])",
                "format(\"%5s|\", \"\uD83D\uDC4D\uD83C\uDFFD\")",
                "format(\"%5.2s|\", \"\uD83D\uDC4D\uD83C\uDFFDab\")",
                "format(\"%-5s|\", \"\uD83D\uDC68\u200d\uD83D\uDC69\u200d\uD83D\uDC67\")",
                "templatestring(local.t, {x=1})",
                "rsadecrypt(\"" + CIPHERTEXT + "\", file(\"openssh-rsa-test-key\"))");
    }

    /** Errors: the same exit code, summary and detail (the source excerpt differs: Terraform has none). */
    static List<String> errors() {
        return List.of(
                "plantimestamp()",
                "coalescelist(null, [\"a\"])",
                "replace(\"abc\", \"/[/\", \"x\")",
                "type()",
                "type(1, 2)",
                "rsadecrypt(\"abc\", \"nokey\")",
                "rsadecrypt(\"abc=\", \"nokey\")",
                "rsadecrypt(\"abc=\", \"-----BEGIN FOO-----\\nAAAA\\n-----END FOO-----\\n\")",
                "can(local.nope)",
                "try(local.nope, 1)",
                "can(var.nope)",
                "templatestring(\"$${a}\", {a=1})",
                "templatestring(\"%%{if true}x%%{endif}\", {})",
                "yamldecode(\"!foo bar\")",
                "yamldecode(\"!!set {a: null}\")",
                "yamldecode(\"!!int abc\")",
                "cidrnetmask(\"fd00::/8\")",
                "templatestring(trimspace(local.t), {x=1})",
                "templatestring((local.t), {x=1})",
                "templatestring(local.tl, {})");
    }

    /**
     * Where Terraform's function panics (and prints a Go stack trace), Strata reports an error of the
     * same summary and exit code, with a detail that says what is wrong.
     */
    static List<String> panics() {
        return List.of("indent(-1, \"a\\nb\")", "element([1, 2, 3], -1)");
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("panics")
    void sameErrorSummaryWhereTerraformPanics(String expr) throws Exception {
        Optional<Path> terraform = Terraform.find();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        ProcessResult theirs = Terraform.at(terraform.get(), dir)
                .stdin(expr + "\n")
                .timeout(Duration.ofMinutes(1))
                .run("console", "-no-color");
        assertThat(theirs.stderr()).contains("panic in function implementation");
        CliRunner.Result ours = CliRunner.in(dir).width(400).stdin(expr + "\n").run("console");
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(theirs.exitCode());
        String summary =
                ConsoleComparison.error(ours.stderr()).lines().findFirst().orElse("");
        assertThat(summary)
                .isEqualTo(ConsoleComparison.error(theirs.stderr())
                        .lines()
                        .findFirst()
                        .orElse(""));
        assertThat(ours.stderr()).doesNotContain("panic", "goroutine");
    }
}
