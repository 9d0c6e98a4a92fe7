package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.util.List;

/** {@code -target}: what a targeted plan includes (the targets and what they depend on) and what it leaves. */
final class TargetCases {
    private TargetCases() {}

    private static final String CHAIN = """
            resource "fake_thing" "a" { value = "a" }
            resource "fake_thing" "b" { value = fake_thing.a.id }
            resource "fake_thing" "c" {
              count = 2
              value = "c"
            }
            module "m" { source = "./m" }
            """;

    /** Two instances of a module of two objects, and an object outside that uses the second instance. */
    private static final String PAIRS = """
            module "w" {
              source = "./w"
              count  = 2
            }
            resource "fake_thing" "r" { value = module.w[1].id }
            """;

    /** Two instances of a module that nests another and uses its object. */
    private static final String NESTED = """
            module "n" {
              source = "./n"
              count  = 2
            }
            """;

    /** An object that uses a data source. */
    private static final String READS = """
            data "fake_info" "i" { value = "q" }
            resource "fake_thing" "t" { value = data.fake_info.i.value }
            """;

    static List<PlanCase> cases() {
        return List.of(
                PlanCase.of("a target without dependencies", null, CHAIN)
                        .targets("fake_thing.a")
                        .changes("fake_thing.a create"),
                PlanCase.of("a target brings what it depends on", null, CHAIN)
                        .targets("fake_thing.b")
                        .changes("fake_thing.a create", "fake_thing.b create"),
                PlanCase.of("a target of one instance", null, CHAIN)
                        .targets("fake_thing.c[1]")
                        .changes("fake_thing.c[1] create"),
                PlanCase.of("a target of a whole resource with count", null, CHAIN)
                        .targets("fake_thing.c")
                        .changes("fake_thing.c[0] create", "fake_thing.c[1] create"),
                PlanCase.of("a module target", null, CHAIN).targets("module.m").changes("module.m.fake_thing.x create"),
                PlanCase.of("two targets", null, CHAIN)
                        .targets("fake_thing.a", "module.m")
                        .changes("fake_thing.a create", "module.m.fake_thing.x create"),
                PlanCase.of("a targeted destroy takes what depends on the target", CHAIN, CHAIN)
                        .mode(PlanMode.DESTROY)
                        .targets("fake_thing.a")
                        .changes("fake_thing.a delete", "fake_thing.b delete"),
                PlanCase.of("a targeted destroy leaves what the target depends on", CHAIN, CHAIN)
                        .mode(PlanMode.DESTROY)
                        .targets("fake_thing.b")
                        .changes("fake_thing.b delete"),
                PlanCase.of(
                                "a targeted destroy of one instance takes what depends on its resource",
                                CHAIN + """
                        resource "fake_thing" "d" { value = fake_thing.c[0].id }
                        """,
                                CHAIN + """
                        resource "fake_thing" "d" { value = fake_thing.c[0].id }
                        """)
                        .mode(PlanMode.DESTROY)
                        .targets("fake_thing.c[1]")
                        .changes("fake_thing.c[1] delete", "fake_thing.d delete"),
                PlanCase.of(
                                "a targeted destroy in one module instance takes what depends on it there, and"
                                        + " everywhere outside the module",
                                PAIRS,
                                PAIRS)
                        .mode(PlanMode.DESTROY)
                        .targets("module.w[0].fake_thing.x")
                        .changes(
                                "fake_thing.r delete",
                                "module.w[0].fake_thing.x delete",
                                "module.w[0].fake_thing.y delete"),
                PlanCase.of("a targeted destroy of a module instance", PAIRS, PAIRS)
                        .mode(PlanMode.DESTROY)
                        .targets("module.w[1]")
                        .changes(
                                "fake_thing.r delete",
                                "module.w[1].fake_thing.x delete",
                                "module.w[1].fake_thing.y delete"),
                PlanCase.of("a module instance target takes the modules nested in that instance only", null, NESTED)
                        .targets("module.n[1]")
                        .changes("module.n[1].fake_thing.y create", "module.n[1].module.k.fake_thing.x create"),
                PlanCase.of(
                                "a targeted destroy of a module instance: a dependent in another module goes in"
                                        + " every instance",
                                NESTED,
                                NESTED)
                        .mode(PlanMode.DESTROY)
                        .targets("module.n[1]")
                        .changes(
                                "module.n[0].fake_thing.y delete",
                                "module.n[1].fake_thing.y delete",
                                "module.n[1].module.k.fake_thing.x delete"),
                PlanCase.of("a targeted destroy keeps a data source the target depends on as recorded", READS, READS)
                        .mode(PlanMode.DESTROY)
                        .targets("fake_thing.t")
                        .changes("fake_thing.t delete"),
                PlanCase.of("a target and a replace", CHAIN, CHAIN)
                        .targets("fake_thing.c[0]")
                        .replace("fake_thing.c[0]")
                        .changes("fake_thing.c[0] delete_then_create (replace_by_request)"));
    }
}
