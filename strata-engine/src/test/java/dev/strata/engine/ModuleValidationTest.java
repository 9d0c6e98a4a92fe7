package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child module's input {@code validation} rules, checked for every instance of its call with
 * Terraform 1.11's diagnostics; rules may refer to the module's other objects (Terraform 1.9+).
 */
class ModuleValidationTest {
    private final EngineHarness h;

    ModuleValidationTest(@TempDir Path dir) {
        h = new EngineHarness(dir);
        h.files(Map.of("s/main.tf", EngineHarness.REQUIRED_PROVIDERS + """
                variable "size" {
                  type    = number
                  default = 50
                  validation {
                    condition     = var.size < var.max
                    error_message = "The size must be below ${var.max}."
                  }
                  validation {
                    condition     = var.size != tonumber(fake_thing.limit.value)
                    error_message = "Not ${fake_thing.limit.value}."
                  }
                  validation {
                    condition     = var.size == 3 ? "maybe" : true
                    error_message = "Never."
                  }
                }
                variable "max" {
                  type    = number
                  default = 10
                }
                resource "fake_thing" "limit" { value = "7" }
                resource "fake_thing" "half" { value = var.size / 2 }
                """));
    }

    private java.util.List<String> planErrors(String tf) {
        var p = h.plan(h.config(tf));
        return EngineHarness.errors(p.diagnostics()).stream()
                .map(d -> d.subject() + ": " + d.summary() + ": " + d.detail())
                .toList();
    }

    @Test
    void eachInstanceIsCheckedAtItsArgument() {
        assertThat(planErrors("""
                module "s" {
                  source = "./s"
                  count  = 2
                  size   = 11 + count.index
                }
                """))
                .containsExactly(
                        "main.tf:9,12-28: Invalid value for variable: The size must be below 10.\n\nThis was checked by "
                                + "the validation rule at s/main.tf:9,3-13.",
                        "main.tf:9,12-28: Invalid value for variable: The size must be below 10.\n\nThis was checked by "
                                + "the validation rule at s/main.tf:9,3-13.");
    }

    @Test
    void aDefaultIsCheckedAtTheVariable() {
        assertThat(planErrors("""
                module "s" { source = "./s" }
                """))
                .containsExactly("s/main.tf:6,1-16: Invalid value for variable: The size must be below 10."
                        + "\n\nThis was checked by the validation rule at s/main.tf:9,3-13.");
    }

    @Test
    void aRuleMayReferToAResourceOfTheModule() {
        assertThat(planErrors("""
                module "s" {
                  source = "./s"
                  size   = 7
                }
                """))
                .containsExactly("main.tf:8,12-13: Invalid value for variable: Not 7.\n\nThis was checked by "
                        + "the validation rule at s/main.tf:13,3-13.");
    }

    @Test
    void aResultThatIsNotABoolIsAnError() {
        assertThat(planErrors("""
                module "s" {
                  source = "./s"
                  size   = 3
                }
                """))
                .containsExactly("s/main.tf:18,21-51: Invalid variable validation result: Invalid validation "
                        + "condition result value: a bool is required.");
    }

    @Test
    void aValidInputPlans() {
        assertThat(planErrors("""
                module "s" {
                  source = "./s"
                  size   = 2
                }
                """)).isEmpty();
    }

    @Test
    void anInputKnownOnlyAfterApplyIsCheckedByTheApply() {
        var r = h.planAndApply(h.config("""
                resource "fake_thing" "src" { value = "12" }
                module "s" {
                  source = "./s"
                  size   = length(fake_thing.src.id) + 10
                }
                """));
        assertThat(EngineHarness.errors(r.diagnostics()))
                .extracting(Diagnostic::summary)
                .containsExactly("Invalid value for variable");
        // As Terraform: nothing that uses the rejected value is made; what does not use it is.
        assertThat(r.value().state().instanceAddresses().stream()
                        .map(Object::toString)
                        .toList())
                .containsExactlyInAnyOrder("fake_thing.src", "module.s.fake_thing.limit");
    }
}
