package dev.strata.hcl.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Terraform's own rewrites on top of HCL formatting. Every expectation here is what
 * {@code terraform fmt -} (Terraform 1.11) printed for the same input.
 */
class TerraformRewritesTest {

    private static String fmt(String src) {
        Result<byte[]> r = Formatter.format(src.getBytes(StandardCharsets.UTF_8), "test.tf");
        assertThat(r.hasErrors()).as("errors: %s", r.diagnostics()).isFalse();
        return new String(r.value(), StandardCharsets.UTF_8);
    }

    @Test
    void singleInterpolationIsUnwrapped() {
        assertThat(fmt("""
                resource aws_instance foo {
                  ami = "${var.ami}"
                  name = "${var.name}-x"
                  tags = "${merge(local.tags, map("Name", "${var.name}"))}"
                }
                """)).isEqualTo("""
                resource "aws_instance" "foo" {
                  ami  = var.ami
                  name = "${var.name}-x"
                  tags = merge(local.tags, map("Name", "${var.name}"))
                }
                """);
    }

    @Test
    void onlyWholeAttributeValuesAreUnwrapped() {
        assertThat(fmt("""
                locals {
                  a = "${x}${y}"
                  b = "${x}"   # the x
                  ccc = "${ x }"
                  d = { e = "${x}" }
                  f = ["${x}"]
                  g = "${"${x}"}"
                  h = "%{if x}y%{endif}"
                }
                """)).isEqualTo("""
                locals {
                  a   = "${x}${y}"
                  b   = x # the x
                  ccc = x
                  d   = { e = "${x}" }
                  f   = ["${x}"]
                  g   = "${x}"
                  h   = "%{if x}y%{endif}"
                }
                """);
    }

    @Test
    void multiLineInterpolationIsParenthesised() {
        assertThat(fmt("""
                output "o" {
                  value = "${
                    var.enabled ? 1 :
                    0
                  }"
                }
                """)).isEqualTo("""
                output "o" {
                  value = (var.enabled ? 1 :
                  0)
                }
                """);
    }

    @Test
    void multiLineInterpolationAlreadyInParenthesesGetsNoMore() {
        assertThat(fmt("""
                output "o" {
                  value = "${(
                    a +
                    b
                  )}"
                }
                """)).isEqualTo("""
                output "o" {
                  value = (
                    a +
                    b
                  )
                }
                """);
    }

    @Test
    void legacyVariableTypesAreModernised() {
        assertThat(fmt("""
                variable "a" {
                  type = "string"
                }
                variable "b" {
                  type = "list"
                }
                variable "c" {
                  type = "map"
                }
                variable "d" {
                  type = list
                }
                variable "e" {
                  type = map
                }
                variable "f" {
                  type = set
                }
                variable "g" {
                  type = "number"
                }
                variable "h" {
                  type = list(string)
                  default = "${var.x}"
                }
                """)).isEqualTo("""
                variable "a" {
                  type = string
                }
                variable "b" {
                  type = list(string)
                }
                variable "c" {
                  type = map(string)
                }
                variable "d" {
                  type = list(any)
                }
                variable "e" {
                  type = map(any)
                }
                variable "f" {
                  type = set(any)
                }
                variable "g" {
                  type = "number"
                }
                variable "h" {
                  type    = list(string)
                  default = var.x
                }
                """);
    }

    @Test
    void typesOfNestedVariableBlocksAreLeftAlone() {
        String src = """
                module "m" {
                  variable "x" {
                    type = "string"
                  }
                }
                """;
        assertThat(fmt(src)).isEqualTo(src);
    }

    @Test
    void labelsAreQuotedAndCommentsAmongThemDropped() {
        assertThat(fmt("""
                resource /* one */ aws_instance /* two */ "web" /* three */ {
                  ami = "x"
                }
                data "a\\u0041" "b\\\\c\\"d" {}
                provider aws {}
                locals { a = "${x}" }
                """)).isEqualTo("""
                resource "aws_instance" "web" /* three */ {
                  ami = "x"
                }
                data "aA" "b\\\\c\\"d" {}
                provider "aws" {}
                locals { a = x }
                """);
    }

    /**
     * The one deliberate difference from terraform fmt 1.11, which deletes a quoted label containing
     * "$" or "%" (resource "ok" "a$b" {} becomes resource "ok" {}): that changes what the
     * configuration means, so we keep such labels as they are.
     */
    @Test
    void labelsWithDollarOrPercentAreKept() {
        assertThat(fmt("resource \"ok\" \"a$b\" \"c%d\" {}\n")).isEqualTo("resource \"ok\" \"a$b\" \"c%d\" {}\n");
        assertThat(fmt("resource ok \"a$b\" {}\n")).isEqualTo("resource \"ok\" \"a$b\" {}\n");
    }

    @Test
    void syntaxErrorsLeaveTheFileAlone() {
        byte[] src = "resource \"a\" {\n  x = \n".getBytes(StandardCharsets.UTF_8);
        Result<byte[]> r = Formatter.format(src, "bad.tf");
        assertThat(r.hasErrors()).isTrue();
        assertThat(r.value()).isEqualTo(src);
    }

    @Test
    void standardOutputGetsAFinalNewlineAsTerraformPrintsIt() {
        // terraform fmt - : "a = 1" -> "a = 1\n", "a = 1   " -> "a = 1   \n", "" -> "\n"; a file
        // on disk keeps "a = 1" as it is.
        assertThat(fmt("a = 1")).isEqualTo("a = 1");
        assertThat(out(fmt("a = 1"))).isEqualTo("a = 1\n");
        assertThat(out(fmt("a=1   "))).isEqualTo("a = 1   \n");
        assertThat(out(fmt(""))).isEqualTo("\n");
        assertThat(out(fmt("a = 1\n\n\n"))).isEqualTo("a = 1\n\n\n");
    }

    private static String out(String formatted) {
        return new String(
                Formatter.forStandardOutput(formatted.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }
}
