package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.util.List;

/**
 * {@code -exclude} (OpenTofu 1.9+): the named resources, instances and modules and everything that
 * depends on them are left out of the plan; the rest is planned as usual.
 */
final class ExcludeCases {
    private ExcludeCases() {}

    private static final String CHAIN = """
            resource "fake_thing" "a" { value = "a" }
            resource "fake_thing" "b" { value = fake_thing.a.id }
            resource "fake_thing" "c" {
              count = 2
              value = "c"
            }
            module "m" { source = "./m" }
            """;

    private static final String USES_C0 = CHAIN + """
            resource "fake_thing" "d" { value = fake_thing.c[0].id }
            """;

    private static final String USES_MODULE = CHAIN + """
            resource "fake_thing" "e" { value = module.m.id }
            module "n" {
              source = "./m"
              in     = fake_thing.a.id
            }
            """;

    static List<PlanCase> cases() {
        return List.of(
                PlanCase.of("an excluded resource without dependents", null, CHAIN)
                        .excludes("fake_thing.b")
                        .changes(
                                "fake_thing.a create",
                                "fake_thing.c[0] create",
                                "fake_thing.c[1] create",
                                "module.m.fake_thing.x create"),
                PlanCase.of("an excluded resource takes what depends on it", null, CHAIN)
                        .excludes("fake_thing.a")
                        .changes("fake_thing.c[0] create", "fake_thing.c[1] create", "module.m.fake_thing.x create"),
                PlanCase.of("an excluded resource takes a module whose input uses it", null, USES_MODULE)
                        .excludes("fake_thing.a")
                        .changes(
                                "fake_thing.c[0] create",
                                "fake_thing.c[1] create",
                                "fake_thing.e create",
                                "module.m.fake_thing.x create"),
                PlanCase.of("an excluded instance leaves the other instances", null, CHAIN)
                        .excludes("fake_thing.c[1]")
                        .changes(
                                "fake_thing.a create",
                                "fake_thing.b create",
                                "fake_thing.c[0] create",
                                "module.m.fake_thing.x create"),
                PlanCase.of("an excluded instance takes what depends on its resource", null, USES_C0)
                        .excludes("fake_thing.c[1]")
                        .changes(
                                "fake_thing.a create",
                                "fake_thing.b create",
                                "fake_thing.c[0] create",
                                "module.m.fake_thing.x create"),
                PlanCase.of("an excluded module takes what uses its outputs", null, USES_MODULE)
                        .excludes("module.m")
                        .changes(
                                "fake_thing.a create",
                                "fake_thing.b create",
                                "fake_thing.c[0] create",
                                "fake_thing.c[1] create",
                                "module.n.fake_thing.x create"),
                PlanCase.of("two excludes", null, USES_MODULE)
                        .excludes("fake_thing.c", "module.n")
                        .changes(
                                "fake_thing.a create",
                                "fake_thing.b create",
                                "fake_thing.e create",
                                "module.m.fake_thing.x create"),
                PlanCase.of("an excluded resource in a module instance", null, CHAIN)
                        .excludes("module.m.fake_thing.x")
                        .changes(
                                "fake_thing.a create",
                                "fake_thing.b create",
                                "fake_thing.c[0] create",
                                "fake_thing.c[1] create"),
                PlanCase.of("an excluded resource of a module whose expansion is deferred", null, """
                        resource "fake_thing" "src" {}
                        module "m" {
                          source = "./m"
                          count  = fake_thing.src.serial
                        }
                        """)
                        .excludes("module.m[0].fake_thing.x")
                        .changes("fake_thing.src create"),
                PlanCase.of(
                                "an excluded update is not planned",
                                CHAIN,
                                CHAIN.replace("value = \"c\"", "value = \"c2\""))
                        .excludes("fake_thing.c[0]")
                        .changes("fake_thing.c[1] update"),
                PlanCase.of("an excluded orphan is not deleted", CHAIN + "resource \"fake_thing\" \"z\" {}\n", CHAIN)
                        .excludes("fake_thing.z"),
                PlanCase.of(
                                "an excluded instance beyond the count is not deleted",
                                CHAIN,
                                CHAIN.replace("count = 2", "count = 1"))
                        .excludes("fake_thing.c[1]"),
                PlanCase.of("a destroy with an exclude leaves what the excluded object depends on", CHAIN, CHAIN)
                        .mode(PlanMode.DESTROY)
                        .excludes("fake_thing.b")
                        .changes("fake_thing.c[0] delete", "fake_thing.c[1] delete", "module.m.fake_thing.x delete"),
                PlanCase.of("a destroy with an exclude takes what depends on the excluded object", CHAIN, CHAIN)
                        .mode(PlanMode.DESTROY)
                        .excludes("fake_thing.a")
                        .changes(
                                "fake_thing.b delete",
                                "fake_thing.c[0] delete",
                                "fake_thing.c[1] delete",
                                "module.m.fake_thing.x delete"),
                PlanCase.of("a destroy excluding one instance", CHAIN, CHAIN)
                        .mode(PlanMode.DESTROY)
                        .excludes("fake_thing.c[0]", "module.m")
                        .changes("fake_thing.a delete", "fake_thing.b delete", "fake_thing.c[1] delete"));
    }
}
