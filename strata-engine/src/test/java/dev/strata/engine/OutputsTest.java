package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Root output changes in plans: their actions against the prior state and the values they plan. */
class OutputsTest {
    @TempDir
    Path dir;

    /** Expected: every output change, as {@code "name action after"}. */
    static List<EngineHarness.Row> cases() {
        return List.of(
                new EngineHarness.Row("a new output is created", null, """
                        output "o" { value = "x" }
                        """, List.of("o CREATE x")),
                new EngineHarness.Row("an unchanged output is a no-op", """
                        output "o" { value = "x" }
                        """, """
                        output "o" { value = "x" }
                        """, List.of("o NO_OP x")),
                new EngineHarness.Row("a changed output is updated", """
                        output "o" { value = "x" }
                        """, """
                        output "o" { value = "y" }
                        """, List.of("o UPDATE y")),
                new EngineHarness.Row(
                        "a removed output is deleted", """
                        output "o" { value = "x" }
                        output "keep" { value = 1 }
                        """, """
                        output "keep" { value = 1 }
                        """, List.of("keep NO_OP 1", "o DELETE null")),
                new EngineHarness.Row(
                        "an output of a value known after apply", null, """
                        resource "fake_thing" "a" {}
                        output "id" { value = fake_thing.a.id }
                        """, List.of("id CREATE (unknown)")),
                new EngineHarness.Row(
                        "an output of a known argument of a planned resource", null, """
                        resource "fake_thing" "a" { value = "v" }
                        output "v" { value = fake_thing.a.value }
                        """, List.of("v CREATE v")),
                new EngineHarness.Row("an output of a module's output", null, """
                        module "m" {
                          source = "./m"
                          in     = "through"
                        }
                        output "v" { value = module.m.value }
                        """, List.of("v CREATE through")),
                new EngineHarness.Row(
                        "an output of a deferred resource is unknown", null, """
                        resource "fake_thing" "src" {}
                        resource "fake_thing" "a" {
                          count = fake_thing.src.serial
                        }
                        output "n" { value = length(fake_thing.a) }
                        """, List.of("n CREATE (unknown)")));
    }

    private static String show(OutputChange o) {
        Value v = o.after();
        String after = !v.isKnown()
                ? "(unknown)"
                : v.isNull()
                        ? "null"
                        : v.type().equals(dev.strata.lang.types.Type.STRING) ? v.asString() : v.toString();
        return o.name() + " " + o.action() + " " + after;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plan(EngineHarness.Row c) {
        EngineHarness h = new EngineHarness(dir);
        h.files(Map.of("m/main.tf", EngineHarness.CHILD_MODULE));
        if (c.prior() != null) {
            h.applied(c.prior());
        }
        Plan p = h.planned(h.config(c.config()));
        assertThat(p.outputs().values().stream().map(OutputsTest::show).toList())
                .isEqualTo(c.expected());
        assertThat(p.hasChanges()).isEqualTo(c.expected().stream().anyMatch(o -> !o.contains(" NO_OP ")));
    }

    @Test
    void aSensitiveOutputKeepsItsMarkInThePlanAndIsSavedAsSensitive() {
        EngineHarness h = new EngineHarness(dir);
        String tf = """
                output "secret" {
                  value     = sensitive("psst")
                  sensitive = true
                }
                """;
        Plan p = h.planned(h.config(tf));
        OutputChange o = p.outputs().get("secret");
        assertThat(o.sensitive()).isTrue();
        assertThat(o.after().hasMarkDeep(Mark.SENSITIVE)).isTrue();
        ApplyResult r = h.apply(h.config(tf), p).value();
        assertThat(r.state().outputs().get("secret").sensitive()).isTrue();
    }

    @Test
    void anAppliedOutputOfAnUnknownValueIsSavedWithTheValueTheApplyMade() {
        EngineHarness h = new EngineHarness(dir);
        ApplyResult r = h.applied("""
                resource "fake_thing" "a" {}
                output "id" { value = fake_thing.a.id }
                """);
        assertThat(r.state().outputs().get("id").value())
                .isEqualTo(new dev.strata.state.JsonValue.StringValue("thing-1"));
    }
}
