package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Data sources: read while planning when their configuration is known, read during the apply when
 * it is not (or when they wait for a pending change), and recorded in state either way.
 */
class DataSourceTest {
    @TempDir
    Path dir;

    /**
     * @param reads   the plan's deferred reads, as changes
     * @param result  the {@code result} of {@code data.fake_info.i} in the plan (null when read at apply)
     * @param state   the state's instances after the apply
     */
    record Case(String name, String config, List<String> reads, String result, List<String> state) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case(
                        "known configuration is read while planning",
                        """
                        data "fake_info" "i" { value = "q" }
                        """,
                        List.of(),
                        "read:q",
                        List.of("data.fake_info.i")),
                new Case(
                        "a read feeds a resource's arguments",
                        """
                        data "fake_info" "i" { value = "q" }
                        resource "fake_thing" "a" { value = data.fake_info.i.result }
                        """,
                        List.of(),
                        "read:q",
                        List.of("data.fake_info.i", "fake_thing.a")),
                new Case(
                        "an unknown argument defers the read",
                        """
                        resource "fake_thing" "a" {}
                        data "fake_info" "i" { value = fake_thing.a.id }
                        """,
                        List.of("data.fake_info.i read (read_because_config_unknown)"),
                        null,
                        List.of("data.fake_info.i", "fake_thing.a")),
                new Case(
                        "depends_on a pending change defers the read",
                        """
                        resource "fake_thing" "a" { value = "x" }
                        data "fake_info" "i" {
                          value      = "q"
                          depends_on = [fake_thing.a]
                        }
                        """,
                        List.of("data.fake_info.i read (read_because_dependency_pending)"),
                        null,
                        List.of("data.fake_info.i", "fake_thing.a")),
                new Case(
                        "a counted data source",
                        """
                        data "fake_info" "i" {
                          count = 2
                          value = "n${count.index}"
                        }
                        """,
                        List.of(),
                        null,
                        List.of("data.fake_info.i[0]", "data.fake_info.i[1]")),
                new Case("a data source in a module", """
                        module "m" { source = "./d" }
                        """, List.of(), null, List.of("module.m.data.fake_info.i")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void planAndApply(Case c) {
        EngineHarness h = new EngineHarness(dir);
        h.files(java.util.Map.of("d/main.tf", EngineHarness.REQUIRED_PROVIDERS + """
                data "fake_info" "i" { value = "in-module" }
                """));
        var tree = h.config(c.config());
        Plan p = h.planned(tree);
        assertThat(p.changes())
                .filteredOn(ch -> ch.action() == Action.READ)
                .extracting(EngineHarness::describe)
                .isEqualTo(c.reads());
        if (c.result() != null) {
            assertThat(p.priorState().resources())
                    .anySatisfy(rs -> assertThat(rs.addr().toString()).isEqualTo("data.fake_info.i"));
        }
        var r = h.apply(tree, p);
        assertThat(EngineHarness.errors(r.diagnostics())).isEmpty();
        assertThat(h.stateAddresses()).isEqualTo(c.state());
        if (c.result() != null) {
            String json = new String(dev.strata.state.StateCodec.write(h.state()));
            assertThat(json).contains("\"result\": \"" + c.result() + "\"");
        }
    }

    @Test
    void aDeferredReadSeesTheValueTheApplyMade() {
        EngineHarness h = new EngineHarness(dir);
        h.applied("""
                resource "fake_thing" "a" {}
                data "fake_info" "i" { value = fake_thing.a.id }
                resource "fake_thing" "b" { value = data.fake_info.i.result }
                """);
        String json = new String(dev.strata.state.StateCodec.write(h.state()));
        assertThat(json).contains("\"result\": \"read:thing-1\"").contains("\"value\": \"read:thing-1\"");
    }

    @Test
    void theDestroyModeReadsButNeverDeletesADataSource() {
        EngineHarness h = new EngineHarness(dir);
        String tf = """
                data "fake_info" "i" { value = "q" }
                resource "fake_thing" "a" { value = data.fake_info.i.result }
                """;
        h.applied(tf);
        Plan p = h.planned(h.config(tf), h.options(PlanMode.DESTROY, List.of(), List.of()));
        assertThat(EngineHarness.actions(p)).containsExactly("fake_thing.a delete");
        ApplyResult r = h.apply(h.config(tf), p, h.options(PlanMode.DESTROY, List.of(), List.of()), EngineEvents.NONE)
                .value();
        assertThat(r.destroyed()).isEqualTo(1);
        assertThat(h.stateAddresses()).doesNotContain("fake_thing.a");
    }
}
