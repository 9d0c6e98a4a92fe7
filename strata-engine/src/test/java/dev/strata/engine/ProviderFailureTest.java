package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider's errors in each operation (refresh, plan, apply, delete) become diagnostics that name
 * the object and the operation; transient ones are retried with an event per attempt.
 */
class ProviderFailureTest {
    private final EngineHarness h;

    ProviderFailureTest(@TempDir Path dir) {
        h = new EngineHarness(dir);
    }

    @Test
    void aFailedRefreshFailsThePlanNamingTheObject() {
        h.applied("resource \"fake_thing\" \"a\" { value = \"x\" }\n");
        h.fake.readFails = true;
        Result<Plan> p = h.plan(h.config("resource \"fake_thing\" \"a\" { value = \"x\" }\n"));
        assertThat(p.value()).isNull();
        assertThat(EngineHarness.errorTexts(p.diagnostics()))
                .containsExactly("with fake_thing.a, Cannot read: The API did not answer.");
    }

    @Test
    void withoutARefreshAFailingReadIsNotCalled() {
        h.applied("resource \"fake_thing\" \"a\" { value = \"x\" }\n");
        h.fake.readFails = true;
        PlanOptions noRefresh = new PlanOptions(h.dir, "default", PlanMode.NORMAL, false, List.of(), List.of(), 10);
        Plan p = h.planned(h.config("resource \"fake_thing\" \"a\" { value = \"y\" }\n"), noRefresh);
        assertThat(EngineHarness.actions(p)).containsExactly("fake_thing.a update");
    }

    @Test
    void aPlanErrorIsReportedForEachInstanceItHits() {
        Result<Plan> p = h.plan(h.config("""
                resource "fake_thing" "a" {
                  count = 3
                  value = count.index == 1 ? "fine" : "plan-fail"
                }
                """));
        assertThat(p.value()).isNull();
        assertThat(EngineHarness.errorTexts(p.diagnostics()))
                .containsExactlyInAnyOrder(
                        "with fake_thing.a[0], Invalid plan value: The API would not accept this one.",
                        "with fake_thing.a[2], Invalid plan value: The API would not accept this one.");
    }

    @Test
    void aFailedUpdateKeepsThePriorObject() {
        h.applied("resource \"fake_thing\" \"a\" { value = \"x\" }\n");
        Result<ApplyResult> r = h.planAndApply(h.config("resource \"fake_thing\" \"a\" { value = \"fail\" }\n"));
        assertThat(EngineHarness.sorted(r.value().failed())).containsExactly("fake_thing.a");
        assertThat(EngineHarness.errors(r.diagnostics()))
                .extracting(Diagnostic::address)
                .containsExactly("fake_thing.a");
        String json = new String(dev.strata.state.StateCodec.write(h.state()));
        assertThat(json).contains("\"value\": \"x\"").doesNotContain("\"value\": \"fail\"");
    }

    @Test
    void transientFailuresAreRetriedWithAnEventPerAttempt() {
        h.fake.transientFailuresLeft = 2;
        List<String> retries = new CopyOnWriteArrayList<>();
        Result<ApplyResult> r = h.planAndApply(
                h.config("resource \"fake_thing\" \"a\" { value = \"x\" }\n"), h.options(), new EngineEvents() {
                    @Override
                    public void retrying(AbsResourceInstance addr, int attempt, Duration delay, String why) {
                        retries.add(addr + " attempt " + attempt + ": " + why);
                    }
                });
        assertThat(EngineHarness.errors(r.diagnostics())).isEmpty();
        assertThat(retries)
                .hasSize(2)
                .allSatisfy(
                        s -> assertThat(s).startsWith("fake_thing.a attempt ").contains("Throttled"));
        assertThat(h.fake.applies).hasValue(3);
    }
}
