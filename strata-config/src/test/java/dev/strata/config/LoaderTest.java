package dev.strata.config;

import static dev.strata.config.Fixtures.brief;
import static dev.strata.config.Fixtures.load;
import static dev.strata.config.Fixtures.outputsOf;
import static dev.strata.config.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.LocalProviderConfig;
import dev.strata.addr.Provider;
import dev.strata.addr.Resource;
import dev.strata.hcl.Result;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoaderTest {
    @TempDir
    Path dir;

    @Test
    void theEncryptionBlockIsKeptForWhoeverOpensTheState() {
        write(dir, "main.tf", """
                terraform {
                  encryption {
                    method "unencrypted" "plain" {}
                  }
                }
                """);
        write(dir, "other.tf", "terraform {\n  encryption {}\n}\n");
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics())).containsExactly("other.tf:2,3-13: Duplicate encryption configuration");
        EncryptionConfig e = r.value().root().module().encryption();
        assertThat(e.declRange().filename()).isEqualTo("main.tf");
        assertThat(e.declRange().start().line()).isEqualTo(2);
    }

    /** As Terraform: a condition that refers to nothing checks nothing; a check left without asserts is an error. */
    @Test
    void conditionsMustReferToSomething() {
        write(dir, "main.tf", """
                resource "terraform_data" "a" {
                  lifecycle {
                    precondition {
                      condition     = true
                      error_message = "x"
                    }
                    postcondition {
                      condition     = 1 == 1
                      error_message = "x"
                    }
                  }
                }
                output "o" {
                  value = 1
                  precondition {
                    condition     = terraform_data.a.id != ""
                    error_message = "x"
                  }
                }
                check "c" {
                  assert {
                    condition     = false
                    error_message = "x"
                  }
                }
                """);
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "main.tf:4,23-27: Invalid precondition expression",
                        "main.tf:8,23-29: Invalid postcondition expression",
                        "main.tf:20,1-10: Zero assert blocks",
                        "main.tf:22,21-26: Invalid assert expression");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("The condition expression must refer to at least one object from elsewhere in the "
                        + "configuration, or else its result would not be checking anything.");
        assertThat(r.value().root().module().outputs().get("o").preconditions()).hasSize(1);
    }

    @Test
    void providerMetaBlocksAreKeptByLocalNameAndASecondOneIsADuplicateAsInTerraform() {
        write(dir, "main.tf", """
                terraform {
                  provider_meta "aws" {
                    user_agent = ["example"]
                  }
                  provider_meta "terraform" {
                  }
                }
                """);
        write(dir, "other.tf", "terraform {\n  provider_meta \"aws\" {}\n}\n");
        Result<ConfigTree> r = load(dir);
        assertThat(r.diagnostics().asList()).singleElement().satisfies(d -> {
            assertThat(brief(d)).isEqualTo("other.tf:2,3-22: Duplicate provider_meta block");
            assertThat(d.detail())
                    .isEqualTo("A provider_meta block for provider \"aws\" was already declared at "
                            + "main.tf:2,3-22. Providers may only have one provider_meta block per module.");
        });
        var metas = r.value().root().module().providerMetas();
        assertThat(metas.keySet()).containsExactly("aws", "terraform");
        ProviderMetaConfig aws = metas.get("aws");
        assertThat(aws.nameRange().toString()).isEqualTo("main.tf:2,17-22");
        assertThat(aws.config().justAttributes().value()).containsKey("user_agent");
    }

    @Test
    void everyTopLevelBlock() {
        write(dir, "main.tf", """
                terraform {
                  required_version = ">= 1.5"
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "~> 5.0" }
                    random = "3.6.0"
                  }
                  backend "local" { path = "x.tfstate" }
                }
                provider "aws" { region = "eu-west-1" }
                provider "aws" {
                  alias    = "by_region"
                  for_each = toset(["eu-west-1", "us-east-1"])
                  region   = each.value
                }
                variable "names" {
                  type    = list(object({ n = string, size = optional(number, 2) }))
                  default = [{ n = "a" }]
                  sensitive = true
                  nullable  = false
                  validation {
                    condition     = length(var.names) > 0
                    error_message = "At least one."
                  }
                }
                locals { x = 1 }
                output "o" {
                  value = local.x
                  depends_on = [aws_instance.web]
                  precondition {
                    condition = local.x == 1
                    error_message = "never"
                  }
                }
                resource "aws_instance" "web" {
                  for_each = toset(["a"])
                  provider = aws.by_region[each.key]
                  ami = "x"
                  dynamic "ebs" {
                    for_each = [1]
                    content { size = ebs.value }
                  }
                  lifecycle {
                    create_before_destroy = true
                    ignore_changes = [tags["Name"], ami]
                    replace_triggered_by = [terraform_data.t]
                    postcondition {
                      condition = self.ami != ""
                      error_message = "no ami"
                    }
                  }
                }
                resource "terraform_data" "t" {}
                data "aws_ami" "u" { count = 1 }
                moved {
                  from = aws_instance.old
                  to   = aws_instance.web
                }
                import {
                  to = terraform_data.t
                  id = "abc"
                }
                removed {
                  from = aws_instance.gone
                  lifecycle { destroy = false }
                }
                check "c" {
                  data "aws_ami" "scoped" {}
                  assert {
                    condition = data.aws_ami.scoped.id != ""
                    error_message = "bad"
                  }
                }
                """);
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics())).isEmpty();
        ModuleConfig m = r.value().root().module();
        assertThat(m.requiredVersions()).hasSize(1);
        assertThat(m.requiredProviders().get("aws").source().toString())
                .isEqualTo("registry.terraform.io/hashicorp/aws");
        assertThat(m.requiredProviders().get("random").version().toString()).isEqualTo("3.6.0");
        assertThat(m.backend().type()).isEqualTo("local");
        assertThat(m.providerConfigs().keySet())
                .containsExactly(LocalProviderConfig.of("aws"), new LocalProviderConfig("aws", "by_region"));
        VariableConfig v = m.variables().get("names");
        assertThat(v.sensitive()).isTrue();
        assertThat(v.nullable()).isFalse();
        assertThat(v.validations()).hasSize(1);
        assertThat(v.defaultValue().elements().getFirst().attributes().get("size"))
                .isEqualTo(Value.number(2));
        assertThat(v.type().type())
                .isEqualTo(Type.list(
                        v.type().type() instanceof dev.strata.lang.types.ListType l ? l.elem() : Type.DYNAMIC));
        ResourceConfig web = m.resources().get(Resource.managed("aws_instance", "web"));
        assertThat(web.isInstanced()).isTrue();
        assertThat(web.provider().config()).isEqualTo(new LocalProviderConfig("aws", "by_region"));
        assertThat(web.provider().key()).isNotNull();
        assertThat(web.lifecycle().createBeforeDestroy()).isTrue();
        assertThat(web.lifecycle().ignoreChanges())
                .extracting(Object::toString)
                .containsExactly("tags[\"Name\"]", "ami");
        assertThat(web.lifecycle().postconditions()).hasSize(1);
        assertThat(m.resources()).containsKey(Resource.data("aws_ami", "u"));
        assertThat(m.outputs().get("o").dependsOn()).hasSize(1);
        assertThat(m.moved()).hasSize(1);
        assertThat(m.imports()).hasSize(1);
        assertThat(m.removed().getFirst().destroy()).isFalse();
        assertThat(m.checks().get("c").data().addr()).isEqualTo(Resource.data("aws_ami", "scoped"));
        assertThat(Validator.validate(r.value()).asList())
                .extracting(Fixtures::brief)
                .isEmpty();
    }

    @Test
    void duplicatesAreReportedAtTheSecondWithTheFirstLocation() {
        write(dir, "a.tf", """
                variable "x" {}
                resource "null_resource" "r" {}
                """, "b.tf", """
                variable "x" {}
                resource "null_resource" "r" {}
                output "o" { value = 1 }
                output "o" { value = 2 }
                module "m" { source = "./m" }
                module "m" { source = "./m" }
                provider "aws" {}
                provider "aws" {}
                locals { a = 1 }
                locals { a = 2 }
                """, "m/main.tf", "");
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "b.tf:1,1-13: Duplicate variable declaration",
                        "b.tf:2,1-29: Duplicate resource \"null_resource\" configuration",
                        "b.tf:4,1-11: Duplicate output definition",
                        "b.tf:6,1-11: Duplicate module call",
                        "b.tf:8,1-15: Duplicate provider configuration",
                        "b.tf:10,10-15: Duplicate local value definition");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("A variable named \"x\" was already declared at a.tf:1,1-13. Variable names must be unique "
                        + "within a module.");
    }

    @Test
    void overrideFilesMergeArgumentsAndNestedBlocks() {
        write(dir, "main.tf", """
                variable "v" {
                  type    = string
                  default = "base"
                }
                resource "aws_instance" "web" {
                  ami  = "base"
                  tags = {}
                  lifecycle { prevent_destroy = true }
                }
                locals { l = 1 }
                terraform { required_version = ">= 99" }
                """, "override.tf", """
                variable "v" { default = "over" }
                resource "aws_instance" "web" {
                  lifecycle { create_before_destroy = true }
                }
                terraform { required_version = ">= 1.0" }
                """, "z_override.tf.json", """
                {"locals": {"l": 2}, "resource": {"aws_instance": {"web": {"ami": "json"}}}}
                """);
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics())).isEmpty();
        ModuleConfig m = r.value().root().module();
        assertThat(m.variables().get("v").defaultValue()).isEqualTo(Value.string("over"));
        assertThat(m.variables().get("v").type().type()).isEqualTo(Type.STRING);
        ResourceConfig web = m.resources().get(Resource.managed("aws_instance", "web"));
        assertThat(web.lifecycle().createBeforeDestroy()).isTrue();
        assertThat(web.lifecycle().preventDestroy())
                .as("lifecycle merges per argument")
                .isTrue();
        var attrs = web.config().justAttributes().value();
        assertThat(attrs.keySet()).containsExactlyInAnyOrder("ami", "tags");
        assertThat(attrs.get("ami").expr().range().filename()).isEqualTo("z_override.tf.json");
        assertThat(m.locals().get("l").declRange().filename()).isEqualTo("z_override.tf.json");
        assertThat(m.files()).containsExactly("main.tf", "override.tf", "z_override.tf.json");
    }

    @Test
    void overrideWithoutBaseIsAnError() {
        write(dir, "main.tf", "", "x_override.tf", """
                resource "aws_instance" "nope" {}
                variable "nope" {}
                locals { nope = 1 }
                """);
        assertThat(brief(load(dir).diagnostics()))
                .containsExactly(
                        "x_override.tf:1,1-31: Missing resource to override",
                        "x_override.tf:2,1-16: Missing base variable declaration to override",
                        "x_override.tf:3,10-18: Missing base local value definition to override");
    }

    @Test
    void jsonFilesUseTypeStringsAndTraversalStrings() {
        write(dir, "main.tf.json", """
                {
                  "variable": {"v": {"type": "map(number)", "default": {"a": "1"}}},
                  "resource": {"aws_instance": {"web": {
                    "count": 2, "provider": "aws.west", "depends_on": ["terraform_data.t"],
                    "lifecycle": {"ignore_changes": ["tags"]}
                  }}},
                  "resource": {"terraform_data": {"t": {}}},
                  "provider": {"aws": [{"alias": "west"}]}
                }
                """);
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics())).isEmpty();
        ModuleConfig m = r.value().root().module();
        assertThat(m.variables().get("v").type().type()).isEqualTo(Type.map(Type.NUMBER));
        assertThat(m.variables().get("v").defaultValue().attributes().get("a")).isEqualTo(Value.number(1));
        ResourceConfig web = m.resources().get(Resource.managed("aws_instance", "web"));
        assertThat(web.provider().config()).isEqualTo(new LocalProviderConfig("aws", "west"));
        assertThat(web.dependsOn()).extracting(Object::toString).containsExactly("terraform_data.t");
        assertThat(web.lifecycle().ignoreChanges()).hasSize(1);
    }

    @Test
    void moduleTreeWithLocalSourcesAndRemoteOnesDiagnosed() {
        write(dir, "main.tf", """
                module "net" { source = "./modules/net" }
                module "vpc" {
                  source  = "terraform-aws-modules/vpc/aws"
                  version = "5.0.0"
                }
                module "missing" { source = "./nope" }
                """, "modules/net/main.tf", """
                module "sub" { source = "../sub" }
                """, "modules/sub/main.tf", """
                output "x" { value = 1 }
                """);
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "main.tf:2,1-13: Module not installed", "main.tf:6,29-37: Unreadable module directory");
        assertThat(outputsOf(r.value(), "net", "sub")).containsKey("x");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .contains("terraform-aws-modules/vpc/aws")
                .contains("Run \"strata init\"");
        assertThat(r.value().files()).containsKeys("main.tf", "modules/net/main.tf", "modules/sub/main.tf");
    }

    @Test
    void moduleCycleNamesTheChain() {
        write(
                dir,
                "main.tf",
                "module \"a\" { source = \"./a\" }\n",
                "a/main.tf",
                "module \"b\" { source = \"../b\" }\n",
                "b/main.tf",
                "module \"a\" { source = \"../a\" }\n");
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics())).containsExactly("b/main.tf:1,23-29: Module call cycle");
        assertThat(r.diagnostics().asList().getFirst().detail()).contains("a → b → a");
    }

    @Test
    void requiredVersionIsChecked() {
        write(dir, "main.tf", "terraform { required_version = \"~> 0.12.0\" }\n");
        assertThat(brief(load(dir).diagnostics()))
                .containsExactly("main.tf:1,32-43: Unsupported Terraform Core version");
    }

    @Test
    void ephemeralResourceBlocksDecodeWithTheirMetaArguments() {
        write(dir, "main.tf", """
                ephemeral "aws_ssm_parameter" "p" {
                  count      = 2
                  provider   = aws.west
                  depends_on = [terraform_data.d]
                  arn        = "x"
                  lifecycle {
                    precondition {
                      condition     = terraform_data.d.id != ""
                      error_message = "never"
                    }
                  }
                }
                resource "terraform_data" "d" {}
                """);
        Result<ConfigTree> r = load(dir);
        assertThat(r.diagnostics().hasErrors())
                .as(brief(r.diagnostics()).toString())
                .isFalse();
        ResourceConfig rc =
                r.value().root().module().resources().get(dev.strata.addr.Resource.ephemeral("aws_ssm_parameter", "p"));
        assertThat(rc).isNotNull();
        assertThat(rc.count()).isNotNull();
        assertThat(rc.providerConfig().alias()).isEqualTo("west");
        assertThat(rc.dependsOn()).hasSize(1);
        assertThat(rc.lifecycle().preconditions()).hasSize(1);
        assertThat(rc.addr().toString()).isEqualTo("ephemeral.aws_ssm_parameter.p");
    }

    @Test
    void ephemeralResourceBlocksRefuseManagedOnlyArgumentsAndDuplicates() {
        write(dir, "main.tf", """
                ephemeral "a_b" "c" {
                  lifecycle {
                    create_before_destroy = true
                    ignore_changes        = []
                  }
                }
                ephemeral "a_b" "c" {}
                """);
        assertThat(brief(load(dir).diagnostics()))
                .containsExactly(
                        "main.tf:3,5-26: Invalid ephemeral resource lifecycle argument",
                        "main.tf:4,5-19: Invalid ephemeral resource lifecycle argument",
                        "main.tf:7,1-20: Duplicate ephemeral \"a_b\" configuration");
    }

    @Test
    void unsupportedConstructsSayWhy() {
        write(dir, "main.tf", """
                terraform { experiments = [x] }
                resource "a_b" "c" {
                  provisioner "local-exec" { command = "x" }
                  count    = 1
                  for_each = {}
                }
                """);
        Result<ConfigTree> r = load(dir);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "main.tf:1,13-24: Experiments are not supported",
                        "main.tf:5,3-11: Invalid combination of \"count\" and \"for_each\"");
        // Provisioners are decoded with the resource, in order, with their defaults.
        assertThat(r.value()
                        .root()
                        .module()
                        .resources()
                        .values()
                        .iterator()
                        .next()
                        .provisioners())
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.type()).isEqualTo("local-exec");
                    assertThat(p.when()).isEqualTo(Provisioner.When.CREATE);
                    assertThat(p.onFailure()).isEqualTo(Provisioner.OnFailure.FAIL);
                    assertThat(p.declRange().start().line()).isEqualTo(3);
                });
    }

    @Test
    void variableTypeAndDefaultErrors() {
        write(dir, "main.tf", """
                variable "a" {
                  type    = number
                  default = "x"
                }
                variable "b" { type = "string" }
                variable "c" { type = lisst(string) }
                variable "d" { default = var.a }
                variable "e" {
                  type     = string
                  nullable = false
                  default  = null
                }
                """);
        assertThat(brief(load(dir).diagnostics()))
                .containsExactly(
                        "main.tf:3,13-16: Invalid default value for variable",
                        "main.tf:5,23-31: Invalid quoted type constraints",
                        "main.tf:6,23-28: Invalid type specification",
                        "main.tf:7,26-29: Variables not allowed",
                        "main.tf:11,14-18: Invalid default value for variable");
    }

    @Test
    void providerSourcesAreParsed() {
        write(dir, "main.tf", """
                terraform {
                  required_providers {
                    x = { source = "a/b/c/d" }
                  }
                }
                """);
        assertThat(brief(load(dir).diagnostics())).containsExactly("main.tf:3,20-29: Invalid provider source address");
        assertThat(Provider.parse("x", null).value()).isEqualTo(Provider.implied("x"));
    }

    @Test
    void dependsOnIgnoreChangesAndTriggersMustBeStaticReferences() {
        write(dir, "main.tf", """
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
                """);
        Result<ConfigTree> r = load(dir);
        // Terraform's summaries and ranges (ValidateDifferentialTest compares them with terraform's own).
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "main.tf:3,17-26: Invalid expression",
                        "warning: main.tf:3,28-46: Quoted references are deprecated",
                        "main.tf:5,29-43: Invalid expression",
                        "main.tf:10,16-32: Invalid expression",
                        "main.tf:12,23-28: Invalid expression",
                        "main.tf:18,29-30: Invalid expression",
                        "main.tf:23,17-27: Invalid expression");
        ResourceConfig a = r.value().root().module().resources().get(Resource.managed("terraform_data", "a"));
        assertThat(a.dependsOn()).extracting(Object::toString).containsExactly("terraform_data.b");
        assertThat(a.lifecycle().ignoreChanges()).extracting(Object::toString).containsExactly("input");
    }
}
