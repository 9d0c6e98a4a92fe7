package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostics;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code strata import ADDR ID}: the address checks, the provider's answer, and what ends up in state. */
class ImportTest {
    @TempDir
    Path dir;

    private static final String CONFIG = """
            resource "fake_thing" "single" { value = "imported" }
            resource "fake_thing" "counted" {
              count = 2
              value = "imported"
            }
            resource "fake_thing" "managed" { value = "m" }
            module "m" {
              source = "./m"
              in     = "imported"
            }
            """;

    /**
     * @param errors the import's errors as {@code "summary: detail"}
     * @param state  the state's instances afterwards
     */
    record Case(String name, String addr, boolean found, List<String> errors, List<String> state) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case(
                        "a single resource",
                        "fake_thing.single",
                        true,
                        List.of(),
                        List.of("fake_thing.managed", "fake_thing.single")),
                new Case(
                        "one instance of a counted resource",
                        "fake_thing.counted[1]",
                        true,
                        List.of(),
                        List.of("fake_thing.counted[1]", "fake_thing.managed")),
                new Case(
                        "a counted resource without a key",
                        "fake_thing.counted",
                        true,
                        List.of("Missing resource instance key: The resource fake_thing.counted has count or for_each "
                                + "set, so the import address must include an instance key, such as "
                                + "fake_thing.counted[0]."),
                        List.of("fake_thing.managed")),
                new Case(
                        "an address the configuration does not declare",
                        "fake_thing.nope",
                        true,
                        List.of("resource address \"fake_thing.nope\" does not exist in the configuration.: Before "
                                + "importing this resource, please create its configuration in the root module. For "
                                + "example:\n\nresource \"fake_thing\" \"nope\" {\n  # (resource arguments)\n}"),
                        List.of("fake_thing.managed")),
                new Case(
                        "a resource in a child module",
                        "module.m.fake_thing.x",
                        true,
                        List.of(),
                        List.of("fake_thing.managed", "module.m.fake_thing.x")),
                new Case(
                        "an object the provider cannot find",
                        "fake_thing.single",
                        false,
                        List.of("with fake_thing.single, Import not supported: "),
                        List.of("fake_thing.managed")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void importResource(Case c) {
        EngineHarness h = new EngineHarness(dir);
        h.files(java.util.Map.of("m/main.tf", EngineHarness.CHILD_MODULE));
        h.applied("resource \"fake_thing\" \"managed\" { value = \"m\" }\n");
        h.fake.importable = c.found();
        Diagnostics d = h.importResource(h.config(CONFIG), c.addr(), "i-9");
        assertThat(EngineHarness.errorTexts(d)).isEqualTo(c.errors());
        assertThat(h.stateAddresses()).isEqualTo(c.state());
        if (c.errors().isEmpty()) {
            // The imported object matches the configuration: the next plan has nothing to do for it.
            Plan p = h.planned(h.config(CONFIG));
            assertThat(p.changes())
                    .filteredOn(ch -> ch.addr().toString().equals(c.addr()))
                    .singleElement()
                    .satisfies(ch -> assertThat(ch.action()).isEqualTo(Action.NO_OP));
        }
    }

    @org.junit.jupiter.api.Test
    void anAddressAlreadyManagedIsRefused() {
        EngineHarness h = new EngineHarness(dir);
        h.files(java.util.Map.of("m/main.tf", EngineHarness.CHILD_MODULE));
        h.applied("resource \"fake_thing\" \"managed\" { value = \"m\" }\n");
        h.fake.importable = true;
        Diagnostics d = h.importResource(h.config(CONFIG), "fake_thing.managed", "i-9");
        assertThat(EngineHarness.errors(d)).singleElement().satisfies(e -> {
            assertThat(e.summary()).isEqualTo("Resource already managed by Strata");
            assertThat(e.detail()).contains("fake_thing.managed");
        });
        assertThat(h.state().resources())
                .singleElement()
                .satisfies(rs -> assertThat(rs.instances())
                        .singleElement()
                        .satisfies(o -> assertThat(o.attributes().toString()).contains("thing-1")));
    }

    /** As Terraform's import walk: a root variable's value that its rules reject stops the import. */
    @org.junit.jupiter.api.Test
    void aRejectedRootVariableStopsTheImport() {
        EngineHarness h = new EngineHarness(dir);
        h.fake.importable = true;
        Diagnostics d = h.importResource(h.config("""
                        variable "v" {
                          default = "ab"
                          validation {
                            condition     = length(var.v) > 3
                            error_message = "Too short."
                          }
                        }
                        resource "fake_thing" "single" { value = "imported" }
                        """), "fake_thing.single", "i-9");
        assertThat(EngineHarness.errors(d))
                .extracting(dev.strata.hcl.Diagnostic::summary)
                .containsExactly("Invalid value for variable");
        assertThat(h.stateAddresses()).isEmpty();
    }
}
