package dev.strata.config;

import static dev.strata.config.Fixtures.brief;
import static dev.strata.config.Fixtures.validate;
import static dev.strata.config.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The provider checks Terraform makes across module calls while it builds the configuration, table-driven:
 * each row is a small configuration and every diagnostic it must give, with its detail. The rules, texts and
 * ranges are Terraform 1.11's, found with {@code terraform validate -json} (and {@code init}, {@code plan},
 * {@code apply}, which report the same) on these configurations, the provider blocks being AWS's. A row
 * that shows where a check says nothing has a call beside it where the check does speak. Terraform reports
 * some of these configurations' other provider problems too, which Strata does not check yet: "Redundant
 * empty provider block" for a module's empty {@code provider} blocks, "Provider type mismatch" for the
 * {@code acme/aws} row, and its "missing provider" for the module that passes an undeclared configuration on.
 */
class ModuleProviderChecksTest {
    @TempDir
    Path dir;

    private static final String LEGACY = "Module is incompatible with count, for_each, and depends_on";
    private static final String UNDEFINED = "Reference to undefined provider";

    /** A module that configures a provider itself. */
    private static final String CONFIGURES = "provider \"aws\" {\n  region = \"us-east-1\"\n}\n";

    /** A root module with an aliased AWS configuration to pass to children. */
    private static final String ROOT_AWS = """
            terraform {
              required_providers {
                aws = { source = "hashicorp/aws" }
              }
            }
            provider "aws" {
              alias  = "e"
              region = "us-east-1"
            }
            """;

    private static final String CHILD_REQUIRES_AWS = """
            terraform {
              required_providers {
                aws = { source = "hashicorp/aws" }
              }
            }
            """;

    /** A call that passes the module's default AWS configuration on to ../leaf. */
    private static final String PASSES_AWS =
            "module \"leaf\" {\n  source    = \"../leaf\"\n  providers = { aws = aws }\n}\n";

    private static String legacy(String module, String source) {
        return "The module at " + module + " is a legacy module which contains its own local provider "
                + "configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\n"
                + "If you also control the module \"" + source + "\", consider updating this module to instead "
                + "expect provider configurations to be passed by its caller.";
    }

    private static String undefinedInChild(String key, String module, String provider) {
        return "There is no explicit declaration for local provider name \"" + key + "\" in " + module
                + ", so Strata is assuming you mean to pass a configuration for \"" + provider + "\".\n\nIf you "
                + "also control the child module, add a required_providers entry named \"" + key + "\" with the "
                + "source address \"" + provider + "\".";
    }

    private static String undefinedInParent(String name, String module, String addTo) {
        return "There is no explicit declaration for local provider name \"" + name + "\" in " + module
                + ", so Strata is assuming you mean to pass a configuration for provider \"hashicorp/" + name
                + "\".\n\nTo clarify your intent and silence this warning, add to " + addTo + " a required_providers "
                + "entry named \"" + name + "\" with source = \"hashicorp/" + name + "\", or a different source "
                + "address if appropriate.";
    }

    /** A diagnostic a row expects: its {@link Fixtures#brief} line and its detail. */
    private record Want(String brief, String detail) {}

    private static Want error(String at, String summary, String detail) {
        return new Want(at + ": " + summary, detail);
    }

    private static Want warning(String at, String summary, String detail) {
        return new Want("warning: " + at + ": " + summary, detail);
    }

