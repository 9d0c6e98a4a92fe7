package dev.strata.engine;

import static dev.strata.engine.EngineHarness.errors;
import static dev.strata.engine.EngineHarness.sorted;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk under concurrency: a failure stops only what depends on it, a stop lets running work
 * finish and starts nothing new, the parallelism bound holds, and whatever a provider does wrong
 * (errors, exceptions) ends as a diagnostic naming the object and the operation. Synchronised with
 * the provider's hooks and the engine's events, never with sleeps.
 */
@Timeout(60)
class WalkConcurrencyTest {
    private final EngineHarness h;

    WalkConcurrencyTest(@TempDir Path dir) {
        h = new EngineHarness(dir);
    }

    private final List<String> events = new CopyOnWriteArrayList<>();

    /** The engine's progress events as {@code "<event> <address> <action>"}. */
    private final EngineEvents recorder = new EngineEvents() {
        @Override
        public void applyStart(AbsResourceInstance addr, Action action, String deposed) {
            events.add("start " + addr + " " + action);
        }

        @Override
        public void applyComplete(AbsResourceInstance addr, Action action, String id, Duration elapsed) {
            events.add("complete " + addr + " " + action);
        }

        @Override
        public void applyErrored(AbsResourceInstance addr, Action action, Duration elapsed, Diagnostics diagnostics) {
            events.add("errored " + addr + " " + action);
            // A "slow" object still running when another fails proves the failure stayed on its own branch.
            h.fake.slowGate.countDown();
        }

        @Override
        public void instanceAdded(AbsResourceInstance addr, Action action) {
            events.add("added " + addr + " " + action);
        }
    };

    private Result<ApplyResult> apply(String tf) {
        return h.planAndApply(h.config(tf), h.options(), recorder);
    }

    /**
     * The repro of a past bug: "bad" fails while "slow" is still running (it completes only once the
     * failure is reported); before, the slow vertex saw the run's error count grow during its visit,
     * counted itself failed, and its dependent was skipped.
     */
    @Test
    void aFailureSkipsItsDependentsTransitivelyWhileEveryOtherBranchCompletes() {
        Result<ApplyResult> r = apply("""
                resource "fake_thing" "bad" { value = "fail" }
                resource "fake_thing" "child" { value = fake_thing.bad.id }
                resource "fake_thing" "grandchild" { value = fake_thing.child.id }
                resource "fake_thing" "slow" { value = "slow" }
                resource "fake_thing" "after_slow" { value = fake_thing.slow.id }
                resource "fake_thing" "free" {
                  count = 3
                  value = "f${count.index}"
                }
                """);
        ApplyResult a = r.value();
        assertThat(sorted(a.failed())).containsExactly("fake_thing.bad");
        assertThat(sorted(a.skipped())).containsExactly("fake_thing.child", "fake_thing.grandchild");
        assertThat(a.added()).isEqualTo(5);
        assertThat(h.stateAddresses())
                .containsExactly(
                        "fake_thing.after_slow",
                        "fake_thing.free[0]",
                        "fake_thing.free[1]",
                        "fake_thing.free[2]",
                        "fake_thing.slow");
        assertThat(events)
                .contains("errored fake_thing.bad CREATE", "complete fake_thing.after_slow CREATE")
                .noneMatch(e -> e.contains("fake_thing.child") || e.contains("grandchild"));
        assertThat(errors(r.diagnostics())).extracting(Diagnostic::summary).containsExactly("Invalid thing");
    }

    @Test
    void independentFailuresAreEachReportedOnceAndDoNotStopEachOther() {
        Result<ApplyResult> r = apply("""
                resource "fake_thing" "a" {
                  count = 4
                  value = count.index % 2 == 0 ? "fail" : "ok${count.index}"
                }
                """);
        assertThat(sorted(r.value().failed())).containsExactly("fake_thing.a[0]", "fake_thing.a[2]");
        assertThat(r.value().added()).isEqualTo(2);
        assertThat(h.stateAddresses()).containsExactly("fake_thing.a[1]", "fake_thing.a[3]");
        assertThat(errors(r.diagnostics()))
                .hasSize(2)
                .allSatisfy(d -> assertThat(d.summary()).isEqualTo("Invalid thing"));
    }

