package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.util.List;

/**
 * The action planned for each instance against a prior state, and the lifecycle arguments that change
 * it: {@code create_before_destroy}, {@code prevent_destroy}, {@code ignore_changes},
 * {@code replace_triggered_by}, {@code -replace} and the destroy mode. A {@code fake_thing}'s
 * {@code zone} cannot change in place.
 */
final class ActionCases {
    private ActionCases() {}

    private static final String A = """
            resource "fake_thing" "a" {
              value = "x"
              zone  = "z1"
            }
            """;

    static List<PlanCase> cases() {
        return List.of(
                PlanCase.of("a new resource is created", null, A).changes("fake_thing.a create"),
                PlanCase.of("an unchanged resource is a no-op", A, A),
                PlanCase.of("a changed argument is updated in place", A, """
                        resource "fake_thing" "a" {
                          value = "y"
                          zone  = "z1"
                        }
                        """).changes("fake_thing.a update"),
                PlanCase.of("a change the provider cannot make in place replaces", A, """
                        resource "fake_thing" "a" {
                          value = "x"
                          zone  = "z2"
                        }
                        """)
                        .changes("fake_thing.a delete_then_create (replace_because_cannot_update)"),
                PlanCase.of(
                                "create_before_destroy creates the replacement first",
                                A,
                                Hcl.thingA("x", "z2", "create_before_destroy = true"))
                        .changes("fake_thing.a create_then_delete (replace_because_cannot_update)"),
                PlanCase.of("a resource removed from the configuration is deleted", A, """
                        resource "fake_thing" "b" { value = "x" }
                        """)
                        .changes("fake_thing.a delete (delete_because_no_resource_config)", "fake_thing.b create"),
                PlanCase.of("prevent_destroy refuses a replacement", A, Hcl.thingA("x", "z2", "prevent_destroy = true"))
                        .errors("Instance cannot be destroyed: Resource fake_thing.a has lifecycle.prevent_destroy "
                                + "set, but the plan calls for this resource to be destroyed. To avoid this error and "
                                + "continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of "
                                + "the plan using the -target option."),
                PlanCase.of("prevent_destroy allows an update", A, Hcl.thingA("y", "z1", "prevent_destroy = true"))
                        .changes("fake_thing.a update"),
                PlanCase.of("prevent_destroy refuses the destroy mode", """
                        resource "fake_thing" "a" {
                          value = "x"
                          lifecycle {
                            prevent_destroy = true
                          }
                        }
                        """, """
                        resource "fake_thing" "a" {
                          value = "x"
                          lifecycle {
                            prevent_destroy = true
                          }
                        }
                        """)
                        .mode(PlanMode.DESTROY)
                        .errors("Instance cannot be destroyed: Resource fake_thing.a has "
                                + "lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To "
                                + "avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or "
                                + "reduce the scope of the plan using the -target option."),
                PlanCase.of(
                        "ignore_changes keeps the prior value", A, Hcl.thingA("y", "z1", "ignore_changes = [value]")),
                PlanCase.of(
                                "ignore_changes of a replacing attribute avoids the replacement",
                                A,
                                Hcl.thingA("y", "z2", "ignore_changes = [zone]"))
                        .changes("fake_thing.a update"),
                PlanCase.of("ignore_changes = all", A, Hcl.thingA("y", "z2", "ignore_changes = all")),
                PlanCase.of("replace_triggered_by a changed resource", """
                        resource "fake_thing" "t" { value = "1" }
                        resource "fake_thing" "a" {
                          value = "x"
                          lifecycle {
                            replace_triggered_by = [fake_thing.t]
                          }
                        }
                        """, """
                        resource "fake_thing" "t" { value = "2" }
                        resource "fake_thing" "a" {
                          value = "x"
                          lifecycle {
                            replace_triggered_by = [fake_thing.t]
                          }
                        }
                        """)
                        .changes("fake_thing.a delete_then_create (replace_by_triggers)", "fake_thing.t update"),
                PlanCase.of("replace_triggered_by an unchanged resource", """
                        resource "fake_thing" "t" { value = "1" }
                        resource "fake_thing" "a" {
                          value = "x"
                          lifecycle {
                            replace_triggered_by = [fake_thing.t.value]
                          }
                        }
                        """, """
                        resource "fake_thing" "t" { value = "1" }
                        resource "fake_thing" "a" {
                          value = "y"
                          lifecycle {
                            replace_triggered_by = [fake_thing.t.value]
                          }
                        }
                        """)
                        .changes("fake_thing.a update"),
                PlanCase.of("-replace replaces an unchanged object", A, A)
                        .replace("fake_thing.a")
                        .changes("fake_thing.a delete_then_create (replace_by_request)"),
                PlanCase.of("-replace of one counted instance", """
                        resource "fake_thing" "a" {
                          count = 2
                        }
                        """, """
                        resource "fake_thing" "a" {
                          count = 2
                        }
                        """)
                        .replace("fake_thing.a[1]")
                        .changes("fake_thing.a[1] delete_then_create (replace_by_request)"),
                PlanCase.of("the destroy mode deletes everything", """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" { value = fake_thing.a.id }
                        module "m" { source = "./m" }
                        """, """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" { value = fake_thing.a.id }
                        module "m" { source = "./m" }
                        """)
                        .mode(PlanMode.DESTROY)
                        .changes("fake_thing.a delete", "fake_thing.b delete", "module.m.fake_thing.x delete"),
                PlanCase.of("a data source known at plan time is read, not planned", null, """
                        data "fake_info" "i" { value = "q" }
                        resource "fake_thing" "a" { value = data.fake_info.i.result }
                        """)
                        .changes("fake_thing.a create"),
                PlanCase.of("a data source waiting for a pending resource reads at apply", null, """
                        resource "fake_thing" "a" { value = "x" }
                        data "fake_info" "i" { value = fake_thing.a.id }
                        """)
                        .changes("data.fake_info.i read (read_because_config_unknown)", "fake_thing.a create"),
                PlanCase.of("a refresh-only plan changes nothing", A, """
                        resource "fake_thing" "a" {
                          value = "y"
                          zone  = "z2"
                        }
                        """).mode(PlanMode.REFRESH_ONLY));
    }
}
