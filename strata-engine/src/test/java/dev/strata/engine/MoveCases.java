package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.util.List;

/**
 * {@code moved}, {@code removed} and {@code import} blocks: where state objects go, and the
 * diagnostics of moves that cannot be followed.
 */
final class MoveCases {
    private MoveCases() {
    }

    static List<PlanCase> cases() {
        return List.of(
                PlanCase.of("a renamed resource", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        resource "fake_thing" "b" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b"))
                        .changes("fake_thing.b no_op from fake_thing.a"),
                PlanCase.of("a renamed and changed resource", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        resource "fake_thing" "b" { value = "y" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b"))
                        .changes("fake_thing.b update from fake_thing.a"),
                PlanCase.of("an instance key moved", """
                        resource "fake_thing" "a" {
                          count = 1
                          value = "x"
                        }
                        """, """
                        resource "fake_thing" "a" {
                          for_each = toset(["k"])
                          value    = "x"
                        }
                        """ + Hcl.moved("fake_thing.a[0]", "fake_thing.a[\"k\"]"))
                        .changes("fake_thing.a[\"k\"] no_op from fake_thing.a[0]"),
                PlanCase.of("count added to a single resource moves it to index zero", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        resource "fake_thing" "a" {
                          count = 1
                          value = "x"
                        }
                        """).changes("fake_thing.a[0] no_op from fake_thing.a")
                        .bug("no implied move when count is added: Strata plans fake_thing.a delete "
                                + "(delete_because_wrong_repetition) and fake_thing.a[0] create; terraform 1.11 moves "
                                + "the object to fake_thing.a[0]"),
                PlanCase.of("a renamed module call", """
                        module "a" { source = "./m" }
                        """, """
                        module "b" { source = "./m" }
                        """ + Hcl.moved("module.a", "module.b"))
                        .changes("module.b.fake_thing.x no_op from module.a.fake_thing.x"),
                PlanCase.of("a resource moved into a module", """
                        resource "fake_thing" "x" { value = "m" }
                        """, """
                        module "m" { source = "./m" }
                        """ + Hcl.moved("fake_thing.x", "module.m.fake_thing.x"))
                        .changes("module.m.fake_thing.x no_op from fake_thing.x"),
                PlanCase.of("a chain of moves", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        resource "fake_thing" "c" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b") + Hcl.moved("fake_thing.b", "fake_thing.c"))
                        .changes("fake_thing.c no_op from fake_thing.a")
                        .bug("a chain of moves records the last hop (from fake_thing.b), not the object's address "
                                + "in the prior state (fake_thing.a), as terraform 1.11 does"),
                PlanCase.of("a move from nothing is ignored", null, """
                        resource "fake_thing" "b" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b")).changes("fake_thing.b create"),
                PlanCase.of("a cycle of moves", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        resource "fake_thing" "c" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b") + Hcl.moved("fake_thing.b", "fake_thing.a"))
                        .errors("Cyclic dependency in move statements: The following chained move statements "
                        + "form a cycle, and so there is no final location to move objects to:\n"
                        + "  - main.tf:7,1: fake_thing.a[*] → fake_thing.b[*]\n"
                        + "  - main.tf:11,1: fake_thing.b[*] → fake_thing.a[*]\n\n"
                        + "A chain of move statements must end with an address that doesn't appear in any other "
                        + "statements, and which typically also refers to an object still declared in the "
                        + "configuration.")
                        .bug("move cycles are not detected: the two statements undo each other silently"),
                PlanCase.of("two moves to one address", """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" { value = "x" }
                        """, """
                        resource "fake_thing" "c" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.c") + Hcl.moved("fake_thing.b", "fake_thing.c"))
                        .errors("Ambiguous move statements: A statement at main.tf:7,1 declared that fake_thing.a "
                        + "moved to fake_thing.c, but this statement instead declares that fake_thing.b moved "
                        + "there.\n\nEach resource can have moved from only one source resource.")
                        .bug("two moves to one address are not reported: the second is skipped silently"),
                PlanCase.of("a move from an address still declared", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b"))
                        .errors("Moved object still exists: This statement declares a move from fake_thing.a, but "
                        + "that resource is still declared at main.tf:6,1.\n\nChange your configuration so that "
                        + "this resource will be declared as fake_thing.b instead.")
                        .bug("a move whose source is still declared is not reported: the plan succeeds without "
                                + "terraform's error"),
                PlanCase.of("a move onto an object that still exists", """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" { value = "x" }
                        """, """
                        resource "fake_thing" "b" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b"))
                        .changes("fake_thing.a delete (delete_because_no_resource_config)")
                        .warnings("Unresolved resource instance address changes")
                        .bug("a move blocked by an existing object is skipped without terraform's warning"),
                PlanCase.of("removed without destroying forgets the object", """
                        resource "fake_thing" "a" { value = "x" }
                        """, Hcl.removed("fake_thing.a", false))
                        .changes("fake_thing.a forget (delete_because_no_resource_config)"),
                PlanCase.of("removed with destroy deletes the object", """
                        resource "fake_thing" "a" { value = "x" }
                        """, Hcl.removed("fake_thing.a", true))
                        .changes("fake_thing.a delete (delete_because_no_resource_config)"),
                PlanCase.of("removed of a whole module", """
                        module "m" { source = "./m" }
                        """, Hcl.removed("module.m", false))
                        .changes("module.m.fake_thing.x forget (delete_because_no_resource_config)"),
                PlanCase.of("an import block adopts an object that matches the configuration", null, """
                        resource "fake_thing" "a" { value = "imported" }
                        """ + Hcl.importBlock("fake_thing.a", "i-1")).changes("fake_thing.a no_op import i-1"),
                PlanCase.of("an import block with a differing configuration updates the object", null, """
                        resource "fake_thing" "a" { value = "mine" }
                        """ + Hcl.importBlock("fake_thing.a", "i-1")).changes("fake_thing.a update import i-1"),
                PlanCase.of("an import block for an object already managed does nothing", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        resource "fake_thing" "a" { value = "x" }
                        """ + Hcl.importBlock("fake_thing.a", "i-1")),
                PlanCase.of("an import block with for_each is skipped with a warning", null, """
                        resource "fake_thing" "a" {
                          for_each = toset(["k"])
                          value    = "imported"
                        }
                        import {
                          for_each = toset(["k"])
                          to       = fake_thing.a[each.key]
                          id       = each.key
                        }
                        """).changes("fake_thing.a[\"k\"] create")
                        .warnings("import blocks with for_each are not supported yet"));
    }
}
