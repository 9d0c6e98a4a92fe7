package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.util.List;

/**
 * {@code count} and {@code for_each}: the instances a known value expands to, the deferral of an
 * unknown one, and the diagnostics of a null or unsuitable one (texts as terraform 1.11 prints them,
 * except where Strata defers what Terraform refuses).
 */
final class ExpansionCases {
    private ExpansionCases() {}

    static List<PlanCase> cases() {
        return List.of(
                PlanCase.of("count expands to indexed instances", null, """
                        resource "fake_thing" "a" {
                          count = 2
                          value = "v${count.index}"
                        }
                        """)
                        .changes("fake_thing.a[0] create", "fake_thing.a[1] create"),
                PlanCase.of("count of zero plans nothing", null, """
                        resource "fake_thing" "a" {
                          count = 0
                        }
                        """),
                PlanCase.of("count from a variable default", null, """
                        variable "n" { default = 3 }
                        resource "fake_thing" "a" { count = var.n }
                        """)
                        .changes("fake_thing.a[0] create", "fake_thing.a[1] create", "fake_thing.a[2] create"),
                PlanCase.of("for_each over a set orders keys", null, """
                        resource "fake_thing" "a" {
                          for_each = toset(["b", "a", "c"])
                          value    = each.key
                        }
                        """)
                        .changes(
                                "fake_thing.a[\"a\"] create",
                                "fake_thing.a[\"b\"] create",
                                "fake_thing.a[\"c\"] create"),
                PlanCase.of("for_each over a map", null, """
                        resource "fake_thing" "a" {
                          for_each = { x = "1", y = "2" }
                          value    = each.value
                        }
                        """)
                        .changes("fake_thing.a[\"x\"] create", "fake_thing.a[\"y\"] create"),
                PlanCase.of("for_each over an empty map plans nothing", null, """
                        resource "fake_thing" "a" {
                          for_each = {}
                        }
                        """),
                PlanCase.of("count over modules expands their resources", null, """
                        module "m" {
                          source = "./m"
                          count  = 2
                        }
                        """)
                        .changes("module.m[0].fake_thing.x create", "module.m[1].fake_thing.x create"),
                PlanCase.of("for_each over modules", null, """
                        module "m" {
                          source   = "./m"
                          for_each = toset(["p", "q"])
                        }
                        """)
                        .changes("module.m[\"p\"].fake_thing.x create", "module.m[\"q\"].fake_thing.x create"),
                PlanCase.of("a known count from another resource's known attribute", null, """
                        resource "fake_thing" "src" { value = "abc" }
                        resource "fake_thing" "a" { count = length(fake_thing.src.value) }
                        """)
                        .changes(
                                "fake_thing.a[0] create",
                                "fake_thing.a[1] create",
                                "fake_thing.a[2] create",
                                "fake_thing.src create"),
                PlanCase.of("a null count", null, """
                        resource "fake_thing" "a" {
                          count = null
                        }
                        """)
                        .errors("Invalid count argument: The given \"count\" argument value is null. An integer "
                                + "is required."),
                PlanCase.of("a negative count", null, """
                        resource "fake_thing" "a" {
                          count = -1
                        }
                        """)
                        .errors("Invalid count argument: The given \"count\" argument value is unsuitable: must "
                                + "be greater than or equal to zero."),
                PlanCase.of("a fractional count", null, """
                        resource "fake_thing" "a" {
                          count = 1.5
                        }
                        """)
                        .errors("Invalid count argument: The given \"count\" argument value is unsuitable: value "
                                + "must be a whole number, between -9223372036854775808 and 9223372036854775807."),
                PlanCase.of("a string count", null, """
                        resource "fake_thing" "a" {
                          count = "x"
                        }
                        """)
                        .errors("Incorrect value type: Invalid expression value: a number is required."),
                PlanCase.of("a null for_each", null, """
                        resource "fake_thing" "a" {
                          for_each = null
                        }
                        """)
                        .errors(
                                "Invalid for_each argument: The given \"for_each\" argument value is unsuitable: "
                                        + "the given \"for_each\" argument value is null. A map, or set of strings is allowed."),
                PlanCase.of("a list for_each", null, """
                        resource "fake_thing" "a" {
                          for_each = ["a"]
                        }
                        """)
                        .errors("Invalid for_each argument: The given \"for_each\" argument value is unsuitable: "
                                + "the \"for_each\" argument must be a map, or set of strings, and you have provided a value "
                                + "of type tuple."),
                PlanCase.of("a set with a null element", null, """
                        resource "fake_thing" "a" {
                          for_each = toset(["a", null])
                        }
                        """)
                        .errors("Invalid for_each set argument: The given \"for_each\" argument value is "
                                + "unsuitable: \"for_each\" sets must not contain null values."),
                PlanCase.of("an unknown count is deferred", null, """
                        resource "fake_thing" "src" { value = "x" }
                        resource "fake_thing" "a" { count = length(fake_thing.src.id) }
                        """)
                        .changes("fake_thing.src create")
                        .deferred("fake_thing.a count [fake_thing.src.id]"),
                PlanCase.of("an unknown for_each is deferred", null, """
                        resource "fake_thing" "src" { value = "x" }
                        resource "fake_thing" "a" { for_each = toset([fake_thing.src.id]) }
                        """)
                        .changes("fake_thing.src create")
                        .deferred("fake_thing.a for_each [fake_thing.src.id]"),
                PlanCase.of("a count growing from state creates only the new instances", """
                        resource "fake_thing" "a" {
                          count = 1
                          value = "v"
                        }
                        """, """
                        resource "fake_thing" "a" {
                          count = 3
                          value = "v"
                        }
                        """)
                        .changes("fake_thing.a[1] create", "fake_thing.a[2] create"),
                PlanCase.of("a for_each key added beside existing ones", """
                        resource "fake_thing" "a" {
                          for_each = toset(["a"])
                          value    = each.key
                        }
                        """, """
                        resource "fake_thing" "a" {
                          for_each = toset(["a", "b"])
                          value    = each.key
                        }
                        """)
                        .changes("fake_thing.a[\"b\"] create"));
    }
}
