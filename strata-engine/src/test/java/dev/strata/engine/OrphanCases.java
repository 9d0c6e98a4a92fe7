package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.util.List;

/** Objects in state that the configuration no longer has, and the reason each delete gives (Terraform's). */
final class OrphanCases {
    private OrphanCases() {}

    static List<PlanCase> cases() {
        return List.of(
                PlanCase.of("a shrinking count deletes the highest indexes", """
                        resource "fake_thing" "a" {
                          count = 3
                        }
                        """, """
                        resource "fake_thing" "a" {
                          count = 1
                        }
                        """)
                        .changes(
                                "fake_thing.a[1] delete (delete_because_count_index)",
                                "fake_thing.a[2] delete (delete_because_count_index)"),
                PlanCase.of("a count of zero deletes every instance", """
                        resource "fake_thing" "a" {
                          count = 2
                        }
                        """, """
                        resource "fake_thing" "a" {
                          count = 0
                        }
                        """)
                        .changes(
                                "fake_thing.a[0] delete (delete_because_count_index)",
                                "fake_thing.a[1] delete (delete_because_count_index)"),
                PlanCase.of("a for_each key removed", """
                        resource "fake_thing" "a" {
                          for_each = toset(["a", "b", "c"])
                        }
                        """, """
                        resource "fake_thing" "a" {
                          for_each = toset(["a", "c"])
                        }
                        """)
                        .changes("fake_thing.a[\"b\"] delete (delete_because_each_key)"),
                PlanCase.of("count replaced by for_each", """
                        resource "fake_thing" "a" {
                          count = 1
                        }
                        """, """
                        resource "fake_thing" "a" {
                          for_each = toset(["k"])
                        }
                        """)
                        .changes(
                                "fake_thing.a[0] delete (delete_because_wrong_repetition)",
                                "fake_thing.a[\"k\"] create"),
                PlanCase.of("the whole resource removed", """
                        resource "fake_thing" "a" {
                          count = 2
                        }
                        resource "fake_thing" "keep" {}
                        """, """
                        resource "fake_thing" "keep" {}
                        """)
                        .changes(
                                "fake_thing.a[0] delete (delete_because_no_resource_config)",
                                "fake_thing.a[1] delete (delete_because_no_resource_config)"),
                PlanCase.of("a module call removed", """
                        module "m" { source = "./m" }
                        """, """
                        resource "fake_thing" "keep" {}
                        """)
                        .changes("fake_thing.keep create", "module.m.fake_thing.x delete (delete_because_no_module)"),
                PlanCase.of("a module count shrinking", """
                        module "m" {
                          source = "./m"
                          count  = 2
                        }
                        """, """
                        module "m" {
                          source = "./m"
                          count  = 1
                        }
                        """)
                        .changes("module.m[1].fake_thing.x delete (delete_because_no_module)"),
                PlanCase.of("a module for_each key removed", """
                        module "m" {
                          source   = "./m"
                          for_each = toset(["p", "q"])
                        }
                        """, """
                        module "m" {
                          source   = "./m"
                          for_each = toset(["q"])
                        }
                        """)
                        .changes("module.m[\"p\"].fake_thing.x delete (delete_because_no_module)"),
                PlanCase.of("an orphan outside the targets is left alone", """
                        resource "fake_thing" "a" {}
                        resource "fake_thing" "b" {}
                        """, """
                        resource "fake_thing" "c" {}
                        """)
                        .targets("fake_thing.b")
                        .changes("fake_thing.b delete (delete_because_no_resource_config)"));
    }
}
