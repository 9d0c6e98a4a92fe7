package dev.strata.stacks.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackValidatorTest {
    @TempDir
    Path dir;

    private List<String> validate(String stack) throws IOException {
        Files.createDirectories(dir.resolve("m"));
        Files.writeString(
                dir.resolve("m/main.tf"),
                "variable \"name\" {\n  type = string\n}\noutput \"id\" {\n  value = var.name\n}\n");
        Files.writeString(dir.resolve("main.tfcomponent.hcl"), stack);
        var r = StackLoader.load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        return StackValidator.validate(r.value()).asList().stream()
                .map(Diagnostic::toString)
                .toList();
    }

    @Test
    void undeclaredLocalsAndStacks() throws IOException {
        assertThat(validate("""
                component "a" {
                  source = "./m"
                  inputs = { name = "${local.nope}${stack.gone.x}" }
                }
                """))
                .containsExactly(
                        "main.tfcomponent.hcl:3,24-34: Reference to undeclared local value; There is no local value named \"nope\" declared in this stack.",
                        "main.tfcomponent.hcl:3,37-47: Reference to undeclared embedded stack; There is no stack \"gone\" block declared in this stack.");
    }

    @Test
    void eachOnlyWithForEach() throws IOException {
        assertThat(validate("""
                component "a" {
                  source = "./m"
                  inputs = { name = each.key }
                }
                """))
                .singleElement()
                .asString()
                .startsWith("main.tfcomponent.hcl:3,21-25: Invalid \"each\" reference");
    }

    @Test
    void aComponentReferringToItselfIsACycle() throws IOException {
        assertThat(validate("""
                component "a" {
                  source = "./m"
                  inputs = { name = component.a.id }
                }
                """))
                .singleElement()
                .asString()
                .contains("Self-dependent items in configuration")
                .contains("  - component.a\n");
    }

    @Test
    void variableDefaultsAreConstants() throws IOException {
        assertThat(validate("""
                variable "a" {
                  type    = string
                  default = "x"
                }
                variable "b" {
                  type    = string
                  default = var.a
                }
                """))
                .containsExactly(
                        "main.tfcomponent.hcl:7,13-16: Variables not allowed; Variables may not be used here.");
    }

    @Test
    void unknownRootsAreInvalidReferences() throws IOException {
        assertThat(validate("""
                output "o" {
                  type  = string
                  value = path.module
                }
                """))
                .containsExactly(
                        "main.tfcomponent.hcl:3,11-15: Invalid reference; There is no object named \"path\" in a stack configuration. References must start with var, local, component, stack, provider or each.");
    }

    @Test
    void embeddedStackInputsMatchItsVariables() throws IOException {
        Files.createDirectories(dir.resolve("child"));
        Files.writeString(dir.resolve("child/c.tfcomponent.hcl"), "variable \"x\" {\n  type = string\n}\n");
        assertThat(validate("""
                stack "c" {
                  source = "./child"
                  inputs = { y = 1 }
                }
                """))
                .containsExactly(
                        "main.tfcomponent.hcl:3,12-21: Missing required input variable; The embedded stack \"c\" requires a value for its input variable \"x\"; set it in the inputs argument.",
                        "main.tfcomponent.hcl:3,14-15: Unsupported input variable; The embedded stack \"c\" has no input variable named \"y\".");
    }

    @Test
    void componentModulesAreCheckedAgainstTheirProvidersSchemasOncePerModule() throws IOException {
        Files.createDirectories(dir.resolve("mods/data"));
        Files.writeString(dir.resolve("mods/data/main.tf"), """
                resource "terraform_data" "x" {
                  bogus = 1
                }
                """);
        Files.writeString(dir.resolve("main.tfcomponent.hcl"), """
                provider "terraform" "main" {}
                component "a" {
                  source    = "./mods/data"
                  providers = { terraform = provider.terraform.main }
                }
                component "b" {
                  source    = "./mods/data"
                  providers = { terraform = provider.terraform.main }
                }
                """);
        var r = StackLoader.load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(StackValidator.validate(r.value()).asList()).isEmpty();
        assertThat(dev.strata.stacks.runtime.ComponentModuleChecks.validate(
                                r.value(), dev.strata.provider.ProviderRegistry.load(), dir, "1.14.0")
                        .asList()
                        .stream()
                        .map(Diagnostic::toString))
                .containsExactly("mods/data/main.tf:2,3-8: Unsupported argument; An argument named \"bogus\" is not "
                        + "expected here.");
    }
}
