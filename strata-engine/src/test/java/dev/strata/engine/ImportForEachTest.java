package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code import} blocks with {@code for_each}, planned on the fake provider: each case is a
 * configuration and either the imports planned ({@code address=id}, in plan order) or the error
 * summaries the plan fails with.
 */
class ImportForEachTest {
    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("map into for_each", """
                        import {
                          for_each = { a = "i-1", b = "i-2" }
                          to       = fake_thing.x[each.key]
                          id       = each.value
                        }
                        resource "fake_thing" "x" {
                          for_each = toset(["a", "b"])
                          value    = "imported"
                        }
                        """, List.of("fake_thing.x[\"a\"]=i-1", "fake_thing.x[\"b\"]=i-2")),
                Arguments.of("for_each from a value the plan computes", """
                        resource "fake_thing" "src" { value = "k" }
                        import {
                          for_each = toset([fake_thing.src.value])
                          to       = fake_thing.x[each.key]
                          id       = "id-${each.key}"
                        }
                        resource "fake_thing" "x" {
                          for_each = toset(["k"])
                          value    = "imported"
                        }
                        """, List.of("fake_thing.x[\"k\"]=id-k")),
                Arguments.of(
                        "tuple into count, each.key a number",
                        """
                        import {
                          for_each = ["p", "q"]
                          to       = fake_thing.x[each.key]
                          id       = "${each.key}-${each.value}"
                        }
                        resource "fake_thing" "x" {
                          count = 2
                          value = "imported"
                        }
                        """,
                        List.of("fake_thing.x[0]=0-p", "fake_thing.x[1]=1-q")),
                Arguments.of(
                        "objects, each.value attributes",
                        """
                        locals {
                          objs = { one = { id = "o-1" }, two = { id = "o-2" } }
                        }
                        import {
                          for_each = local.objs
                          to       = fake_thing.x[each.key]
                          id       = each.value.id
                        }
                        resource "fake_thing" "x" {
                          for_each = local.objs
                          value    = "imported"
                        }
                        """,
                        List.of("fake_thing.x[\"one\"]=o-1", "fake_thing.x[\"two\"]=o-2")),
                Arguments.of(
                        "two elements, one target",
                        """
                        import {
                          for_each = toset(["a", "b"])
                          to       = fake_thing.x["k"]
                          id       = each.value
                        }
                        resource "fake_thing" "x" { for_each = toset(["k"]) }
                        """,
                        List.of("Duplicate import configuration for \"fake_thing.x[\\\"k\\\"]\"")),
                Arguments.of(
                        "key the resource does not expand",
                        """
                        import {
                          for_each = toset(["k", "zz"])
                          to       = fake_thing.x[each.key]
                          id       = each.value
                        }
                        resource "fake_thing" "x" { for_each = toset(["k"]) }
                        """,
                        List.of("Configuration for import target does not exist")),
                Arguments.of("unknown for_each", """
                        resource "fake_thing" "src" {}
                        import {
                          for_each = toset([fake_thing.src.id])
                          to       = fake_thing.x[each.key]
                          id       = each.value
                        }
                        resource "fake_thing" "x" { for_each = toset(["k"]) }
                        """, List.of("Invalid for_each argument")),
                Arguments.of("sensitive id", """
                        variable "id" {
                          default   = "secret"
                          sensitive = true
                        }
                        import {
                          to = fake_thing.x
                          id = var.id
                        }
                        resource "fake_thing" "x" {}
                        """, List.of("Invalid import id argument")),
                Arguments.of("null id", """
                        import {
                          for_each = { a = null }
                          to       = fake_thing.x[each.key]
                          id       = each.value
                        }
                        resource "fake_thing" "x" { for_each = toset(["a"]) }
                        """, List.of("Invalid import id argument")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plansTheImports(String name, String config, List<String> expected) {
        EngineHarness h = new EngineHarness(dir);
        h.fake.importable = true;
        Result<Plan> r = h.plan(h.config(config));
        if (r.value() == null) {
            assertThat(r.diagnostics().asList().stream()
                            .filter(d -> d.severity() == dev.strata.hcl.Severity.ERROR)
                            .map(dev.strata.hcl.Diagnostic::summary)
                            .distinct()
                            .toList())
                    .as(r.diagnostics().toString())
                    .isEqualTo(expected);
            return;
        }
        assertThat(r.value().changes().stream()
                        .filter(c -> c.importId() != null)
                        .map(c -> c.addr() + "=" + c.importId())
                        .toList())
                .as(r.diagnostics().toString())
                .isEqualTo(expected);
    }
}
