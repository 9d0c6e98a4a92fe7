package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.Addrs;
import dev.strata.config.ConfigTree;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.value.Value;
import dev.strata.state.StateSnapshot;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attributes a plan's changes depend on, as Terraform 1.11 lists them in {@code relevant_attributes}
 * (each expectation is what {@code terraform show -json} printed for the same configuration with
 * {@code terraform_data}): a reference to one attribute narrows to it and to the argument of that name, a
 * whole object is all relevant with all of its arguments, and {@code count} and {@code depends_on} add
 * nothing.
 */
class RelevantAttributesTest {
    private static final AbsProviderConfig PROVIDER = AbsProviderConfig.parse(
                    "provider[\"terraform.io/builtin/terraform\"]")
            .value();

    @TempDir
    Path dir;

    private static final String CONFIG = """
            resource "fake_thing" "a" {
              value = "x"
            }
            resource "fake_thing" "a2" {
              value = "z"
            }
            resource "fake_thing" "a3" {
              value = "w"
            }
            resource "fake_thing" "a4" {
              value = "q"
            }
            resource "fake_thing" "b" {
              value = fake_thing.a.value
              zone  = fake_thing.a2.id
            }
            resource "fake_thing" "c" {
              value      = fake_thing.b.value
              depends_on = [fake_thing.a4]
            }
            resource "fake_thing" "d" {
              count = length(fake_thing.a3.id)
              value = "d"
            }
            resource "fake_thing" "e" {
              value = tostring(length(fake_thing.b))
            }
            resource "fake_thing" "f" {
              value = module.m.out
            }
            module "m" {
              source = "./m"
              in     = fake_thing.a3.value
            }
            output "o" {
              value      = fake_thing.a4.id
              depends_on = [fake_thing.a2]
            }
            """;

    private ConfigTree tree() {
        EngineHarness h = new EngineHarness(dir, new FakeProvider());
        return h.files(java.util.Map.of("main.tf", CONFIG, "m/main.tf", """
                variable "in" {}
                resource "fake_thing" "inner" {
                  value = var.in
                }
                output "out" {
                  value = fake_thing.inner.id
                }
                output "other" {
                  value = fake_thing.inner.value
                }
                """));
    }

    private static ResourceChange update(String addr) {
        Value v = Value.objectOf("id", Value.string(addr));
        return new ResourceChange(
                Addrs.parseAbsResourceInstance(addr).value(),
                null,
                Action.UPDATE,
                v,
                v,
                List.of(),
                null,
                PROVIDER,
                0,
                null,
                null,
                null);
    }

    private List<String> relevant(String... changed) {
        List<ResourceChange> changes = new ArrayList<>();
        for (String c : changed) {
            changes.add(update(c));
        }
        return RelevantAttributes.of(tree(), changes, StateSnapshot.empty("test")).all().stream()
                .map(a -> a.resource() + " " + a.path())
                .toList();
    }

    @Test
    void aReferenceToOneAttributeIsFollowedIntoThatArgumentOnly() {
        // terraform_data "c" { input = terraform_data.b.input, depends_on = [a4] }: b.input and a.output.x.
        assertThat(relevant("fake_thing.c")).containsExactly("fake_thing.a [value]", "fake_thing.b [value]");
    }

    @Test
    void countAndDependsOnContributeNothing() {
        assertThat(relevant("fake_thing.d")).isEmpty();
    }

    @Test
    void aWholeObjectIsAllRelevantWithEveryArgument() {
        assertThat(relevant("fake_thing.e"))
                .containsExactly("fake_thing.a [value]", "fake_thing.a2 [id]", "fake_thing.b []");
    }

    @Test
    void anAttributeTheProviderComputesIsFollowedNowhere() {
        // module.m.out is inner.id: inner's own argument (var.in, so a3.value) does not contribute to it.
        assertThat(relevant("fake_thing.f")).containsExactly("module.m.fake_thing.inner [id]");
    }

    @Test
    void aChangeInAModuleFollowsItsVariableToTheCallingModule() {
        assertThat(relevant("module.m.fake_thing.inner")).containsExactly("fake_thing.a3 [value]");
    }

    @Test
    void aPlanWithoutChangesHasNoneAndNoOpsContributeNothing() {
        assertThat(relevant()).isEmpty();
        ResourceChange noop = update("fake_thing.c");
        noop = new ResourceChange(
                noop.addr(),
                null,
                Action.NO_OP,
                noop.before(),
                noop.after(),
                List.of(),
                null,
                PROVIDER,
                0,
                null,
                null,
                null);
        assertThat(RelevantAttributes.of(tree(), List.of(noop), StateSnapshot.empty("test"))
                        .all())
                .isEmpty();
    }

    /** terraform_data "a" changing and output "o" = terraform_data.s.id changing: [s, [id]] is relevant. */
    @Test
    void aChangingRootOutputContributesItsValue() {
        Value v = Value.string("x");
        StateSnapshot prior = StateSnapshot.empty("test");
        assertThat(RelevantAttributes.of(
                                tree(),
                                List.of(),
                                java.util.Map.of("o", new OutputChange("o", Action.UPDATE, v, v, false)),
                                prior)
                        .all())
                .containsExactly(new RelevantAttributes.Attr("fake_thing.a4", List.of("id")));
        assertThat(RelevantAttributes.of(
                                tree(),
                                List.of(),
                                java.util.Map.of("o", new OutputChange("o", Action.NO_OP, v, v, false)),
                                prior)
                        .all())
                .isEmpty();
    }

    /** A saved plan records them, as Terraform's plan file does; one written before they were recorded knows none. */
    @Test
    void aSavedPlanKeepsThemAndAnOlderOneDoesNotKnowThem() throws Exception {
        List<ResourceChange> changes = List.of(update("fake_thing.c"));
        StateSnapshot prior = StateSnapshot.empty("test");
        Plan plan = new Plan(
                PlanMode.NORMAL,
                prior,
                new TreeMap<>(),
                changes,
                List.of(),
                List.of(),
                new TreeMap<>(),
                List.of(),
                Diagnostics.NONE,
                Instant.EPOCH,
                RelevantAttributes.of(tree(), changes, prior));
        var encoded = PlanCodec.encode(plan);
        assertThat(encoded.path("relevant_attributes").toString())
                .isEqualTo("[{\"resource\":\"fake_thing.a\",\"path\":[\"value\"]},"
                        + "{\"resource\":\"fake_thing.b\",\"path\":[\"value\"]}]");
        Plan decoded = PlanCodec.decode(encoded);
        assertThat(decoded.relevantAttributes().isKnown()).isTrue();
        assertThat(decoded.relevantAttributes()).isEqualTo(plan.relevantAttributes());
        encoded.remove("relevant_attributes");
        assertThat(PlanCodec.decode(encoded).relevantAttributes().isKnown()).isFalse();
        assertThat(PlanCodec.decode(encoded)
                        .relevantAttributes()
                        .covers(update("fake_thing.z").addr()))
                .isTrue();
    }
}