    /** Pairs of path and content, then what must be reported. */
    private static Arguments row(String rule, List<String> files, Want... want) {
        return Arguments.of(rule, files, List.of(want));
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                row(
                        "a call with count to a module with a provider block: at the count expression",
                        List.of(
                                "main.tf",
                                "module \"own\" {\n  source = \"./own\"\n  count  = 2\n}\n",
                                "own/main.tf",
                                CONFIGURES),
                        error("main.tf:3,12-13", LEGACY, legacy("module.own", "./own"))),
                row(
                        "for_each: at the for_each expression",
                        List.of(
                                "main.tf",
                                "module \"own\" {\n  source   = \"./own\"\n  for_each = toset([\"a\"])\n}\n",
                                "own/main.tf",
                                CONFIGURES),
                        error("main.tf:3,14-26", LEGACY, legacy("module.own", "./own"))),
                row(
                        "depends_on: at its first reference; an empty depends_on is none",
                        List.of("main.tf", """
                                resource "terraform_data" "a" {}
                                resource "terraform_data" "b" {}
                                module "own" {
                                  source     = "./own"
                                  depends_on = [terraform_data.b, terraform_data.a]
                                }
                                module "none" {
                                  source     = "./own"
                                  depends_on = []
                                }
                                """, "own/main.tf", CONFIGURES),
                        error("main.tf:5,17-33", LEGACY, legacy("module.own", "./own"))),
                row(
                        "count is reported before depends_on, for_each before depends_on",
                        List.of("main.tf", """
                                resource "terraform_data" "a" {}
                                module "c" {
                                  source     = "./own"
                                  depends_on = [terraform_data.a]
                                  count      = 1
                                }
                                module "f" {
                                  source     = "./own"
                                  depends_on = [terraform_data.a]
                                  for_each   = {}
                                }
                                """, "own/main.tf", CONFIGURES),
                        error("main.tf:5,16-17", LEGACY, legacy("module.c", "./own")),
                        error("main.tf:10,16-18", LEGACY, legacy("module.f", "./own"))),
                row(
                        "a provider block any depth below the call: at the call, naming each module that has one",
                        List.of(
                                "main.tf",
                                "module \"mid\" {\n  source = \"./mid\"\n  count  = 2\n}\n",
                                "mid/main.tf",
                                "module \"inner\" {\n  source = \"./inner\"\n}\n" + CONFIGURES,
                                "mid/inner/main.tf",
                                CONFIGURES),
                        error("main.tf:3,12-13", LEGACY, legacy("module.mid", "./mid")),
                        error("main.tf:3,12-13", LEGACY, legacy("module.mid.module.inner", "./inner"))),
                row(
                        "the nearest repeated call above the module is the one reported, in its own file",
                        List.of(
                                "main.tf",
                                "module \"mid\" {\n  source = \"./mid\"\n  count  = 2\n}\n"
                                        + "module \"plain\" {\n  source = \"./plain\"\n}\n",
                                "mid/main.tf",
                                "module \"inner\" {\n  source   = \"./inner\"\n  for_each = toset([\"k\"])\n}\n",
                                "mid/inner/main.tf",
                                CONFIGURES,
                                "plain/main.tf",
                                """
                                resource "terraform_data" "d" {}
                                module "inner" {
                                  source     = "../mid/inner"
                                  depends_on = [terraform_data.d]
                                }
                                """),
                        error("mid/main.tf:3,14-26", LEGACY, legacy("module.mid.module.inner", "./inner")),
                        error("plain/main.tf:4,17-33", LEGACY, legacy("module.plain.module.inner", "../mid/inner"))),
                row(
                        "once per call, not per instance: each call of the same module is reported",
                        List.of("main.tf", """
                                module "a" {
                                  source = "./own"
                                  count  = 3
                                }
                                module "b" {
                                  source = "./own"
                                  count  = 1
                                }
                                module "c" {
                                  source = "./own"
                                }
                                """, "own/main.tf", CONFIGURES),
                        error("main.tf:3,12-13", LEGACY, legacy("module.a", "./own")),
                        error("main.tf:7,12-13", LEGACY, legacy("module.b", "./own"))),
                row(
                        "an aliased configuration configures; an empty block or one with only an alias does not",
                        List.of(
                                "main.tf",
                                "module \"aliased\" {\n  source = \"./aliased\"\n  count  = 1\n}\n"
                                        + "module \"proxies\" {\n  source = \"./proxies\"\n  count  = 1\n}\n",
                                "aliased/main.tf",
                                "provider \"aws\" {\n  alias  = \"x\"\n  region = \"us-east-1\"\n}\n",
                                "proxies/main.tf",
                                "provider \"aws\" {}\nprovider \"aws\" {\n  alias = \"x\"\n}\n"),
                        error("main.tf:3,12-13", LEGACY, legacy("module.aliased", "./aliased"))),
                row(
                        "a version alone configures, and so does a nested block alone",
                        List.of(
                                "main.tf",
                                "module \"v\" {\n  source = \"./v\"\n  count  = 1\n}\n"
                                        + "module \"b\" {\n  source = \"./b\"\n  count  = 1\n}\n",
                                "v/main.tf",
                                "provider \"aws\" {\n  version = \">= 1.0\"\n}\n",
                                "b/main.tf",
                                "provider \"aws\" {\n  default_tags {}\n}\n"),
                        error("main.tf:3,12-13", LEGACY, legacy("module.v", "./v")),
                        error("main.tf:7,12-13", LEGACY, legacy("module.b", "./b")),
                        warning(
                                "v/main.tf:2,13-21",
                                "Version constraints inside provider configuration blocks are deprecated",
                                null)),
                row(
                        "the module's source is shown as a clean path",
                        List.of(
                                "main.tf",
                                "module \"own\" {\n  source = \"./x/../own/\"\n  count  = 1\n}\n",
                                "own/main.tf",
                                CONFIGURES),
                        error("main.tf:3,12-13", LEGACY, legacy("module.own", "./own"))),
                row(
                        "a providers key the child does not declare: a warning at the key",
                        List.of(
                                "main.tf",
                                ROOT_AWS
                                        + "module \"child\" {\n  source    = \"./child\"\n  providers = { aws = aws.e }\n}\n",
                                "child/main.tf",
                                "resource \"terraform_data\" \"c\" {}\n"),
                        warning(
                                "main.tf:12,17-20",
                                UNDEFINED,
                                undefinedInChild("aws", "module.child", "hashicorp/aws"))),
                row(
                        "an aliased key needs configuration_aliases, a declared local name is not enough; its name is"
                                + " the place",
                        List.of(
                                "main.tf",
                                ROOT_AWS
                                        + "module \"declared\" {\n  source    = \"./declared\"\n"
                                        + "  providers = { aws.two = aws.e }\n}\n"
                                        + "module \"aliases\" {\n  source    = \"./aliases\"\n"
                                        + "  providers = { aws.two = aws.e }\n}\n",
                                "declared/main.tf",
                                CHILD_REQUIRES_AWS,
                                "aliases/main.tf",
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
                        warning(
                                "main.tf:12,17-20",
                                UNDEFINED,
                                undefinedInChild("aws.two", "module.declared", "hashicorp/aws"))),
                row(
                        "the same provider declared under another local name does not declare this one",
                        List.of(
                                "main.tf",
                                ROOT_AWS
                                        + "module \"child\" {\n  source    = \"./child\"\n  providers = { aws = aws.e }\n}\n",
                                "child/main.tf",
                                "terraform {\n  required_providers {\n    awsx = { source = \"hashicorp/aws\" }\n  }\n}\n"),
                        warning(
                                "main.tf:12,17-20",
                                UNDEFINED,
                                undefinedInChild("aws", "module.child", "hashicorp/aws"))),
                row(
                        "without a providers map nothing is said; empty provider blocks declare what they name",
                        List.of(
                                "main.tf",
                                ROOT_AWS
                                        + "provider \"aws\" {\n  region = \"us-east-1\"\n}\n"
                                        + "module \"inherits\" {\n  source = \"./undeclared\"\n}\n"
                                        + "module \"proxies\" {\n  source    = \"./proxies\"\n"
                                        + "  providers = { aws = aws.e, aws.x = aws.e }\n}\n"
                                        + "module \"passed\" {\n  source    = \"./undeclared\"\n"
                                        + "  providers = { aws = aws.e }\n}\n",
                                "undeclared/main.tf",
                                "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"b\"\n}\n",
                                "proxies/main.tf",
                                "provider \"aws\" {}\nprovider \"aws\" {\n  alias = \"x\"\n}\n"),
                        warning(
                                "main.tf:22,17-20",
                                UNDEFINED,
                                undefinedInChild("aws", "module.passed", "hashicorp/aws"))),
                row(
                        "once per call, not per instance, and at every depth",
                        List.of(
                                "main.tf",
                                ROOT_AWS
                                        + "module \"counted\" {\n  source    = \"./child\"\n  count     = 2\n"
                                        + "  providers = { aws = aws.e }\n}\n"
                                        + "module \"keyed\" {\n  source    = \"./child\"\n"
                                        + "  for_each  = toset([\"a\", \"b\"])\n  providers = { aws = aws.e }\n}\n",
                                "child/main.tf",
                                CHILD_REQUIRES_AWS
                                        + "module \"inner\" {\n  source    = \"./inner\"\n  providers = { aws = aws }\n}\n",
                                "child/inner/main.tf",
                                "resource \"terraform_data\" \"i\" {}\n"),
                        warning(
                                "child/main.tf:8,17-20",
                                UNDEFINED,
                                undefinedInChild("aws", "module.counted.module.inner", "hashicorp/aws")),
                        warning(
                                "child/main.tf:8,17-20",
                                UNDEFINED,
                                undefinedInChild("aws", "module.keyed.module.inner", "hashicorp/aws"))),
                row(
                        "an error when the child's local name is another namespace's provider",
                        List.of(
                                "main.tf",
                                ROOT_AWS
                                        + "module \"child\" {\n  source    = \"./child\"\n"
                                        + "  providers = { aws.two = aws.e }\n}\n",
                                "child/main.tf",
                                "terraform {\n  required_providers {\n    aws = { source = \"acme/aws\" }\n  }\n}\n"),
                        error(
                                "main.tf:12,17-20",
                                UNDEFINED,
                                "The child module does not declare any provider requirement with the local name "
                                        + "\"aws.two\".\n\nIf you also control the child module, you can add a "
                                        + "required_providers entry named \"aws.two\" with the source address "
                                        + "\"acme/aws\" to accept this provider configuration.")),
                row(
                        "a passed configuration the caller neither declares nor configures: a warning at the value",
                        List.of(
                                "main.tf",
                                """
                                provider "aws" {}
                                provider "aws" {
                                  alias  = "e"
                                  region = "us-east-1"
                                }
                                module "direct" {
                                  source    = "./leaf"
                                  providers = { aws = aws }
                                }
                                module "required" {
                                  source    = "./required"
                                  providers = { aws = aws.e }
                                }
                                module "configured" {
                                  source = "./configured"
                                }
                                module "undeclared" {
                                  source = "./undeclared"
                                }
                                """,
                                "required/main.tf",
                                CHILD_REQUIRES_AWS + PASSES_AWS,
                                "configured/main.tf",
                                CONFIGURES + PASSES_AWS,
                                "undeclared/main.tf",
                                PASSES_AWS + "module \"deeper\" {\n  source = \"../deeper\"\n}\n",
                                "deeper/main.tf",
                                PASSES_AWS,
                                "leaf/main.tf",
                                CHILD_REQUIRES_AWS),
                        warning(
                                "deeper/main.tf:3,23-26",
                                UNDEFINED,
                                undefinedInParent("aws", "module.undeclared.module.deeper", "module.undeclared")),
                        warning(
                                "main.tf:8,23-26",
                                UNDEFINED,
                                undefinedInParent("aws", "the root module", "the root module")),
                        warning(
                                "undeclared/main.tf:3,23-26",
                                UNDEFINED,
                                undefinedInParent("aws", "module.undeclared", "the root module"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void reportsWhatTerraformReports(String rule, List<String> files, List<Want> want) {
        write(dir, files.toArray(String[]::new));
        Diagnostics ds = validate(dir);
        assertThat(brief(ds))
                .containsExactlyElementsOf(want.stream().map(Want::brief).toList());
        List<String> details = new ArrayList<>();
        List<String> wanted = new ArrayList<>();
        for (int i = 0; i < want.size(); i++) {
            if (want.get(i).detail() != null) {
                Diagnostic d = ds.asList().get(i);
                details.add(d.detail());
                wanted.add(want.get(i).detail());
            }
        }
        assertThat(details).containsExactlyElementsOf(wanted);
    }
}
