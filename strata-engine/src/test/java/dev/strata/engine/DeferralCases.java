package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.util.List;

/**
 * Expansion deferred to the apply: what an unknown {@code count}/{@code for_each} defers (the resource,
 * a whole module call), what it names as the reason, and what waits for it.
 */
final class DeferralCases {
    private DeferralCases() {}

    static List<PlanCase> cases() {
        return List.of(
                PlanCase.of("a count from an attribute known only after apply", null, """
                        resource "fake_thing" "src" {}
                        resource "fake_thing" "a" {
                          count = fake_thing.src.serial
                        }
                        """)
                        .changes("fake_thing.src create")
                        .deferred("fake_thing.a count [fake_thing.src.serial]"),
                PlanCase.of("a for_each over keys known only after apply", null, """
                        resource "fake_thing" "src" {}
                        resource "fake_thing" "a" {
                          for_each = toset(["${fake_thing.src.id}-1", "${fake_thing.src.id}-2"])
                        }
                        """)
                        .changes("fake_thing.src create")
                        .deferred("fake_thing.a for_each [fake_thing.src.id]"),
                PlanCase.of("a count known at plan time is not deferred by an unknown value", null, """
                        resource "fake_thing" "src" {}
                        resource "fake_thing" "a" {
                          count = 1
                          value = fake_thing.src.id
                        }
                        """)
                        .changes("fake_thing.a[0] create", "fake_thing.src create"),
                PlanCase.of("a module call with an unknown count", null, """
                        resource "fake_thing" "src" {}
                        module "m" {
                          source = "./m"
                          count  = fake_thing.src.serial
                        }
                        """)
                        .changes("fake_thing.src create")
                        .deferred("module.m.fake_thing.x count " + "[fake_thing.src.serial]"),
                PlanCase.of("a module call with an unknown for_each", null, """
                        resource "fake_thing" "src" {}
                        module "m" {
                          source   = "./m"
                          for_each = toset([fake_thing.src.id])
                        }
                        """)
                        .changes("fake_thing.src create")
                        .deferred("module.m.fake_thing.x for_each " + "[fake_thing.src.id]"),
                PlanCase.of("a resource using a deferred one is planned with unknowns", null, """
                        resource "fake_thing" "src" {}
                        resource "fake_thing" "a" {
                          count = fake_thing.src.serial
                        }
                        resource "fake_thing" "b" {
                          value = length(fake_thing.a)
                        }
                        """)
                        .changes("fake_thing.b create", "fake_thing.src create")
                        .deferred("fake_thing.a count [fake_thing.src.serial]"),
                PlanCase.of("a deferred resource with existing instances", """
                        resource "fake_thing" "src" {}
                        resource "fake_thing" "a" {
                          count = 1
                        }
                        """, """
                        resource "fake_thing" "src" { zone = "new" }
                        resource "fake_thing" "a" {
                          count = fake_thing.src.serial
                        }
                        """)
                        .changes("fake_thing.src delete_then_create (replace_because_cannot_update)")
                        .deferred("fake_thing.a count [fake_thing.src.serial]"),
                PlanCase.of("two deferred resources, each with its own reason", null, """
                        resource "fake_thing" "src" {}
                        resource "fake_thing" "a" {
                          count = fake_thing.src.serial
                        }
                        resource "fake_thing" "b" {
                          for_each = toset([fake_thing.src.id])
                        }
                        """)
                        .changes("fake_thing.src create")
                        .deferred(
                                "fake_thing.a count [fake_thing.src.serial]",
                                "fake_thing.b for_each [fake_thing.src.id]"));
    }
}
