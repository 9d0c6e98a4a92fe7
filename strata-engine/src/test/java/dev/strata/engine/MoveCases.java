package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.util.List;

/**
 * {@code moved}, {@code removed} and {@code import} blocks: where state objects go, and the
 * diagnostics of moves that cannot be followed.
 */
final class MoveCases {
    private MoveCases() {}

    /** Terraform's error for statements that form a cycle, each listed as {@code file:line,col: from → to}. */
    private static String cycle(String... statements) {
        return "Cyclic dependency in move statements: The following chained move statements form a cycle, and so "
                + "there is no final location to move objects to:\n" + "  - " + String.join("\n  - ", statements)
                + "\n\nA chain of move statements must end with an address that doesn't appear in any other "
                + "statements, and which typically also refers to an object still declared in the configuration.";
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
                        """)
                        .changes("fake_thing.a[0] no_op from fake_thing.a"),
                PlanCase.of("count removed moves index zero back to the single resource", """
                        resource "fake_thing" "a" {
                          count = 1
                          value = "x"
                        }
                        """, """
                        resource "fake_thing" "a" { value = "x" }
                        """)
                        .changes("fake_thing.a no_op from fake_thing.a[0]"),
                PlanCase.of(
                                "no implied move for a resource a moved block names",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                                """
                        resource "fake_thing" "a" {
                          count = 1
                          value = "x"
                        }
                        """ + Hcl.moved("fake_thing.z", "fake_thing.a[1]"))
                        .changes("fake_thing.a delete (delete_because_wrong_repetition)", "fake_thing.a[0] create"),
                PlanCase.of(
                                "no implied move when a moved block takes index zero elsewhere",
                                """
                        resource "fake_thing" "a" {
                          count = 1
                          value = "x"
                        }
                        """,
                                """
                        resource "fake_thing" "a" { value = "x" }
                        """ + Hcl.moved("fake_thing.a[0]", "fake_thing.b"))
                        .changes("fake_thing.a create", "fake_thing.b delete (delete_because_no_resource_config)"),
                PlanCase.of("a renamed module call", """
                        module "a" { source = "./m" }
                        """, """
                        module "b" { source = "./m" }
                        """ + Hcl.moved("module.a", "module.b"))
                        .changes("module.b.fake_thing.x no_op from module.a.fake_thing.x"),
                PlanCase.of(
                                "a resource moved into a module",
                                """
                        resource "fake_thing" "x" { value = "m" }
                        """,
                                """
                        module "m" { source = "./m" }
                        """ + Hcl.moved("fake_thing.x", "module.m.fake_thing.x"))
                        .changes("module.m.fake_thing.x no_op from fake_thing.x"),
                PlanCase.of(
                                "a chain of moves",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                                """
                        resource "fake_thing" "c" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b")
                                        + Hcl.moved("fake_thing.b", "fake_thing.c"))
                        .changes("fake_thing.c no_op from fake_thing.a"),
                PlanCase.of(
                                "a chain of moves declared from its end",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                                """
                        resource "fake_thing" "c" { value = "x" }
                        """ + Hcl.moved("fake_thing.b", "fake_thing.c")
                                        + Hcl.moved("fake_thing.a", "fake_thing.b"))
                        .changes("fake_thing.c no_op from fake_thing.a"),
                PlanCase.of(
                                "a chain whose end is taken by a later link",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" { value = "y" }
                        """,
                                """
                        resource "fake_thing" "c" { value = "y" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b")
                                        + Hcl.moved("fake_thing.b", "fake_thing.c"))
                        .changes(
                                "fake_thing.a delete (delete_because_no_resource_config)",
                                "fake_thing.c no_op from fake_thing.b")
                        .warnings("Unresolved resource instance address changes"),
                PlanCase.of("a move from nothing is ignored", null, """
                        resource "fake_thing" "b" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b"))
                        .changes("fake_thing.b create"),
                PlanCase.of(
                                "a cycle of moves",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                                """
                        resource "fake_thing" "c" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b")
                                        + Hcl.moved("fake_thing.b", "fake_thing.a"))
                        .errors(cycle(
                                "main.tf:7,1: fake_thing.a[*] → fake_thing.b[*]",
                                "main.tf:11,1: fake_thing.b[*] → fake_thing.a[*]")),
                PlanCase.of(
                                "two moves to one address",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" { value = "x" }
                        """,
                                """
                        resource "fake_thing" "c" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.c")
                                        + Hcl.moved("fake_thing.b", "fake_thing.c"))
                        .errors("Ambiguous move statements: A statement at main.tf:7,1 declared that fake_thing.a "
                                + "moved to fake_thing.c, but this statement instead declares that fake_thing.b moved "
                                + "there.\n\nEach resource can have moved from only one source resource."),
                PlanCase.of(
                                "a move from an address still declared",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                                """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b"))
                        .errors("Moved object still exists: This statement declares a move from fake_thing.a, but "
                                + "that resource is still declared at main.tf:6,1.\n\nChange your configuration so that "
                                + "this resource will be declared as fake_thing.b instead."),
                PlanCase.of(
                                "a cycle of module moves",
                                null,
                                """
                        module "c" { source = "./m" }
                        """ + Hcl.moved("module.a", "module.b") + Hcl.moved("module.b", "module.a"))
                        .errors(cycle(
                                "main.tf:7,1: module.a[*] → module.b[*]", "main.tf:11,1: module.b[*] → module.a[*]")),
                PlanCase.of(
                                "two moves from one address",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                                """
                        resource "fake_thing" "c" { value = "x" }
                        resource "fake_thing" "d" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.c")
                                        + Hcl.moved("fake_thing.a", "fake_thing.d"))
                        .errors("Ambiguous move statements: A statement at main.tf:8,1 declared that fake_thing.a "
                                + "moved to fake_thing.c, but this statement instead declares that it moved to "
                                + "fake_thing.d.\n\nEach resource can move to only one destination resource."),
                PlanCase.of(
                                "two instance moves to one address",
                                null,
                                """
                        resource "fake_thing" "c" {
                          count = 1
                          value = "x"
                        }
                        """ + Hcl.moved("fake_thing.a[1]", "fake_thing.c[0]")
                                        + Hcl.moved("fake_thing.a[2]", "fake_thing.c[0]"))
                        .errors("Ambiguous move statements: A statement at main.tf:10,1 declared that "
                                + "fake_thing.a[1] moved to fake_thing.c[0], but this statement instead declares that "
                                + "fake_thing.a[2] moved there.\n\nEach resource instance can have moved from only one "
                                + "source instance."),
                PlanCase.of(
                                "two module moves to one call",
                                null,
                                """
                        module "c" { source = "./m" }
                        """ + Hcl.moved("module.x", "module.c") + Hcl.moved("module.y", "module.c"))
                        .errors("Ambiguous move statements: A statement at main.tf:7,1 declared that module.x "
                                + "moved to module.c, but this statement instead declares that module.y moved there.\n\n"
                                + "Each module call can have moved from only one source call."),
                PlanCase.of("a move from a module call still declared", null, """
                        module "a" { source = "./m" }
                        module "b" { source = "./m" }
                        """ + Hcl.moved("module.a", "module.b"))
                        .errors("Moved object still exists: This statement declares a move from module.a, but that "
                                + "module call is still declared at main.tf:6,1.\n\nChange your configuration so that "
                                + "this call will be declared as module.b instead."),
                PlanCase.of(
                                "a resource moved to its own index zero is not still declared",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                                """
                        resource "fake_thing" "a" {
                          count = 1
                          value = "x"
                        }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.a[0]"))
                        .changes("fake_thing.a[0] no_op from fake_thing.a"),
                PlanCase.of(
                                "a move onto an object that still exists",
                                """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" { value = "x" }
                        """,
                                """
                        resource "fake_thing" "b" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b"))
                        .changes("fake_thing.a delete (delete_because_no_resource_config)")
                        .warnings("Unresolved resource instance address changes"),
                PlanCase.of("removed without destroying forgets the object", """
                        resource "fake_thing" "a" { value = "x" }
                        """, Hcl.removed("fake_thing.a", false))
                        .changes("fake_thing.a forget (delete_because_no_resource_config)")
                        .warnings("Some objects will no longer be managed by Strata"),
                PlanCase.of("removed with destroy deletes the object", """
                        resource "fake_thing" "a" { value = "x" }
                        """, Hcl.removed("fake_thing.a", true))
                        .changes("fake_thing.a delete (delete_because_no_resource_config)"),
                PlanCase.of("removed of a whole module", """
                        module "m" { source = "./m" }
                        """, Hcl.removed("module.m", false))
                        .changes("module.m.fake_thing.x forget (delete_because_no_resource_config)")
                        .warnings("Some objects will no longer be managed by Strata"),
                PlanCase.of(
                                "an import block adopts an object that matches the configuration",
                                null,
                                """
                        resource "fake_thing" "a" { value = "imported" }
                        """ + Hcl.importBlock("fake_thing.a", "i-1"))
                        .changes("fake_thing.a no_op import i-1"),
                PlanCase.of(
                                "an import block with a differing configuration updates the object",
                                null,
                                """
                        resource "fake_thing" "a" { value = "mine" }
                        """ + Hcl.importBlock("fake_thing.a", "i-1"))
                        .changes("fake_thing.a update import i-1"),
                PlanCase.of(
                        "an import block for an object already managed does nothing",
                        """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                        """
                        resource "fake_thing" "a" { value = "x" }
                        """ + Hcl.importBlock("fake_thing.a", "i-1")),
                PlanCase.of("an import block with for_each imports each element", null, """
                        resource "fake_thing" "a" {
                          for_each = toset(["k"])
                          value    = "imported"
                        }
                        import {
                          for_each = toset(["k"])
                          to       = fake_thing.a[each.key]
                          id       = each.key
                        }
                        """)
                        .changes("fake_thing.a[\"k\"] no_op import k"));
    }
}
