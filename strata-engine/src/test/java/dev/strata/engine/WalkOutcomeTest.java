package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.config.ConfigTree;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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
    private final EngineHarness h;

    WalkOutcomeTest(@TempDir Path dir) {
        h = new EngineHarness(dir);
    }

    private ConfigTree config(String tf) {
        return h.config(tf);
    }

    private Result<Plan> plan(ConfigTree tree) {
        return h.plan(tree);
    }

    private Result<ApplyResult> planAndApply(ConfigTree tree) {
        return h.planAndApply(tree);
    }

    /** The apply failed {@code failed} alone with one error, and skipped only {@code skipped}. */
    private static void assertOneFailure(
            Result<ApplyResult> r, String failed, String skipped, String summary, String detailStart) {
        assertThat(EngineHarness.sorted(r.value().failed())).containsExactly(failed);
        assertThat(EngineHarness.sorted(r.value().skipped())).containsExactly(skipped);
        assertThat(EngineHarness.errors(r.diagnostics())).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo(summary);
            assertThat(d.detail()).startsWith(detailStart);
        });
    }

    /**
     * Runs {@code body} with the walk logging at debug level to {@code sink} (on the logging thread),
     * and returns the formatted messages.
     */
    private static List<String> walkLog(java.util.function.Consumer<String> sink, Runnable body) {
        ch.qos.logback.classic.Logger log =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(Walk.class);
        List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();
        ch.qos.logback.core.AppenderBase<ch.qos.logback.classic.spi.ILoggingEvent> appender =
                new ch.qos.logback.core.AppenderBase<>() {
                    @Override
                    protected void append(ch.qos.logback.classic.spi.ILoggingEvent e) {
                        messages.add(e.getFormattedMessage());
                        sink.accept(e.getFormattedMessage());
                    }
                };
        appender.start();
        log.addAppender(appender);
        log.setLevel(ch.qos.logback.classic.Level.DEBUG);
        try {
            body.run();
        } finally {
            log.detachAppender(appender);
            log.setLevel(null);
        }
        return messages;
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
        List<Diagnostic> errors =
                p.diagnostics().asList().stream().filter(Diagnostic::isError).toList();
        assertThat(errors).extracting(Diagnostic::summary).containsExactly("Stack overflow", "Stack overflow");
        assertThat(errors)
                .extracting(Diagnostic::detail)
                .allSatisfy(d -> assertThat(d).doesNotContain("Error", "java.", "Exception"));
        assertThat(errors)
                .extracting(Diagnostic::detail)
                .anySatisfy(d ->
                        assertThat(d).startsWith("Internal error while planning fake_thing.deep[0]: stack overflow."));
        assertThat(errors)
                .extracting(Diagnostic::detail)
                .anySatisfy(d ->
                        assertThat(d).startsWith("Internal error while planning fake_thing.deep[1]: stack overflow."));
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
        assertOneFailure(
                r,
                "fake_thing.deep",
                "fake_thing.after_deep",
                "Stack overflow",
                "Internal error while applying fake_thing.deep: stack overflow.");
        assertThat(h.stateAddresses()).containsExactly("fake_thing.fine");
    }

    /**
     * Out of memory ends the run: what has not started does not start ("after_slow" would start when
     * "slow" completes), what runs completes and is saved, and the error says what to do. "big" runs
     * out of memory only once "slow" has started, and "slow" completes only once the walk has taken
     * the error.
     */
    @Test
    void outOfMemoryStopsTheRunWithAClearErrorAndSavesWhatWasDone() throws IOException {
        java.util.concurrent.CountDownLatch slowStarted = new java.util.concurrent.CountDownLatch(1);
        h.fake.beforeApply = req -> {
            String v = req.plannedState().attributes().get("value").asString();
            if (v.equals("slow")) {
                slowStarted.countDown();
            } else if (v.equals("apply-oom")) {
                await(slowStarted);
            }
        };
        ConfigTree tree = config("""
                resource "fake_thing" "big" {
                  value = "apply-oom"
                }
                resource "fake_thing" "slow" {
                  value = "slow"
                }
                resource "fake_thing" "after_slow" {
                  value = fake_thing.slow.id
                }
                """);
        List<Result<ApplyResult>> result = new java.util.ArrayList<>();
        walkLog(
                m -> {
                    if (m.startsWith("walk: fake_thing.big threw")) {
                        h.fake.slowGate.countDown();
                    }
                },
                () -> result.add(planAndApply(tree)));
        Result<ApplyResult> r = result.getFirst();
        assertOneFailure(
                r,
                "fake_thing.big",
                "fake_thing.after_slow",
                "Out of memory",
                "Internal error while applying fake_thing.big: out of memory.");
        assertThat(r.diagnostics().asList().getFirst().detail()).contains("STRATA_JAVA_OPTS=-Xmx4g");
        assertThat(h.stateAddresses()).containsExactly("fake_thing.slow");
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            assertThat(latch.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The walk's decisions at debug level, with timings, and never a value (here a sensitive one). */
    @Test
    void walkDecisionsAreLoggedWithoutValues() throws IOException {
        ConfigTree tree = config("""
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
                """);
        List<Result<ApplyResult>> result = new java.util.ArrayList<>();
        List<String> messages = walkLog(m -> {}, () -> result.add(planAndApply(tree)));
        Result<ApplyResult> r = result.getFirst();
        assertThat(r.diagnostics().asList())
                .as(r.diagnostics().toString())
                .filteredOn(Diagnostic::isError)
                .extracting(Diagnostic::summary)
                .containsExactly("Invalid thing");
        assertThat(messages)
                .anySatisfy(m ->
                        assertThat(m).matches("walk: fake_thing\\.bad failed after \\d+ ms with 1 " + "error\\(s\\)"));
        assertThat(messages)
                .contains("walk: skipped fake_thing.after_bad: depends on fake_thing.bad, which did not " + "complete");
        assertThat(messages).anySatisfy(m -> assertThat(m).matches("walk: fake_thing\\.holder done after \\d+ ms"));
        assertThat(messages)
                .anySatisfy(m -> assertThat(m)
                        .startsWith("walk: count at main.tf:")
                        .endsWith("deferred until apply, waiting for [fake_thing.holder.id]"));
        assertThat(messages)
                .anySatisfy(m -> assertThat(m)
                        .matches("walk: applying done: \\d+ vertices in \\d+ ms " + "\\(1 failed, 1 skipped\\)"));
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
            assertThat(d.detail())
                    .isEqualTo("The given \"count\" argument value is unsuitable: Strata supports at "
                            + "most 2147483647 instances of one resource or module.");
            assertThat(d.subject().start().line()).isEqualTo(8);
        });
    }
}
