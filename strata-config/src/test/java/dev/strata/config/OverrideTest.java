package dev.strata.config;

import static dev.strata.config.Fixtures.brief;
import static dev.strata.config.Fixtures.load;
import static dev.strata.config.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.Provider;
import dev.strata.addr.Resource;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Result;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Override files, rule by rule as Terraform's "Override Files" page documents them (and, where the page
 * is silent, as {@code terraform validate} 1.11 behaves: the messages and ranges below are its).
 */
class OverrideTest {
    @TempDir
    Path dir;

    private ModuleConfig clean() {
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics())).isEmpty();
        return r.value().root().module();
    }

    @Test
    void lifecycleMergesArgumentByArgument() {
        write(dir, "main.tf", """
                resource "aws_instance" "web" {
                  lifecycle {
                    create_before_destroy = true
                    ignore_changes        = [tags]
                    precondition {
                      condition     = self.ami != ""
                      error_message = "x"
                    }
                  }
                }
                data "aws_ami" "a" {
                  lifecycle {
                    postcondition {
                      condition     = self.id != ""
                      error_message = "x"
                    }
                  }
                }
                """, "override.tf", """
                resource "aws_instance" "web" {
                  lifecycle { prevent_destroy = true }
                }
                """, "z_override.tf", """
                resource "aws_instance" "web" {
                  lifecycle { create_before_destroy = false }
                }
                data "aws_ami" "a" {
                  lifecycle {}
                }
                """);
        ModuleConfig m = clean();
        Lifecycle lc =
                m.resources().get(Resource.managed("aws_instance", "web")).lifecycle();
        assertThat(lc.createBeforeDestroy()).as("the later override wins").isFalse();
        assertThat(lc.preventDestroy()).isTrue();
        assertThat(lc.ignoreChanges()).extracting(Object::toString).containsExactly("tags");
        assertThat(lc.preconditions()).hasSize(1);
        assertThat(m.resources().get(Resource.data("aws_ami", "a")).lifecycle().postconditions())
                .hasSize(1);
    }

    @Test
    void lifecycleFromAnOverrideAloneApplies() {
        write(
                dir,
                "main.tf",
                "resource \"aws_instance\" \"web\" {}\n",
                "override.tf",
                "resource \"aws_instance\" \"web\" {\n  lifecycle { ignore_changes = all }\n}\n");
        assertThat(clean().resources()
                        .get(Resource.managed("aws_instance", "web"))
                        .lifecycle()
                        .ignoreAllChanges())
                .isTrue();
    }

    @Test
    void otherNestedBlocksAreReplacedWholeByType() {
        write(dir, "main.tf", """
                resource "aws_instance" "web" {
                  ami = "a"
                  ebs { size = 1 }
                  ebs { size = 2 }
                  network { id = "n" }
                }
                """, "override.tf", """
                resource "aws_instance" "web" {
                  ebs { size = 3 }
                }
                """);
        ResourceConfig web = clean().resources().get(Resource.managed("aws_instance", "web"));
        BodySchema schema = new BodySchema(
                List.of(AttributeSchema.optional("ami")),
                List.of(BlockHeaderSchema.of("ebs"), BlockHeaderSchema.of("network")));
        var content = web.config().content(schema);
        assertThat(brief(content.diagnostics())).isEmpty();
        assertThat(content.value().blocksOfType("ebs")).hasSize(1);
        assertThat(content.value().blocksOfType("ebs").getFirst().range().filename())
                .isEqualTo("override.tf");
        assertThat(content.value().blocksOfType("network")).hasSize(1);
        assertThat(content.value().attributes()).containsKey("ami");
    }

    @Test
    void whatAnOverrideMayNotChange() {
        write(dir, "main.tf", """
                variable "v" {
                  default = "a"
                  validation {
                    condition     = var.v != ""
                    error_message = "x"
                  }
                }
                resource "terraform_data" "r" {}
                resource "terraform_data" "s" {}
                data "terraform_remote_state" "d" {}
                module "m" { source = "./m" }
                output "o" { value = 1 }
                check "c" {
                  assert {
                    condition     = var.v != ""
                    error_message = "x"
                  }
                }
                """, "m/main.tf", "", "override.tf", """
                variable "v" {
                  validation {
                    condition     = var.v != "b"
                    error_message = "y"
                  }
                }
                resource "terraform_data" "r" {
                  depends_on = [terraform_data.s]
                  lifecycle {
                    postcondition {
                      condition     = self.id != ""
                      error_message = "z"
                    }
                  }
                }
                data "terraform_remote_state" "d" {
                  depends_on = [terraform_data.s]
                }
                module "m" {
                  depends_on = [terraform_data.s]
                }
                output "o" {
                  depends_on = [terraform_data.s]
                  precondition {
                    condition     = terraform_data.s.id != ""
                    error_message = "p"
                  }
                }
                check "c" {
                  assert {
                    condition     = terraform_data.s.id != ""
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
                """);
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "override.tf:2,3-13: Can't override validation blocks",
                        "override.tf:8,17-33: Unsupported override",
                        "override.tf:10,5-18: Can't override postcondition blocks",
                        "override.tf:17,17-33: Unsupported override",
                        "override.tf:20,17-33: Unsupported override",
                        "override.tf:23,17-33: Unsupported override",
                        "override.tf:24,3-15: Can't override precondition blocks",
                        "override.tf:29,1-10: Can't override check blocks",
                        "override.tf:35,1-6: Cannot override 'moved' blocks",
                        "override.tf:39,1-7: Cannot override 'import' blocks");
        assertThat(r.diagnostics().asList().get(1).detail())
                .isEqualTo("The depends_on argument may not be " + "overridden.");
        ModuleConfig m = r.value().root().module();
        assertThat(m.variables().get("v").validations()).hasSize(1);
        assertThat(m.moved()).isEmpty();
        assertThat(m.imports()).isEmpty();
        assertThat(m.checks().get("c").asserts()).hasSize(1);
    }

    @Test
    void removedBlocksInOverrideFilesAreKept() {
        write(dir, "main.tf", "", "override.tf", """
                removed {
                  from = terraform_data.q
                  lifecycle { destroy = false }
                }
                """);
        assertThat(clean().removed()).hasSize(1);
    }

    @Test
    void variableTypeAndDefaultMeetAfterMerging() {
        write(dir, "main.tf", """
                variable "a" { default = "1" }
                variable "b" { default = "x" }
                variable "c" { type = number }
                """, "override.tf", """
                variable "a" { type = number }
                variable "b" { type = number }
                variable "c" { default = "seven" }
                """);
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "override.tf:2,1-13: Invalid default value for variable",
                        "override.tf:3,1-13: Invalid default value for variable");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("Overriding this variable's type "
                        + "constraint has made its default value invalid: a number is required.");
        assertThat(r.diagnostics().asList().get(1).detail())
                .isEqualTo("The overridden default value for this "
                        + "variable is not compatible with the variable's type constraint: a number is required.");
        assertThat(r.value().root().module().variables().get("a").defaultValue())
                .isEqualTo(Value.number(1));
        assertThat(r.value().root().module().variables().get("a").type().type()).isEqualTo(Type.NUMBER);
    }

    @Test
    void terraformSettingsMergeOneByOne() {
        write(dir, "main.tf", """
                terraform {
                  required_version = ">= 99.0"
                  required_providers {
                    aws    = { source = "hashicorp/aws", version = "~> 4.0" }
                    random = { source = "hashicorp/random", version = "3.6.0" }
                  }
                  backend "local" {}
                }
                """, "override.tf", """
                terraform {
                  required_version = ">= 1.0"
                  required_providers {
                    aws = { source = "example/aws", version = "~> 5.0" }
                  }
                  backend "pg" {}
                }
                """);
        ModuleConfig m = clean();
        assertThat(m.requiredVersions()).extracting(Object::toString).containsExactly(">= 1.0");
        assertThat(m.requiredProviders().get("aws").source())
                .isEqualTo(Provider.parse("example/aws", null).value());
        assertThat(m.requiredProviders().get("aws").version().toString()).isEqualTo("~> 5.0");
        assertThat(m.requiredProviders().get("random").version().toString()).isEqualTo("3.6.0");
        assertThat(m.backend().type()).isEqualTo("pg");
    }

    @Test
    void localsOverrideValueByValue() {
        write(
                dir,
                "main.tf",
                "locals {\n  a = 1\n  b = 2\n}\nlocals { c = 3 }\n",
                "override.tf",
                "locals {\n  b = 20\n  c = 30\n}\n");
        ModuleConfig m = clean();
        assertThat(m.locals().get("a").declRange().filename()).isEqualTo("main.tf");
        assertThat(m.locals().get("b").declRange().filename()).isEqualTo("override.tf");
        assertThat(m.locals().get("c").declRange().filename()).isEqualTo("override.tf");
    }

    @Test
    void aBaseArgumentAnOverrideReplacesIsNeitherCheckedNorADependency() {
        // terraform validate 1.11 accepts this: the merged body no longer holds the base's references.
        write(dir, "main.tf", """
                resource "terraform_data" "a" {
                  input = terraform_data.nope.id
                }
                resource "terraform_data" "c" {
                  input            = terraform_data.a.output
                  triggers_replace = [terraform_data.zzz.id]
                }
                """, "main_override.tf", """
                resource "terraform_data" "a" {
                  input = "x"
                }
                resource "terraform_data" "c" {
                  triggers_replace = null
                }
                """);
        assertThat(brief(Fixtures.validate(dir))).isEmpty();
        ModuleConfig m = clean();
        assertThat(References.of(m.resources().get(Resource.managed("terraform_data", "a"))))
                .isEmpty();
        assertThat(References.of(m.resources().get(Resource.managed("terraform_data", "c"))))
                .extracting(ref -> ref.subject().toString())
                .containsExactly("terraform_data.a");
    }
}
