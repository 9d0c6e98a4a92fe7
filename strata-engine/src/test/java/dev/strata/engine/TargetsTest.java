package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.Addrs;
import dev.strata.addr.Targetable;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Which resource instances a set of {@code -target} addresses takes in (resources, instances, modules). */
class TargetsTest {
    record Case(List<String> targets, String instance, boolean matches) {
        @Override
        public String toString() {
            return targets + (matches ? " takes " : " leaves ") + instance;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case(List.of(), "fake_thing.a", true),
                new Case(List.of("fake_thing.a"), "fake_thing.a", true),
                new Case(List.of("fake_thing.a"), "fake_thing.a[3]", true),
                new Case(List.of("fake_thing.a"), "fake_thing.a[\"k\"]", true),
                new Case(List.of("fake_thing.a"), "fake_thing.b", false),
                new Case(List.of("fake_thing.a"), "data.fake_thing.a", false),
                new Case(List.of("fake_thing.a"), "module.m.fake_thing.a", false),
                new Case(List.of("fake_thing.a[1]"), "fake_thing.a[1]", true),
                new Case(List.of("fake_thing.a[1]"), "fake_thing.a[0]", false),
                new Case(List.of("fake_thing.a[\"x\"]"), "fake_thing.a[\"y\"]", false),
                new Case(List.of("module.m"), "module.m.fake_thing.a", true),
                new Case(List.of("module.m"), "module.m.module.n.fake_thing.a", true),
                new Case(List.of("module.m"), "module.m[2].fake_thing.a", true),
                new Case(List.of("module.m[1]"), "module.m[1].fake_thing.a", true),
                new Case(List.of("module.m[1]"), "module.m[2].fake_thing.a", false),
                new Case(List.of("module.m"), "module.mm.fake_thing.a", false),
                new Case(List.of("module.m"), "fake_thing.a", false),
                new Case(List.of("module.m.module.n"), "module.m.fake_thing.a", false),
                new Case(List.of("module.m.fake_thing.a"), "module.m.fake_thing.a", true),
                new Case(List.of("module.m[\"k\"].fake_thing.a"), "module.m[\"j\"].fake_thing.a", false),
                new Case(List.of("fake_thing.b", "module.m"), "module.m.fake_thing.z", true),
                new Case(List.of("fake_thing.b", "module.m"), "fake_thing.c", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesInstance(Case c) {
        List<Targetable> targets = c.targets().stream()
                .map(t -> {
                    var r = Addrs.parseTarget(t);
                    assertThat(r.value()).as(r.diagnostics().toString()).isNotNull();
                    return r.value();
                })
                .toList();
        assertThat(Targets.matchesInstance(targets, EngineHarness.instance(c.instance())))
                .isEqualTo(c.matches());
    }

    @org.junit.jupiter.api.Test
    void withoutExcludesNothingIsExcluded() {
        var a = EngineHarness.instance("fake_thing.a");
        assertThat(Targets.excludesInstance(List.of(), a)).isFalse();
        assertThat(Targets.excludesInstance(
                        List.of(Addrs.parseTarget("fake_thing.a[1]").value()),
                        EngineHarness.instance("fake_thing.a[1]")))
                .isTrue();
        assertThat(Targets.excludesInstance(
                        List.of(Addrs.parseTarget("fake_thing.a[1]").value()), a))
                .isFalse();
    }
}