    @Test
    void aFailedInstanceSkipsWhatDependsOnItsResource() {
        Result<ApplyResult> r = apply("""
                resource "fake_thing" "a" {
                  count = 2
                  value = count.index == 1 ? "fail" : "ok"
                }
                resource "fake_thing" "b" { value = fake_thing.a[0].id }
                resource "fake_thing" "c" { value = "c" }
                """);
        assertThat(sorted(r.value().failed())).containsExactly("fake_thing.a[1]");
        // As in Terraform, a dependency is on the resource, not on one of its instances.
        assertThat(sorted(r.value().skipped())).containsExactly("fake_thing.b");
        assertThat(h.stateAddresses()).containsExactly("fake_thing.a[0]", "fake_thing.c");
    }

    @Test
    void aStopDuringTheApplyLetsRunningWorkFinishAndStartsNothingNew() {
        h.fake.beforeApply = req -> {
            if (req.plannedState().attributes().get("value").toString().contains("first")) {
                h.stop();
            }
        };
        Result<ApplyResult> r = apply("""
                resource "fake_thing" "first" { value = "first" }
                resource "fake_thing" "second" { value = "${fake_thing.first.id}-second" }
                resource "fake_thing" "third" { value = fake_thing.second.id }
                """);
        ApplyResult a = r.value();
        assertThat(a.interrupted()).isTrue();
        assertThat(a.added()).isEqualTo(1);
        assertThat(sorted(a.skipped())).containsExactly("fake_thing.second", "fake_thing.third");
        assertThat(a.failed()).isEmpty();
        assertThat(h.stateAddresses()).as("what ran was saved").containsExactly("fake_thing.first");
        assertThat(h.fake.applies).hasValue(1);
        assertThat(events).containsExactly("start fake_thing.first CREATE", "complete fake_thing.first CREATE");
    }

    @Test
    void anApplyAfterAStopCompletesWhatWasLeft() {
        h.fake.beforeApply = req -> h.stop();
        String tf = """
                resource "fake_thing" "first" { value = "first" }
                resource "fake_thing" "second" { value = fake_thing.first.id }
                """;
        assertThat(apply(tf).value().interrupted()).isTrue();
        h.fake.beforeApply = req -> {};
        Result<ApplyResult> again = apply(tf);
        assertThat(errors(again.diagnostics())).isEmpty();
        assertThat(again.value().interrupted()).isFalse();
        assertThat(again.value().added()).isEqualTo(1);
        assertThat(h.stateAddresses()).containsExactly("fake_thing.first", "fake_thing.second");
    }

    @Test
    void aStopWhilePlanningFailsThePlanWithoutChangingAnything() {
        h.fake.beforePlan = req -> h.stop();
        Result<Plan> p = h.plan(h.config("""
                resource "fake_thing" "a" { value = "a" }
                resource "fake_thing" "b" { value = fake_thing.a.id }
                """));
        assertThat(p.value()).isNull();
        assertThat(EngineHarness.errorTexts(p.diagnostics()))
                .containsExactly("Planning interrupted: The plan was "
                        + "interrupted before it was complete; nothing was changed.");
        assertThat(h.fake.applies).hasValue(0);
        assertThat(h.stateAddresses()).isEmpty();
    }

