package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.Addrs;
import dev.strata.addr.ModuleInstance;
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
        return RelevantAttributes.of(tree(), changes).all().stream()
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
        assertThat(RelevantAttributes.of(tree(), List.of(noop)).all()).isEmpty();
    }

    /** terraform_data "a" changing and output "o" = terraform_data.s.id changing: [s, [id]] is relevant. */
    @Test
    void aChangingRootOutputContributesItsValue() {
        Value v = Value.string("x");
        assertThat(RelevantAttributes.of(
                                tree(),
                                List.of(),
                                java.util.Map.of("o", new OutputChange("o", Action.UPDATE, v, v, false)))
                        .all())
                .containsExactly(new RelevantAttributes.Attr("fake_thing.a4", List.of("id")));
        assertThat(RelevantAttributes.of(
                                tree(),
                                List.of(),
                                java.util.Map.of("o", new OutputChange("o", Action.NO_OP, v, v, false)))
                        .all())
                .isEmpty();
    }

    private List<String> relevantIn(
            java.util.Map<String, String> files, java.util.Set<ModuleInstance> expanded, String... changed) {
        ConfigTree t = new EngineHarness(dir, new FakeProvider()).files(files);
        List<ResourceChange> changes = new ArrayList<>();
        for (String c : changed) {
            changes.add(update(c));
        }
        return RelevantAttributes.of(t, changes, java.util.Map.of(), expanded).all().stream()
                .map(a -> a.resource() + " " + a.path())
                .toList();
    }

    /**
     * terraform_data "a" { input = data.terraform_remote_state.r.outputs.x } lists [data..r, [outputs, x]]:
     * data resources are listed like managed ones, and a whole one is followed into its arguments.
     */
    @Test
    void dataResourcesAreListedAndFollowedLikeManagedOnes() {
        var files = java.util.Map.of("main.tf", """
                resource "fake_thing" "a" {
                  value = "x"
                }
                resource "fake_thing" "a2" {
                  value = "y"
                }
                data "fake_info" "d" {
                  value = fake_thing.a.value
                }
                data "fake_info" "e" {
                  value = fake_thing.a2.value
                }
                resource "fake_thing" "x" {
                  value = data.fake_info.d.result
                }
                resource "fake_thing" "w" {
                  value = tostring(length(data.fake_info.e))
                }
                """);
        assertThat(relevantIn(files, java.util.Set.of(), "fake_thing.x")).containsExactly("data.fake_info.d [result]");
        assertThat(relevantIn(files, java.util.Set.of(), "fake_thing.w"))
                .containsExactly("data.fake_info.e []", "fake_thing.a2 [value]");
        // A read deferred to apply is a change: its arguments contribute.
        assertThat(relevantIn(files, java.util.Set.of(), "data.fake_info.d")).containsExactly("fake_thing.a [value]");
    }

    /**
     * A .tf.json body is narrowed as a native one: jc = [jb.input] reaches ja.output.x through jb's input and
     * not ja2 through jb's other argument (terraform show -json 1.11, terraform_data).
     */
    @Test
    void aJsonBodyIsNarrowedToTheReferencedArgument() {
        var files = java.util.Map.of("main.tf.json", """
                {"resource": {"fake_thing": {
                  "a": {"value": "x"},
                  "a2": {"value": "y"},
                  "b": {"value": "${fake_thing.a.value}", "zone": "${fake_thing.a2.id}"},
                  "c": {"value": "${fake_thing.b.value}"},
                  "e": {"value": "${tostring(length(fake_thing.b))}"}
                }}}
                """);
        assertThat(relevantIn(files, java.util.Set.of(), "fake_thing.c"))
                .containsExactly("fake_thing.a [value]", "fake_thing.b [value]");
        assertThat(relevantIn(files, java.util.Set.of(), "fake_thing.e"))
                .containsExactly("fake_thing.a [value]", "fake_thing.a2 [id]", "fake_thing.b []");
    }

    /**
     * An override file's argument replaces the base's, whose references then count for nothing, whether
     * the referenced attribute is named or the whole object is (terraform_data with main_override.tf).
     */
    @Test
    void anArgumentAnOverrideReplacesContributesNothing() {
        var files = java.util.Map.of("main.tf", """
                resource "fake_thing" "a" {
                  value = "x"
                }
                resource "fake_thing" "a2" {
                  value = "y"
                }
                resource "fake_thing" "a3" {
                  value = "z"
                }
                resource "fake_thing" "b" {
                  value = fake_thing.a.value
                  zone  = fake_thing.a2.id
                }
                resource "fake_thing" "c" {
                  value = fake_thing.b.value
                }
                resource "fake_thing" "e" {
                  value = tostring(length(fake_thing.b))
                }
                """, "main_override.tf", """
                resource "fake_thing" "b" {
                  value = fake_thing.a3.value
                }
                """, "json_override.tf.json", """
                {"resource": {"fake_thing": {"e": {"zone": "${fake_thing.a.id}"}}}}
                """);
        assertThat(relevantIn(files, java.util.Set.of(), "fake_thing.c"))
                .containsExactly("fake_thing.a3 [value]", "fake_thing.b [value]");
        assertThat(relevantIn(files, java.util.Set.of(), "fake_thing.e"))
                .containsExactly("fake_thing.a [id]", "fake_thing.a2 [id]", "fake_thing.a3 [value]", "fake_thing.b []");
    }

    /**
     * Terraform keeps no prior value for a child module's outputs, so each is planned as created and
     * contributes even in a plan where nothing else changes; a reference to a whole call with count also
     * stands for the call's instance without a key (listed as module.n.…).
     */
    @Test
    void everyExpandedModuleOutputContributesAndAWholeCallAlsoNamesTheUnkeyedInstance() {
        var files = java.util.Map.of("main.tf", """
                resource "fake_thing" "a" {
                  value = "x"
                }
                module "n" {
                  source = "./m"
                  count  = 2
                  in     = fake_thing.a.value
                }
                resource "fake_thing" "w" {
                  value = tostring(length(module.n))
                }
                """, "m/main.tf", """
                variable "in" {}
                resource "fake_thing" "inner" {
                  value = var.in
                }
                output "out" {
                  value = fake_thing.inner.id
                }
                output "echo" {
                  value = var.in
                }
                """);
        ModuleInstance n0 = ModuleInstance.ROOT.child("n", dev.strata.addr.InstanceKey.of(0));
        ModuleInstance n1 = ModuleInstance.ROOT.child("n", dev.strata.addr.InstanceKey.of(1));
        assertThat(relevantIn(files, java.util.Set.of(ModuleInstance.ROOT, n0, n1)))
                .containsExactly(
                        "fake_thing.a [value]",
                        "module.n[0].fake_thing.inner [id]",
                        "module.n[1].fake_thing.inner [id]");
        assertThat(relevantIn(files, java.util.Set.of(ModuleInstance.ROOT, n0), "fake_thing.w"))
                .containsExactly(
                        "fake_thing.a [value]", "module.n.fake_thing.inner [id]", "module.n[0].fake_thing.inner [id]");
    }

    /**
     * Through the planner: a module without resources takes part through its outputs (the planner hands
     * over the instances it expanded), in a plan where nothing changes too; a destroy plan plans no module
     * outputs, so there they contribute nothing, while the deletions do (terraform show -json prints
     * [a, [output]] for a destroy plan where b = a.output is deleted, and nothing through a module output).
     */
    @Test
    void thePlannerHandsOverItsModuleInstancesExceptInADestroyPlan() throws Exception {
        EngineHarness h = new EngineHarness(dir, new FakeProvider());
        java.nio.file.Files.createDirectories(dir.resolve("m2"));
        java.nio.file.Files.writeString(dir.resolve("m2/main.tf"), """
                variable "in" {}
                output "echo" {
                  value = var.in
                }
                """);
        ConfigTree t = h.config("""
                resource "fake_thing" "a" {
                  value = "x"
                }
                module "m2" {
                  source = "./m2"
                  in     = fake_thing.a.value
                }
                resource "fake_thing" "b" {
                  value = fake_thing.a.id
                }
                """);
        List<String> expected = List.of("fake_thing.a [id]", "fake_thing.a [value]");
        assertThat(h.planned(t).relevantAttributes().all().stream()
                        .map(a -> a.resource() + " " + a.path())
                        .toList())
                .isEqualTo(expected);
        assertThat(h.planAndApply(t).diagnostics().hasErrors()).isFalse();
        Plan unchanged = h.planned(t);
        assertThat(unchanged.changes().stream().allMatch(c -> c.action() == Action.NO_OP))
                .isTrue();
        assertThat(unchanged.relevantAttributes().all().stream()
                        .map(a -> a.resource() + " " + a.path())
                        .toList())
                .isEqualTo(List.of("fake_thing.a [value]"));
        Plan destroy = h.planned(t, h.options(PlanMode.DESTROY, List.of(), List.of()));
        assertThat(destroy.relevantAttributes().all().stream()
                        .map(a -> a.resource() + " " + a.path())
                        .toList())
                .isEqualTo(List.of("fake_thing.a [id]"));
    }

    /**
     * As terraform 1.11 with aws_instance (plan -refresh=false over an unchanged instance): b =
     * a.root_block_device[0].volume_size lists only that path, b = a.root_block_device also the references
     * of the blocks, while an index into an argument (terraform_data's input[0]) follows the argument.
     */
    @Test
    void oneElementOfANestedBlockTypeIsFollowedNowhere() {
        var files = java.util.Map.of("main.tf", """
                resource "fake_thing" "t1" {
                  value = "1"
                }
                resource "fake_thing" "t2" {
                  value = "2"
                }
                resource "fake_thing" "a" {
                  value = [fake_thing.t1.id]
                  disk {
                    size = fake_thing.t1.value
                    kind = fake_thing.t2.value
                  }
                }
                resource "fake_thing" "one" {
                  value = fake_thing.a.disk[0].size
                }
                resource "fake_thing" "all" {
                  value = fake_thing.a.disk
                }
                resource "fake_thing" "arg" {
                  value = fake_thing.a.value[0]
                }
                """);
        assertThat(relevantIn(files, java.util.Set.of(), "fake_thing.one"))
                .containsExactly("fake_thing.a [disk, 0, size]");
        assertThat(relevantIn(files, java.util.Set.of(), "fake_thing.all"))
                .containsExactly("fake_thing.a [disk]", "fake_thing.t1 [value]", "fake_thing.t2 [value]");
        assertThat(relevantIn(files, java.util.Set.of(), "fake_thing.arg"))
                .containsExactly("fake_thing.a [value, 0]", "fake_thing.t1 [id]");
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
                RelevantAttributes.of(tree(), changes));
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
