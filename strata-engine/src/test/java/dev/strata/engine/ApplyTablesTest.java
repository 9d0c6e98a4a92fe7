package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.engine.EngineHarness.ApplyCase;
import dev.strata.hcl.Result;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What an apply does, in which order, and what it leaves in state: dependency order for creates and
 * deletes, the two replacement orders, the destroy mode, state-only changes (moved, removed, import),
 * expansion deferred to the apply, and conditions that could only be checked once values were known.
 */
class ApplyTablesTest {
    @TempDir
    Path dir;

    private static final String CHAIN = """
            resource "fake_thing" "a" { value = "a" }
            resource "fake_thing" "b" { value = "b-${fake_thing.a.id}" }
            """;

    static List<ApplyCase> cases() {
        return List.of(
                ApplyCase.of(
                                "what depends on an object is created after it",
                                null,
                                CHAIN,
                                2,
                                "2 0 0",
                                "fake_thing.a",
                                "fake_thing.b")
                        .order("- -> a", "- -> b-thing-1"),
                ApplyCase.of(
                        "an unchanged configuration applies nothing",
                        CHAIN,
                        CHAIN,
                        0,
                        "0 0 0",
                        "fake_thing.a",
                        "fake_thing.b"),
                ApplyCase.of("an update in place", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        resource "fake_thing" "a" { value = "y" }
                        """, 1, "0 1 0", "fake_thing.a")
                        .order("x -> y"),
                ApplyCase.of("a replacement destroys first by default", """
                        resource "fake_thing" "a" {
                          value = "x"
                          zone  = "z1"
                        }
                        """, """
                        resource "fake_thing" "a" {
                          value = "x"
                          zone  = "z2"
                        }
                        """, 2, "1 0 1", "fake_thing.a")
                        .order("x -> -", "- -> x"),
                ApplyCase.of(
                                "create_before_destroy creates the replacement first",
                                Hcl.thingA("x", "z1", "create_before_destroy = true"),
                                Hcl.thingA("x", "z2", "create_before_destroy = true"),
                                2,
                                "1 0 1",
                                "fake_thing.a")
                        .order("- -> x", "x -> -"),
                ApplyCase.of("destroy deletes dependents first", CHAIN, CHAIN, 2, "0 0 2")
                        .mode(PlanMode.DESTROY)
                        .order("b-thing-1 -> -", "a -> -"),
                ApplyCase.of("a removed resource is deleted", CHAIN, """
                        resource "fake_thing" "a" { value = "a" }
                        """, 1, "0 0 1", "fake_thing.a")
                        .order("b-thing-1 -> -"),
                ApplyCase.of("a shrinking count deletes the last instances", """
                        resource "fake_thing" "a" {
                          count = 3
                          value = "v${count.index}"
                        }
                        """, """
                        resource "fake_thing" "a" {
                          count = 1
                          value = "v${count.index}"
                        }
                        """, 2, "0 0 2", "fake_thing.a[0]"),
                ApplyCase.of(
                        "a move changes only the state",
                        """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                        """
                        resource "fake_thing" "b" { value = "x" }
                        """ + Hcl.moved("fake_thing.a", "fake_thing.b"),
                        0,
                        "0 0 0",
                        "fake_thing.b"),
                ApplyCase.of(
                        "a module call moved",
                        """
                        module "a" { source = "./m" }
                        """,
                        """
                        module "b" { source = "./m" }
                        """ + Hcl.moved("module.a", "module.b"),
                        0,
                        "0 0 0",
                        "module.b.fake_thing.x"),
                ApplyCase.of(
                        "removed without destroying forgets the object",
                        """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "keep" { value = "k" }
                        """,
                        """
                        resource "fake_thing" "keep" { value = "k" }
                        """ + Hcl.removed("fake_thing.a", false),
                        0,
                        "0 0 0",
                        "fake_thing.keep"),
                ApplyCase.of(
                        "an import block adopts the object without creating it",
                        null,
                        """
                        resource "fake_thing" "a" { value = "imported" }
                        """ + Hcl.importBlock("fake_thing.a", "i-1"),
                        0,
                        "0 0 0",
                        "fake_thing.a"),
                ApplyCase.of(
                                "an imported object that differs is updated",
                                null,
                                """
                        resource "fake_thing" "a" { value = "mine" }
                        """ + Hcl.importBlock("fake_thing.a", "i-1"),
                                1,
                                "0 1 0",
                                "fake_thing.a")
                        .order("imported -> mine"),
                ApplyCase.of(
                                "a deferred count expands once its value is known",
                                null,
                                """
                        resource "fake_thing" "src" { value = "s" }
                        resource "fake_thing" "a" {
                          count = fake_thing.src.serial
                          value = "a${count.index}"
                        }
                        """,
                                8,
                                "8 0 0",
                                "fake_thing.a[0]",
                                "fake_thing.a[1]",
                                "fake_thing.a[2]",
                                "fake_thing.a[3]",
                                "fake_thing.a[4]",
                                "fake_thing.a[5]",
                                "fake_thing.a[6]",
                                "fake_thing.src")
                        .order("- -> s", "- -> a6"),
                ApplyCase.of(
                                "a deferred for_each expands once its keys are known",
                                null,
                                """
                        resource "fake_thing" "src" { value = "s" }
                        resource "fake_thing" "a" {
                          for_each = toset([fake_thing.src.id, "fixed"])
                          value    = each.key
                        }
                        """,
                                3,
                                "3 0 0",
                                "fake_thing.a[\"fixed\"]",
                                "fake_thing.a[\"thing-1\"]",
                                "fake_thing.src")
                        .order("- -> s", "- -> thing-1"),
                ApplyCase.of(
                                "a deferred module call expands during the apply",
                                null,
                                """
                        resource "fake_thing" "src" { value = "s" }
                        module "m" {
                          source = "./m"
                          count  = fake_thing.src.serial > 5 ? 2 : 0
                          in     = "m${count.index}"
                        }
                        """,
                                3,
                                "3 0 0",
                                "fake_thing.src",
                                "module.m[0].fake_thing.x",
                                "module.m[1].fake_thing.x")
                        .order("- -> s", "- -> m1"),
                ApplyCase.of("a precondition known only at apply fails there", null, """
                        resource "fake_thing" "src" { value = "s" }
                        resource "fake_thing" "a" {
                          value = "a"
                          lifecycle {
                            precondition {
                              condition     = fake_thing.src.id == "nope"
                              error_message = "The source must be nope."
                            }
                          }
                        }
                        """, 1, "1 0 0", "fake_thing.src")
                        .errors("Resource precondition failed: The source must " + "be nope."),
                ApplyCase.of(
                                "a postcondition known only at apply fails after the object is made",
                                null,
                                """
                        resource "fake_thing" "a" {
                          value = "a"
                          lifecycle {
                            postcondition {
                              condition     = self.id == "nope"
                              error_message = "The id must be nope."
                            }
                          }
                        }
                        resource "fake_thing" "after" { value = fake_thing.a.id }
                        """,
                                1,
                                "1 0 0",
                                "fake_thing.a")
                        .errors("Resource postcondition failed: The id must be " + "nope."));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void apply(ApplyCase c) {
        EngineHarness h = new EngineHarness(dir);
        h.fake.importable = true;
        h.check(c);
    }

    /**
     * Dependencies are recorded per configuration resource (module.m.fake_thing.x), so they must match the
     * objects of every instance of a keyed module. One operation at a time, the destroy would otherwise run
     * in address order: module.m["k"] before module.z["k"], which depends on it.
     */
    @Test
    void destroyHonoursDependenciesInKeyedModules() {
        EngineHarness h = new EngineHarness(dir);
        h.files(Map.of("m/main.tf", EngineHarness.CHILD_MODULE));
        String config = """
                module "m" {
                  source   = "./m"
                  for_each = toset(["k"])
                  in       = "first"
                }
                module "z" {
                  source   = "./m"
                  for_each = toset(["k"])
                  in       = "after-${module.m["k"].id}"
                }
                """;
        h.applied(config);
        h.fake.applyLog.clear();
        PlanOptions one = new PlanOptions(dir, "default", PlanMode.DESTROY, true, List.of(), List.of(), 1);
        Result<ApplyResult> r = h.planAndApply(h.config(config), one, EngineEvents.NONE);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(h.fake.applyLog).containsExactly("after-thing-1 -> -", "first -> -");
    }
}
