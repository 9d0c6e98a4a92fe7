package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child module's input {@code validation} rules, checked for every instance of its call with
 * Terraform 1.11's diagnostics; rules may refer to the module's other objects (Terraform 1.9+), and so
 * may a root variable's, which the walk then checks once those objects are evaluated.
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

    private static final String ROOT_RULE_ON_A_LOCAL = """
            locals { forbidden = "bad" }
            variable "v" {
              type    = string
              default = "bad"
              validation {
                condition     = var.v != local.forbidden
                error_message = "Not ${local.forbidden}."
              }
            }
            resource "fake_thing" "free" { value = "x" }
            resource "fake_thing" "uses" { value = var.v }
            output "o" { value = var.v }
            """;

    @Test
    void aRootRuleThatRefersToALocalIsCheckedInTheWalk() {
        java.util.concurrent.atomic.AtomicReference<Plan> partial = new java.util.concurrent.atomic.AtomicReference<>();
        var p = h.plan(h.config(ROOT_RULE_ON_A_LOCAL), h.options(), new EngineEvents() {
            @Override
            public void planErrored(Plan plan) {
                partial.set(plan);
            }
        });
        assertThat(EngineHarness.errors(p.diagnostics()))
                .extracting(d -> d.subject() + ": " + d.summary() + ": " + d.detail())
                .containsExactly("main.tf:7,1-13: Invalid value for variable: Not bad.\n\nThis was checked by "
                        + "the validation rule at main.tf:10,3-13.");
        // As Terraform: what does not use the rejected value is planned; what uses it is not.
        assertThat(partial.get().changes()).extracting(c -> c.addr().toString()).containsExactly("fake_thing.free");
        assertThat(partial.get().outputs()).isEmpty();
    }

    @Test
    void aRootRuleThatRefersToALocalAcceptsAGoodValue() {
        h.variable("v", dev.strata.lang.value.Value.string("good"));
        var p = h.plan(h.config(ROOT_RULE_ON_A_LOCAL));
        assertThat(EngineHarness.errors(p.diagnostics())).isEmpty();
        assertThat(p.value().changes())
                .extracting(c -> c.addr().toString())
                .containsExactly("fake_thing.free", "fake_thing.uses");
    }

    @Test
    void aRootRuleOnAValueKnownOnlyAfterApplyIsCheckedByTheApply() {
        var r = h.planAndApply(h.config("""
                resource "fake_thing" "src" { value = "12" }
                variable "v" {
                  type    = string
                  default = "twelve characters"
                  validation {
                    condition     = length(fake_thing.src.id) > length(var.v)
                    error_message = "Not shorter than the source's id."
                  }
                }
                resource "fake_thing" "uses" { value = var.v }
                """));
        assertThat(EngineHarness.errors(r.diagnostics()))
                .extracting(Diagnostic::summary)
                .containsExactly("Invalid value for variable");
        assertThat(r.value().state().instanceAddresses().stream()
                        .map(Object::toString)
                        .toList())
                .containsExactly("fake_thing.src");
    }

    private static final String ROOT_RULE_ON_ITSELF = """
            variable "v" {
              type    = string
              default = "ab"
              validation {
                condition     = length(var.v) > 3
                error_message = "Too short."
              }
            }
            resource "fake_thing" "free" { value = "x" }
            resource "fake_thing" "uses" { value = var.v }
            """;

    private Plan partialPlan(PlanOptions options, java.util.List<String> errors) {
        java.util.concurrent.atomic.AtomicReference<Plan> partial = new java.util.concurrent.atomic.AtomicReference<>();
        var p = h.plan(h.config(ROOT_RULE_ON_ITSELF), options, new EngineEvents() {
            @Override
            public void planErrored(Plan plan) {
                partial.set(plan);
            }
        });
        EngineHarness.errors(p.diagnostics()).forEach(d -> errors.add(d.subject() + ": " + d.summary()));
        return partial.get();
    }

    /**
     * A rule on the variable alone is checked in the walk too, at the value's file line when it came from one,
     * and a value that did not convert fails at its vertex: either way only what uses it waits.
     */
    @Test
    void aRootVariableIsCheckedInTheWalkWhereItsValueWasSet() {
        var file = new dev.strata.hcl.SourceRange(
                "terraform.tfvars", new dev.strata.hcl.SourcePos(1, 5, 4), new dev.strata.hcl.SourcePos(1, 9, 8));
        var errors = new java.util.ArrayList<String>();
        Plan partial = partialPlan(
                h.options()
                        .withVariables(new dev.strata.config.VariableOrigins(
                                new java.util.TreeMap<>(Map.of("v", file)), new java.util.TreeMap<>())),
                errors);
        assertThat(errors).containsExactly("terraform.tfvars:1,5-9: Invalid value for variable");
        assertThat(partial.changes()).extracting(c -> c.addr().toString()).containsExactly("fake_thing.free");

        errors.clear();
        h.variable("v", dev.strata.lang.value.Value.unknown(dev.strata.lang.types.Type.STRING));
        var problem = dev.strata.hcl.Diagnostic.error("Invalid value for input variable", "not a string", file);
        partial = partialPlan(
                h.options()
                        .withVariables(new dev.strata.config.VariableOrigins(
                                new java.util.TreeMap<>(),
                                new java.util.TreeMap<>(Map.of("v", dev.strata.hcl.Diagnostics.of(problem))))),
                errors);
        assertThat(errors).containsExactly("terraform.tfvars:1,5-9: Invalid value for input variable");
        assertThat(partial.changes()).extracting(c -> c.addr().toString()).containsExactly("fake_thing.free");
    }

    /**
     * As Terraform: a destroy plan does not look at the root variables unless it refreshes a state that has
     * objects, and then stops without a partial plan.
     */
    @Test
    void aDestroyPlanChecksRootVariablesOnlyWhenItRefreshesObjects() {
        var errors = new java.util.ArrayList<String>();
        PlanOptions destroy = h.options(PlanMode.DESTROY, java.util.List.of(), java.util.List.of());
        assertThat(partialPlan(destroy, errors)).isNull();
        assertThat(errors).isEmpty();

        h.variable("v", dev.strata.lang.value.Value.string("long enough"));
        assertThat(h.planAndApply(h.config(ROOT_RULE_ON_ITSELF)).diagnostics().hasErrors())
                .isFalse();
        h.variable("v", dev.strata.lang.value.Value.string("ab"));
        assertThat(partialPlan(destroy, errors)).isNull();
        assertThat(errors).containsExactly("main.tf:6,1-13: Invalid value for variable");

        errors.clear();
        PlanOptions noRefresh = new PlanOptions(
                destroy.workingDir(),
                destroy.startDir(),
                "default",
                PlanMode.DESTROY,
                false,
                java.util.List.of(),
                java.util.List.of(),
                java.util.List.of(),
                10);
        var p = h.plan(h.config(ROOT_RULE_ON_ITSELF), noRefresh);
        assertThat(EngineHarness.errors(p.diagnostics())).isEmpty();
        assertThat(p.value().changes()).hasSize(2);
    }
}
