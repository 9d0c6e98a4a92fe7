package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.util.List;

/**
 * Custom conditions while planning: resource preconditions and postconditions, output preconditions,
 * {@code check} blocks and variable validation; conditions that are unknown wait for the apply.
 */
final class ConditionCases {
    private ConditionCases() {}

    static List<PlanCase> cases() {
        return List.of(
                PlanCase.of("a precondition that holds", null, """
                        variable "v" { default = "ok" }
                        resource "fake_thing" "a" {
                          value = var.v
                          lifecycle {
                            precondition {
                              condition     = var.v == "ok"
                              error_message = "Not ok."
                            }
                          }
                        }
                        """).changes("fake_thing.a create"),
                PlanCase.of("a precondition that fails", null, """
                        variable "v" { default = "bad" }
                        resource "fake_thing" "a" {
                          value = var.v
                          lifecycle {
                            precondition {
                              condition     = var.v == "ok"
                              error_message = "The value must be ok, not ${var.v}."
                            }
                          }
                        }
                        """)
                        .errors("Resource precondition failed: The value must be ok, not bad."),
                PlanCase.of("a postcondition on a planned value that fails", null, """
                        resource "fake_thing" "a" {
                          value = "x"
                          lifecycle {
                            postcondition {
                              condition     = self.value == "y"
                              error_message = "The value must be y."
                            }
                          }
                        }
                        """)
                        .errors("Resource postcondition failed: The value must be y."),
                // As terraform 1.11: conditions are still checked in a refresh-only plan (postconditions against
                // the refreshed object and the data source read), and what fails is a warning.
                PlanCase.of("a refresh-only plan reports failed conditions as warnings", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        variable "v" { default = "bad" }
                        resource "fake_thing" "a" {
                          value = "x"
                          lifecycle {
                            precondition {
                              condition     = var.v == "ok"
                              error_message = "Not ok."
                            }
                            postcondition {
                              condition     = self.value == "y"
                              error_message = "The value must be y."
                            }
                          }
                        }
                        data "fake_info" "i" {
                          value = fake_thing.a.value
                          lifecycle {
                            postcondition {
                              condition     = self.result == "nope"
                              error_message = "Not nope."
                            }
                          }
                        }
                        """)
                        .mode(PlanMode.REFRESH_ONLY)
                        .warnings(
                                "Resource precondition failed",
                                "Resource postcondition failed",
                                "Resource postcondition failed"),
                PlanCase.of("a postcondition on an unknown value waits for the apply", null, """
                        resource "fake_thing" "a" {
                          value = "x"
                          lifecycle {
                            postcondition {
                              condition     = self.id != ""
                              error_message = "No id."
                            }
                          }
                        }
                        """)
                        .changes("fake_thing.a create"),
                PlanCase.of("a precondition on an unknown value waits for the apply", null, """
                        resource "fake_thing" "src" {}
                        resource "fake_thing" "a" {
                          lifecycle {
                            precondition {
                              condition     = fake_thing.src.id != ""
                              error_message = "No id."
                            }
                          }
                        }
                        """)
                        .changes("fake_thing.a create", "fake_thing.src create"),
                PlanCase.of("a condition that is not a bool", null, """
                        variable "v" { default = "maybe" }
                        resource "fake_thing" "a" {
                          lifecycle {
                            precondition {
                              condition     = var.v
                              error_message = "Never."
                            }
                          }
                        }
                        """)
                        .errors("Invalid condition result: Invalid condition result value: a bool is required."),
                PlanCase.of("a check assertion that is not a bool is an error", null, """
                        variable "s" { default = "maybe" }
                        check "c" {
                          assert {
                            condition     = var.s
                            error_message = "Never."
                          }
                        }
                        """)
                        .errors("Invalid condition result: Invalid condition result value: a bool is required."),
                PlanCase.of("a null condition", null, """
                        variable "v" { default = null }
                        resource "fake_thing" "a" {
                          lifecycle {
                            precondition {
                              condition     = var.v
                              error_message = "Never."
                            }
                          }
                        }
                        """)
                        .errors("Invalid condition result: Condition expression must return either true or "
                                + "false, not null."),
                PlanCase.of("an output precondition that fails", null, """
                        variable "f" { default = false }
                        output "o" {
                          value = "x"
                          precondition {
                            condition     = var.f
                            error_message = "The output is wrong."
                          }
                        }
                        """)
                        .errors("Module output value precondition failed: The output is wrong."),
                PlanCase.of("a failing check block is a warning", null, """
                        resource "fake_thing" "a" { value = "x" }
                        check "c" {
                          assert {
                            condition     = fake_thing.a.value == "y"
                            error_message = "Not y."
                          }
                        }
                        """)
                        .changes("fake_thing.a create")
                        .warnings("Check block assertion failed"),
                PlanCase.of("a module input that passes its validation", null, """
                        module "v" {
                          source = "./v"
                          size   = 2
                        }
                        output "half" { value = module.v.half }
                        """),
                PlanCase.of("a module input that fails its validation", null, """
                        module "v" {
                          source = "./v"
                          size   = 12
                        }
                        """)
                        .errors("Invalid value for variable: The size must be below 10.\n\nThis was checked by "
                                + "the validation rule at v/main.tf:3,3-13."),
                PlanCase.of("a module output precondition that fails", null, """
                        module "v" {
                          source = "./v"
                          size   = 4
                        }
                        """)
                        .errors("Module output value precondition failed: Four cannot be halved here."),
                PlanCase.of("a module input known only after apply is validated then", null, """
                        resource "fake_thing" "a" {}
                        module "v" {
                          source = "./v"
                          size   = fake_thing.a.serial
                        }
                        """)
                        .changes("fake_thing.a create"));
    }
}
