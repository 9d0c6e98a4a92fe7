package dev.strata.stacks.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.InstanceKey;
import dev.strata.addr.Provider;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Severity;
import dev.strata.lang.types.Type;
import dev.strata.stacks.addr.ComponentAddr;
import dev.strata.stacks.addr.ProviderConfigAddr;
import dev.strata.stacks.addr.StackInstance;
import dev.strata.stacks.addr.StackPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackLoaderTest {
    @TempDir
    Path dir;

    private void write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private static final String MODULE = """
            terraform {
              required_providers {
                aws = { source = "hashicorp/aws" }
              }
            }
            variable "name" { type = string }
            variable "size" {
              type    = number
              default = 1
            }
            output "id" { value = var.name }
            """;

    private static final String STACK = """
            required_providers {
              aws = {
                source  = "hashicorp/aws"
                version = "~> 5.0"
              }
            }

            variable "regions" {
              type = set(string)
            }

            variable "token" {
              type      = string
              sensitive = true
              ephemeral = true
              default   = null
            }

            variable "aws" {
              type = providerconfig(aws)
              default = null
            }

            provider "aws" "by_region" {
              for_each = var.regions
              config {
                region = each.value
              }
            }

            locals {
              prefix = "app"
            }

            component "net" {
              source   = "./modules/net"
              for_each = var.regions
              inputs = {
                name = "${local.prefix}-${each.key}"
              }
              providers = {
                aws = provider.aws.by_region[each.value]
              }
            }

            stack "child" {
              source = "./child"
              inputs = {
                name = local.prefix
              }
              depends_on = [component.net]
            }

            removed {
              from   = component.old["a"]
              source = "./modules/net"
              providers = {
                aws = provider.aws.by_region["x"]
              }
              lifecycle {
                destroy = false
              }
            }

            output "ids" {
              type  = map(string)
              value = { for k, c in component.net : k => c.id }
            }
            """;

    @Test
    void loadsEveryBlockOfAStack() throws IOException {
        write("modules/net/main.tf", MODULE);
        write("main.tfcomponent.hcl", STACK);
        write("child/child.tfcomponent.hcl", """
                variable "name" { type = string }
                output "greeting" {
                  type  = string
                  value = "hello ${var.name}"
                }
                """);
        var r = StackLoader.load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        StackConfig s = r.value();
        assertThat(s.path()).isEqualTo(StackPath.ROOT);
        assertThat(s.files()).containsExactly("main.tfcomponent.hcl");
        assertThat(s.requiredProviders().get("aws").source()).isEqualTo(Provider.hashicorp("aws"));
        assertThat(s.requiredProviders().get("aws").version()).isEqualTo("~> 5.0");

        StackVariable token = s.variables().get("token");
        assertThat(token.sensitive()).isTrue();
        assertThat(token.ephemeral()).isTrue();
        assertThat(token.required()).isFalse();
        assertThat(s.variables().get("regions").required()).isTrue();
        assertThat(((StackType.Value) s.variables().get("regions").type())
                        .constraint()
                        .type())
                .isEqualTo(Type.set(Type.STRING));
        assertThat(s.variables().get("aws").type())
                .isEqualTo(new StackType.ProviderConfig("aws", Provider.hashicorp("aws")));

        ProviderBlock p = s.providers().get(new ProviderConfigAddr("aws", "by_region"));
        assertThat(p.provider()).isEqualTo(Provider.hashicorp("aws"));
        assertThat(p.forEach()).isNotNull();
        assertThat(p.config()).isNotNull();

        ComponentConfig net = s.components().get("net");
        assertThat(net.source()).isEqualTo("./modules/net");
        assertThat(net.moduleDir())
                .isEqualTo(dir.resolve("modules/net").toAbsolutePath().normalize());
        assertThat(net.module().variables()).containsOnlyKeys("name", "size");
        assertThat(net.providerArgs()).containsOnlyKeys("aws");
        assertThat(net.forEach()).isNotNull();
        assertThat(net.declRange().toString()).isEqualTo("main.tfcomponent.hcl:35,1-16");

        EmbeddedStackConfig child = s.embeddedStacks().get("child");
        assertThat(child.stack().path()).isEqualTo(new StackPath(List.of("child")));
        assertThat(child.stack().files()).containsExactly("child/child.tfcomponent.hcl");
        assertThat(child.dependsOn()).hasSize(1);
        assertThat(s.descendant(new StackPath(List.of("child")))).isSameAs(child.stack());

        RemovedBlock removed = s.removed().getFirst();
        assertThat(removed.from().component()).isEqualTo("old");
        assertThat(removed.from().componentKey()).isNotNull();
        assertThat(removed.destroy()).isFalse();
        assertThat(removed.module()).isNotNull();

        assertThat(s.sources())
                .containsKeys("main.tfcomponent.hcl", "child/child.tfcomponent.hcl", "modules/net/main.tf");
        assertThat(StackValidator.validate(s).asList()).isEmpty();
    }

    @Test
    void jsonSyntaxLoadsTheSameModel() throws IOException {
        write("modules/net/main.tf", MODULE);
        write("main.tfcomponent.json", """
                {
                  "required_providers": {"aws": {"source": "hashicorp/aws"}},
                  "variable": {"name": {"type": "string"}},
                  "provider": {"aws": {"main": {"config": {"region": "us-east-1"}}}},
                  "component": {"net": {
                    "source": "./modules/net",
                    "inputs": {"name": "${var.name}"},
                    "providers": {"aws": "${provider.aws.main}"}
                  }},
                  "output": {"id": {"type": "string", "value": "${component.net.id}"}}
                }
                """);
        var r = StackLoader.load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        StackConfig s = r.value();
        assertThat(s.components().get("net").module()).isNotNull();
        assertThat(s.providers()).containsOnlyKeys(new ProviderConfigAddr("aws", "main"));
        assertThat(StackValidator.validate(s).asList()).isEmpty();
    }

    @Test
    void deprecatedFileNamesLoadWithAWarning() throws IOException {
        write("main.tfstack.hcl", "variable \"a\" {\n  type = string\n}\n");
        Diagnostics d = StackLoader.load(dir).diagnostics();
        assertThat(d.asList()).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARNING);
            assertThat(x.summary()).isEqualTo("Deprecated filename usage");
        });
    }

    @Test
    void structuralProblemsHaveExactRanges() throws IOException {
        write("modules/net/main.tf", MODULE);
        write("main.tfcomponent.hcl", """
                variable "a" {
                }
                output "o" {
                  value = 1
                }
                component "x" {
                  source = "./modules/net"
                  inputs = { name = "n" }
                  bogus  = 1
                }
                component "x" {
                  source = "./modules/net"
                }
                widget "w" {}
                """);
        List<String> got = StackLoader.load(dir).diagnostics().asList().stream()
                .map(Diagnostic::toString)
                .toList();
        assertThat(got)
                .anySatisfy(
                        s -> assertThat(s)
                                .startsWith(
                                        "main.tfcomponent.hcl:1,14-14: Missing required argument; The argument \"type\" is required"));
        assertThat(got)
                .anySatisfy(
                        s -> assertThat(s)
                                .startsWith(
                                        "main.tfcomponent.hcl:3,12-12: Missing required argument; The argument \"type\" is required"));
        assertThat(got).anySatisfy(s -> assertThat(s).startsWith("main.tfcomponent.hcl:9,3-8: Unsupported argument"));
        assertThat(got)
                .anySatisfy(
                        s -> assertThat(s).startsWith("main.tfcomponent.hcl:11,1-14: Duplicate component declaration"));
        assertThat(got)
                .anySatisfy(s -> assertThat(s).startsWith("main.tfcomponent.hcl:14,1-7: Unsupported block type"));
    }

    @Test
    void missingLocalSourceIsReportedAtTheSource() throws IOException {
        write("main.tfcomponent.hcl", "component \"x\" {\n  source = \"./nowhere\"\n}\n");
        var d = StackLoader.load(dir).diagnostics().asList();
        assertThat(d)
                .singleElement()
                .hasToString(
                        "main.tfcomponent.hcl:2,12-23: Invalid component source; The directory nowhere does not exist or cannot be read.");
    }

    @Test
    void anEmptyDirectoryIsNotAStack() {
        var d = StackLoader.load(dir).diagnostics().asList();
        assertThat(d).singleElement().satisfies(x -> assertThat(x.summary()).isEqualTo("No stack configuration files"));
    }

    @Test
    void addressesRenderAsTerraformDoes() {
        StackInstance in = StackInstance.ROOT.child("net", InstanceKey.of("east"));
        ComponentAddr c = new ComponentAddr(in, "vpc");
        assertThat(c.instance(InstanceKey.of(0))).hasToString("stack.net[\"east\"].component.vpc[0]");
        assertThat(ComponentAddr.root("web")).hasToString("component.web");
        assertThat(in.configPath()).isEqualTo(new StackPath(List.of("net")));
        assertThat(new ProviderConfigAddr("aws", "main")).hasToString("provider.aws.main");
    }
}
