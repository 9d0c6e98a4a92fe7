package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.provider.ProviderRegistry;
import dev.strata.state.LocalBackend;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk owns its outcomes: each vertex fails on its own diagnostics only, whatever a visit or an
 * instance operation throws becomes a diagnostic naming the object (never a hang), and a known
 * {@code count} is decided at plan time.
 */
@Timeout(60)
class WalkOutcomeTest {
    @TempDir
    Path dir;

    private final FakeProvider fake = new FakeProvider();
    private final ProviderRegistry reg = ProviderRegistry.of(List.of(FakeProvider.factory(fake)));

    private ConfigTree config(String tf) throws IOException {
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  required_providers {
                    fake = { source = "example.com/test/fake" }
                  }
                }
                """ + tf);
        Result<ConfigTree> t = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        assertThat(t.diagnostics().hasErrors()).as(t.diagnostics().toString()).isFalse();
        return t.value();
    }

    private Result<Plan> plan(ConfigTree tree) {
        return Engine.builder(tree, reg, "test").build().plan(new TreeMap<>(), StateSnapshot.empty("test"),
                PlanOptions.defaults(dir), EngineEvents.NONE);
    }

    private Result<ApplyResult> planAndApply(ConfigTree tree) {
        PlanOptions opts = PlanOptions.defaults(dir);
        try (StateManager sm = LocalBackend.in(dir, "test").open("default", LockRequest.of("apply", Duration.ZERO))
                .value()) {
            Result<Plan> plan = Engine.builder(tree, reg, "test").build().plan(new TreeMap<>(), sm.state(), opts,
                    EngineEvents.NONE);
            assertThat(plan.value()).as(plan.diagnostics().toString()).isNotNull();
            return Engine.builder(tree, reg, "test").build().apply(plan.value(), sm, opts, EngineEvents.NONE);
        }
    }

    private StateSnapshot savedState() {
        try (StateManager sm = LocalBackend.in(dir, "test").open("default", LockRequest.of("check", Duration.ZERO))
                .value()) {
            return sm.state();
        }
    }

    private static List<String> addresses(StateSnapshot s) {
        return s.resources().stream().map(r -> r.addr().toString()).sorted().toList();
    }

    private static List<String> strings(List<?> l) {
        return l.stream().map(Object::toString).sorted().toList();
    }

    /**
     * The repro: "bad" fails at once while "slow" takes 3 s; before, the slow vertex saw the
     * run's error count grow during its visit, counted itself failed, and its dependent was skipped.
     */
    @Test
    void aFailureSkipsOnlyItsDependentsWhileAnIndependentSlowBranchCompletes() throws IOException {
        Result<ApplyResult> r = planAndApply(config("""
                resource "fake_thing" "bad" {
                  value = "fail"
                }
                resource "fake_thing" "after_bad" {
                  value = fake_thing.bad.id
                }
                resource "fake_thing" "slow" {
                  value = "slow"
                }
                resource "fake_thing" "after_slow" {
                  value = fake_thing.slow.id
                }
                """));
        ApplyResult a = r.value();
        assertThat(strings(a.failed())).containsExactly("fake_thing.bad");
        assertThat(strings(a.skipped())).containsExactly("fake_thing.after_bad");
        assertThat(a.added()).isEqualTo(2);
        assertThat(addresses(a.state())).containsExactly("fake_thing.after_slow", "fake_thing.slow");
        assertThat(r.diagnostics().asList()).filteredOn(Diagnostic::isError).extracting(Diagnostic::summary)
                .containsExactly("Invalid thing");
    }

    /** Before, a StackOverflowError escaped the visit without a completion and the plan waited forever. */
    @Test
    @Timeout(30)
    void aStackOverflowWhilePlanningIsADiagnosticNamingTheInstance() throws IOException {
        Result<Plan> p = plan(config("""
                resource "fake_thing" "deep" {
                  count = 2
                  value = "plan-overflow"
                }
                resource "fake_thing" "fine" {
                  value = "x"
                }
                """));
        assertThat(p.value()).isNull();
        List<Diagnostic> errors = p.diagnostics().asList().stream().filter(Diagnostic::isError).toList();
        assertThat(errors).extracting(Diagnostic::summary).containsExactly("Stack overflow", "Stack overflow");
        assertThat(errors).extracting(Diagnostic::detail).allSatisfy(d -> assertThat(d)
                .doesNotContain("Error", "java.", "Exception"));
        assertThat(errors).extracting(Diagnostic::detail).anySatisfy(d -> assertThat(d)
                .startsWith("Internal error while planning fake_thing.deep[0]: stack overflow."));
        assertThat(errors).extracting(Diagnostic::detail).anySatisfy(d -> assertThat(d)
                .startsWith("Internal error while planning fake_thing.deep[1]: stack overflow."));
    }

    @Test
    @Timeout(30)
    void aStackOverflowWhileApplyingFailsThatObjectAndTheRestIsAppliedAndSaved() throws IOException {
        Result<ApplyResult> r = planAndApply(config("""
                resource "fake_thing" "deep" {
                  value = "apply-overflow"
                }
                resource "fake_thing" "after_deep" {
                  value = fake_thing.deep.id
                }
                resource "fake_thing" "fine" {
                  value = "x"
                }
                """));
        ApplyResult a = r.value();
        assertThat(strings(a.failed())).containsExactly("fake_thing.deep");
        assertThat(strings(a.skipped())).containsExactly("fake_thing.after_deep");
        assertThat(r.diagnostics().asList()).filteredOn(Diagnostic::isError).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Stack overflow");
            assertThat(d.detail()).startsWith("Internal error while applying fake_thing.deep: stack overflow.");
        });
        assertThat(addresses(savedState())).containsExactly("fake_thing.fine");
    }

    /**
     * Out of memory ends the run: what has not started does not start ("after_slow" would start when
     * "slow" completes), what runs completes and is saved, and the error says what to do.
     */
    @Test
    void outOfMemoryStopsTheRunWithAClearErrorAndSavesWhatWasDone() throws IOException {
        Result<ApplyResult> r = planAndApply(config("""
                resource "fake_thing" "big" {
                  value = "apply-oom"
                }
                resource "fake_thing" "slow" {
                  value = "slow"
                }
                resource "fake_thing" "after_slow" {
                  value = fake_thing.slow.id
                }
                """));
        ApplyResult a = r.value();
        assertThat(strings(a.failed())).containsExactly("fake_thing.big");
        assertThat(strings(a.skipped())).containsExactly("fake_thing.after_slow");
        assertThat(r.diagnostics().asList()).filteredOn(Diagnostic::isError).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Out of memory");
            assertThat(d.detail()).startsWith("Internal error while applying fake_thing.big: out of memory.")
                    .contains("STRATA_JAVA_OPTS=-Xmx4g");
        });
        assertThat(addresses(savedState())).containsExactly("fake_thing.slow");
    }

    /** The walk's decisions at debug level, with timings, and never a value (here a sensitive one). */
    @Test
    void walkDecisionsAreLoggedWithoutValues() throws IOException {
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(Walk.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
                new ch.qos.logback.core.read.ListAppender<>();
        lines.start();
        log.addAppender(lines);
        log.setLevel(ch.qos.logback.classic.Level.DEBUG);
        Result<ApplyResult> r;
        try {
            r = planAndApply(config("""
                    locals {
                      secret = sensitive("hunter2-do-not-log")
                    }
                    resource "fake_thing" "bad" {
                      value = "fail"
                    }
                    resource "fake_thing" "after_bad" {
                      value = fake_thing.bad.id
                    }
                    resource "fake_thing" "holder" {
                      value = local.secret
                    }
                    resource "fake_thing" "later" {
                      count = length(fake_thing.holder.id) > 0 ? 1 : 0
                      value = local.secret
                    }
                    """));
        } finally {
            log.detachAppender(lines);
            log.setLevel(null);
        }
        assertThat(r.diagnostics().asList()).as(r.diagnostics().toString()).filteredOn(Diagnostic::isError)
                .extracting(Diagnostic::summary).containsExactly("Invalid thing");
        List<String> messages = lines.list.stream().map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                .toList();
        assertThat(messages).anySatisfy(m -> assertThat(m).matches("walk: fake_thing\\.bad failed after \\d+ ms with 1 "
                + "error\\(s\\)"));
        assertThat(messages).contains("walk: skipped fake_thing.after_bad: depends on fake_thing.bad, which did not "
                + "complete");
        assertThat(messages).anySatisfy(m -> assertThat(m).matches("walk: fake_thing\\.holder done after \\d+ ms"));
        assertThat(messages).anySatisfy(m -> assertThat(m).startsWith("walk: count at main.tf:")
                .endsWith("deferred until apply, waiting for [fake_thing.holder.id]"));
        assertThat(messages).anySatisfy(m -> assertThat(m).matches("walk: applying done: \\d+ vertices in \\d+ ms "
                + "\\(1 failed, 1 skipped\\)"));
        assertThat(messages).noneSatisfy(m -> assertThat(m).contains("hunter2"));
    }

    /** Before, a count above the largest int dropped the resource from the plan without a word. */
    @Test
    void aCountTooLargeToExpandIsAnErrorAtPlan() throws IOException {
        Result<Plan> p = plan(config("""
                resource "fake_thing" "a" {}
                resource "fake_thing" "many" {
                  count = 3000000000
                }
                """));
        assertThat(p.value()).isNull();
        assertThat(p.diagnostics().asList()).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Invalid count argument");
            assertThat(d.detail()).isEqualTo("The given \"count\" argument value is unsuitable: Strata supports at "
                    + "most 2147483647 instances of one resource or module.");
            assertThat(d.subject().start().line()).isEqualTo(8);
        });
    }
}