    @Test
    void noMoreProviderOperationsRunAtOnceThanTheParallelismAllows() {
        int parallelism = 2;
        CyclicBarrier pair = new CyclicBarrier(parallelism);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Throwable> problems = new CopyOnWriteArrayList<>();
        h.fake.beforeApply = req -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                // Only reached by two at once when two operations may run together.
                pair.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                problems.add(e);
            } finally {
                running.decrementAndGet();
            }
        };
        var tree = h.config("""
                resource "fake_thing" "a" {
                  count = 6
                  value = "v${count.index}"
                }
                """);
        PlanOptions opts = new PlanOptions(h.dir, "default", PlanMode.NORMAL, true, List.of(), List.of(), parallelism);
        Result<ApplyResult> r = h.planAndApply(tree, opts, recorder);
        assertThat(problems).isEmpty();
        assertThat(errors(r.diagnostics())).isEmpty();
        assertThat(r.value().added()).isEqualTo(6);
        assertThat(most).hasValue(parallelism);
    }

    @Test
    void aDeferredExpansionIsAppliedAsSoonAsItsCountIsKnownAndReportsEachNewInstance() {
        Result<ApplyResult> r = apply("""
                resource "fake_thing" "src" { value = "s" }
                resource "fake_thing" "a" {
                  count = fake_thing.src.serial - 5
                  value = "a${count.index}"
                }
                resource "fake_thing" "after" { value = length(fake_thing.a) }
                """);
        assertThat(errors(r.diagnostics())).isEmpty();
        assertThat(r.value().added()).isEqualTo(4);
        assertThat(events).contains("added fake_thing.a[0] CREATE", "added fake_thing.a[1] CREATE");
        assertThat(events.indexOf("complete fake_thing.src CREATE"))
                .isLessThan(events.indexOf("start fake_thing.a[0] CREATE"));
        assertThat(events.indexOf("complete fake_thing.a[1] CREATE"))
                .isLessThan(events.indexOf("start fake_thing.after CREATE"));
        assertThat(h.fake.applyLog).contains("- -> 2");
    }

    @Test
    void aFailureBeforeADeferredExpansionSkipsTheExpansion() {
        Result<ApplyResult> r = apply("""
                resource "fake_thing" "src" { value = "fail" }
                resource "fake_thing" "a" {
                  count = fake_thing.src.serial
                }
                resource "fake_thing" "other" { value = "o" }
                """);
        assertThat(sorted(r.value().failed())).containsExactly("fake_thing.src");
        assertThat(h.stateAddresses()).containsExactly("fake_thing.other");
        assertThat(events).noneMatch(e -> e.startsWith("added"));
    }

    @Test
    void aProviderErrorWhilePlanningNamesTheObject() {
        Result<Plan> p = h.plan(h.config("""
                resource "fake_thing" "a" { value = "plan-fail" }
                resource "fake_thing" "b" { value = "fine" }
                """));
        assertThat(p.value()).isNull();
        assertThat(errors(p.diagnostics())).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Invalid plan value");
            assertThat(d.address()).isEqualTo("fake_thing.a");
        });
    }

    @Test
    void aProviderThatThrowsWhileApplyingIsAnInternalErrorNamingTheObjectAndTheOperation() {
        Result<ApplyResult> r = apply("""
                resource "fake_thing" "a" { value = "crash" }
                resource "fake_thing" "after" { value = fake_thing.a.id }
                resource "fake_thing" "b" { value = "fine" }
                """);
        assertThat(sorted(r.value().failed())).containsExactly("fake_thing.a");
        assertThat(sorted(r.value().skipped())).containsExactly("fake_thing.after");
        assertThat(errors(r.diagnostics())).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Internal error");
            assertThat(d.detail())
                    .startsWith("Internal error while applying fake_thing.a: ")
                    .contains("Objects that depend on fake_thing.a were not started")
                    .doesNotContain("IllegalStateException", "java.", "at dev.");
        });
        assertThat(h.stateAddresses()).containsExactly("fake_thing.b");
    }

    @Test
    void aProviderErrorWhileDestroyingKeepsTheObjectAndWhatItDependsOn() {
        h.applied("""
                resource "fake_thing" "base" { value = "base" }
                resource "fake_thing" "top" { value = "${fake_thing.base.id}-top" }
                """);
        h.fake.permanentFailure = true;
        var tree = h.config("""
                resource "fake_thing" "base" { value = "base" }
                resource "fake_thing" "top" { value = "${fake_thing.base.id}-top" }
                """);
        Result<ApplyResult> r = h.planAndApply(tree, h.options(PlanMode.DESTROY, List.of(), List.of()), recorder);
        assertThat(sorted(r.value().failed())).containsExactly("fake_thing.top");
        assertThat(errors(r.diagnostics())).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Invalid thing");
            assertThat(d.address()).isEqualTo("fake_thing.top");
        });
        assertThat(events).contains("errored fake_thing.top DELETE").doesNotContain("start fake_thing.base DELETE");
        assertThat(h.stateAddresses()).containsExactly("fake_thing.base", "fake_thing.top");
    }
}
