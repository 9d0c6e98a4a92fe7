package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code strata validate -json} against {@code terraform validate -json} on small broken
 * configurations that need no provider but the built-in one (so {@code terraform init} works
 * offline). Every diagnostic Terraform reports must be reported by Strata with the same severity,
 * summary and range; Strata's additional diagnostics are listed per case (checks Terraform leaves to
 * plan time). Skipped when no {@code terraform} binary is on the PATH.
 */
class ValidateDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** The CLI configuration both tools install providers with; null for none (the built-in providers only). */
    private Path cliConfig;

    static Stream<Arguments> cases() {
        return Stream.of(
                // timestamp(), uuid(), bcrypt() and plantimestamp() are unknown while validating: no conversion error.
                Arguments.of("impure-functions", """
                        locals {
                          a = tonumber(timestamp())
                          b = tonumber(uuid())
                          c = tonumber(bcrypt("x"))
                          d = tonumber(plantimestamp())
                        }
                        resource "terraform_data" "t" { input = tonumber(timestamp()) }
                        output "e" { value = tonumber("x") }
                        """, List.of()),
                Arguments.of("undeclared", """
                        variable "region" {}
                        locals { name = "x" }
                        resource "terraform_data" "web" {}
                        output "a" { value = var.regoin }
                        output "b" { value = local.nmae }
                        output "c" { value = terraform_data.webb.id }
                        output "d" { value = module.nope.x }
                        """, List.of()),
                Arguments.of("instancing", """
                        resource "terraform_data" "counted" { count = 2 }
                        resource "terraform_data" "keyed" { for_each = toset(["a"]) }
                        resource "terraform_data" "single" {}
                        output "a" { value = terraform_data.counted.id }
                        output "b" { value = terraform_data.keyed.output }
                        output "c" { value = terraform_data.single[0].id }
                        output "d" { value = terraform_data.counted[*].id }
                        """, List.of()),
                Arguments.of("contexts", """
                        resource "terraform_data" "a" {
                          input = count.index
                        }
                        resource "terraform_data" "b" {
                          input = each.key
                        }
                        output "o" { value = self.id }
                        """, List.of()),
                Arguments.of("duplicates", """
                        variable "x" {}
                        variable "x" {}
                        resource "terraform_data" "r" {}
                        resource "terraform_data" "r" {}
                        output "o" { value = 1 }
                        output "o" { value = 2 }
                        """, List.of()),
                Arguments.of("literals", """
                        resource "terraform_data" "a" { count = -1 }
                        resource "terraform_data" "b" { count = 1.5 }
                        resource "terraform_data" "c" { for_each = ["a"] }
                        resource "terraform_data" "e" { for_each = toset([1]) }
                        """, List.of()),
                Arguments.of("functions", """
                        locals {
                          a = lenght([1])
                          b = 1 + "x"
                        }
                        """, List.of()),
                Arguments.of("defaults", """
                        variable "v" {
                          type    = number
                          default = "abc"
                        }
                        """, List.of()),
                Arguments.of(
                        "keys",
                        """
                        resource "terraform_data" "c" { count = 2 }
                        output "a" { value = terraform_data.c[5].id }
                        output "b" { value = terraform_data.c["x"].id }
                        """,
                        List.of(
                                "error|Invalid resource instance key|main.tf:2,22-2,41",
                                "error|Invalid resource instance key|main.tf:3,22-3,43")),
                Arguments.of(
                        "imports",
                        """
                        import {
                          to = terraform_data.missing
                          id = "x"
                        }
                        """,
                        // As Terraform, a missing target configuration is for plan to report (or generate).
                        List.of()),
                Arguments.of("import for_each key into an unrepeated resource", """
                        import {
                          for_each = toset(["k", "b"])
                          to       = terraform_data.nope[each.key]
                          id       = each.value
                        }
                        """, List.of()),
                Arguments.of("import without key into a for_each resource", """
                        import {
                          for_each = toset(["k"])
                          to       = terraform_data.x
                          id       = each.value
                        }
                        resource "terraform_data" "x" { for_each = toset(["k"]) }
                        """, List.of()),
                Arguments.of("import to key naming a variable", """
                        variable "k" { default = "k" }
                        import {
                          for_each = toset(["k"])
                          to       = terraform_data.x[var.k]
                          id       = each.value
                        }
                        resource "terraform_data" "x" { for_each = toset(["k"]) }
                        """, List.of()),
                Arguments.of("import for_each not a collection", """
                        import {
                          for_each = "abc"
                          to       = terraform_data.x[each.key]
                          id       = each.value
                        }
                        resource "terraform_data" "x" { for_each = toset(["k"]) }
                        """, List.of()),
                Arguments.of("import for_each list into count", """
                        import {
                          for_each = ["a", "b"]
                          to       = terraform_data.x[each.key]
                          id       = each.value
                        }
                        resource "terraform_data" "x" { count = 2 }
                        """, List.of()),
                Arguments.of("duplicate import", """
                        import {
                          to = terraform_data.x
                          id = "a"
                        }
                        import {
                          to = terraform_data.x
                          id = "b"
                        }
                        resource "terraform_data" "x" {}
                        """, List.of()),
                Arguments.of("meta-argument shapes", """
                        variable "x" { default = 1 }
                        resource "terraform_data" "a" {
                          depends_on = [var.x + 1, "terraform_data.b"]
                          lifecycle {
                            ignore_changes       = [upper("input"), input]
                            replace_triggered_by = [terraform_data.b.output]
                          }
                        }
                        resource "terraform_data" "b" {
                          depends_on = terraform_data.a
                          lifecycle {
                            ignore_changes = "input"
                          }
                        }
                        resource "terraform_data" "c" {
                          lifecycle {
                            ignore_changes       = [var.x]
                            replace_triggered_by = "x"
                          }
                        }
                        output "o" {
                          value      = 1
                          depends_on = [upper("x")]
                        }
                        """, List.of()),
                Arguments.of("module outputs", """
                        module "m" { source = "./m" }
                        output "o" { value = module.m.nope }
                        """, List.of()));
    }

    /** Configurations of several files (override files), and constant locals seen through by literal checks. */
    static Stream<Arguments> multiFileCases() {
        return Stream.of(
                Arguments.of(
                        "import block in a child module",
                        Map.of(
                                "main.tf",
                                "module \"m\" {\n  source = \"./m\"\n}\n",
                                "m/main.tf",
                                "import {\n  to = terraform_data.y\n  id = \"a\"\n}\nresource \"terraform_data\" \"y\" {}\n"),
                        List.of()),
                Arguments.of("overrides", Map.of("main.tf", """
                        variable "v" {
                          default = "a"
                          validation {
                            condition     = var.v != ""
                            error_message = "x"
                          }
                        }
                        resource "terraform_data" "r" {
                          input = var.v
                          lifecycle {
                            create_before_destroy = true
                            precondition {
                              condition     = var.v != ""
                              error_message = "base"
                            }
                          }
                        }
                        resource "terraform_data" "s" {}
                        module "m" { source = "./m" }
                        output "o" { value = 1 }
                        check "c" {
                          assert {
                            condition     = var.v != ""
                            error_message = "x"
                          }
                        }
                        """, "override.tf", """
                        variable "v" {
                          type = number
                          validation {
                            condition     = var.v > 1
                            error_message = "y"
                          }
                        }
                        resource "terraform_data" "r" {
                          depends_on = [terraform_data.s]
                          lifecycle {
                            prevent_destroy = true
                            postcondition {
                              condition     = self.output != ""
                              error_message = "post"
                            }
                          }
                        }
                        module "m" {
                          depends_on = [terraform_data.s]
                        }
                        output "o" {
                          depends_on = [terraform_data.s]
                          precondition {
                            condition     = var.v != ""
                            error_message = "p"
                          }
                        }
                        check "c" {
                          assert {
                            condition     = var.v != ""
                            error_message = "y"
                          }
                        }
                        moved {
                          from = terraform_data.a
                          to   = terraform_data.r
                        }
                        import {
                          to = terraform_data.r
                          id = "x"
                        }
                        """), List.of()),
                // A module call with count, for_each or depends_on to a module that configures a provider itself
                // is an error of the configuration's tree: nothing else is checked (the output's missing instance
                // key is not reported), and init fails with it before it installs any provider.
                Arguments.of("legacy module", Map.of("main.tf", """
                                module "own" {
                                  source   = "./own/"
                                  for_each = toset(["a"])
                                }
                                output "o" { value = module.own.x }
                                """, "own/main.tf", """
                                provider "aws" {
                                  region = "us-east-1"
                                }
                                output "x" { value = 1 }
                                """), List.of()),
                Arguments.of(
                        "locals",
                        Map.of("main.tf", """
                        variable "v" { type = string }
                        locals {
                          n     = -1
                          half  = 1.5
                          list  = ["a"]
                          s     = "abc"
                          keys  = toset(["a", "b"])
                          bad   = local.s + 1
                          fromv = var.v
                          two   = 2
                          isnull = var.v == null ? 1 : 0
                        }
                        resource "terraform_data" "a" { count = local.n }
                        resource "terraform_data" "b" { count = local.half }
                        resource "terraform_data" "c" { for_each = local.list }
                        resource "terraform_data" "d" { for_each = local.keys }
                        resource "terraform_data" "e" { count = local.two }
                        resource "terraform_data" "f" { count = local.isnull }
                        output "o1" { value = local.s * 2 }
                        output "o2" { value = terraform_data.d["z"].id }
                        output "o3" { value = terraform_data.e[2].id }
                        output "o4" { value = local.fromv }
                        output "o5" { value = terraform_data.f[0].id }
                        """),
                        List.of(
                                "error|Invalid resource instance key|main.tf:20,23-20,44",
                                "error|Invalid resource instance key|main.tf:21,23-21,42")));
    }

    /**
     * Configurations that need the AWS provider (from the filesystem mirror {@code strata.test.pluginMirror},
     * {@code /opt/tf-plugins} by default; skipped without it): configurations passed to modules that do not
     * declare them.
     */
    static Stream<Arguments> awsCases() {
        return Stream.of(Arguments.of(
                "providers the child does not declare",
                Map.of(
                        "main.tf",
                        """
                        terraform {
                          required_providers {
                            aws = { source = "hashicorp/aws" }
                          }
                        }
                        provider "aws" {
                          alias                       = "e"
                          region                      = "us-east-1"
                          access_key                  = "x"
                          secret_key                  = "y"
                          skip_credentials_validation = true
                          skip_requesting_account_id  = true
                          skip_metadata_api_check     = true
                        }
                        module "child" {
                          source    = "./child"
                          count     = 2
                          providers = { aws = aws.e, aws.two = aws.e }
                        }
                        module "declared" {
                          source    = "./declared"
                          providers = { aws = aws.e, aws.two = aws.e }
                        }
                        module "inherits" {
                          source = "./child"
                        }
                        """,
                        "child/main.tf",
                        "resource \"terraform_data\" \"c\" {}\n",
                        "declared/main.tf",
                        """
                        terraform {
                          required_providers {
                            aws = {
                              source                = "hashicorp/aws"
                              configuration_aliases = [aws.two]
                            }
                          }
                        }
                        """),
                List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("awsCases")
    void terraformsDiagnosticsAreStratasTooWithTheAwsProvider(
            String name, Map<String, String> files, List<String> stratasExtras)
            throws IOException, InterruptedException {
        Path mirror = Path.of(System.getProperty("strata.test.pluginMirror", "/opt/tf-plugins"));
        assumeTrue(Files.isDirectory(mirror.resolve("registry.terraform.io/hashicorp/aws")), "no AWS provider mirror");
        cliConfig = Files.writeString(
                dir.resolve("mirror.tfrc"),
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror + "\"\n  }\n}\n");
        for (Map.Entry<String, String> f : files.entrySet()) {
            Files.createDirectories(dir.resolve(f.getKey()).getParent());
            Files.writeString(dir.resolve(f.getKey()), f.getValue());
        }
        compare(stratasExtras);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("multiFileCases")
    void terraformsDiagnosticsAreStratasTooAcrossFiles(
            String name, Map<String, String> files, List<String> stratasExtras)
            throws IOException, InterruptedException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            Files.createDirectories(dir.resolve(f.getKey()).getParent());
            Files.writeString(dir.resolve(f.getKey()), f.getValue());
        }
        compare(stratasExtras);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void terraformsDiagnosticsAreStratasToo(String name, String main, List<String> stratasExtras)
            throws IOException, InterruptedException {
        Files.writeString(dir.resolve("main.tf"), main);
        compare(stratasExtras);
    }

    private void compare(List<String> stratasExtras) throws IOException, InterruptedException {
        Optional<Path> terraform = Terraform.find();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        Files.createDirectories(dir.resolve("m"));
        Files.writeString(dir.resolve("m/main.tf"), "output \"out\" { value = 1 }\n");
        TreeSet<String> theirs = brief(terraform(terraform.get(), "validate", "-json"));
        CliRunner strata = CliRunner.in(dir);
        if (cliConfig != null) {
            strata.env("TF_CLI_CONFIG_FILE", cliConfig.toString());
            strata.run("init", "-backend=false", "-input=false", "-no-color");
        }
        CliRunner.Result r = strata.run("validate", "-json");
        TreeSet<String> ours = brief(r.stdout());
        assertThat(ours).as("Strata's diagnostics").containsAll(theirs);
        List<String> extras = new ArrayList<>(ours);
        extras.removeAll(theirs);
        assertThat(extras).as("diagnostics only Strata reports").containsExactlyInAnyOrderElementsOf(stratasExtras);
    }

    private String terraform(Path exe, String... args) throws IOException, InterruptedException {
        run(exe, "init", "-backend=false", "-input=false", "-no-color");
        return run(exe, args);
    }

    private String run(Path exe, String... args) throws IOException, InterruptedException {
        Terraform t = Terraform.at(exe, dir).timeout(Duration.ofMinutes(2));
        if (cliConfig != null) {
            t.cliConfig(cliConfig);
        }
        return t.run(args).stdout();
    }

    private static TreeSet<String> brief(String json) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        for (JsonNode d : JSON.readTree(json).path("diagnostics")) {
            JsonNode r = d.path("range");
            String where = r.isMissingNode()
                    ? ""
                    : r.path("filename").asText() + ":"
                            + r.path("start").path("line").asInt() + ","
                            + r.path("start").path("column").asInt() + "-"
                            + r.path("end").path("line").asInt() + ","
                            + r.path("end").path("column").asInt();
            out.add(d.path("severity").asText() + "|" + d.path("summary").asText() + "|" + where);
        }
        return out;
    }
}
