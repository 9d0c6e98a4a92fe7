package dev.strata.providers.time;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AttributePath;
import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.testkit.Action;
import dev.strata.provider.testkit.ProviderTester;
import dev.strata.provider.testkit.ResourceTester;
import dev.strata.provider.testkit.Step;
import dev.strata.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TimeProviderTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2024-01-31T10:20:30.123Z"));
    private final List<Duration> slept = new ArrayList<>();

    private ProviderTester tester() {
        return ProviderTester.configure(new TimeProvider(clock, slept::add));
    }

    private static String str(Value v, String a) {
        return v.attributes().get(a).asString();
    }

    private static long num(Value v, String a) {
        return v.attributes().get(a).asNumber().longValueExact();
    }

    @Test
    void registered() {
        assertThat(ProviderRegistry.load()
                        .resolve(
                                Provider.impliedFor("time_static"),
                                VersionConstraint.parse(">= 0.9").value())
                        .hasErrors())
                .isFalse();
    }

    @Test
    void timeStaticRecordsCreationTime() {
        ResourceTester r = tester().resource("time_static");
        Value s = r.apply(Map.of()).state();
        assertThat(str(s, "rfc3339")).isEqualTo("2024-01-31T10:20:30Z").isEqualTo(str(s, "id"));
        assertThat(num(s, "year")).isEqualTo(2024);
        assertThat(num(s, "month")).isEqualTo(1);
        assertThat(num(s, "day")).isEqualTo(31);
        assertThat(num(s, "hour")).isEqualTo(10);
        assertThat(num(s, "minute")).isEqualTo(20);
        assertThat(num(s, "second")).isEqualTo(30);
        assertThat(num(s, "unix"))
                .isEqualTo(Instant.parse("2024-01-31T10:20:30Z").getEpochSecond());
        clock.advance(Duration.ofSeconds(3600));
        assertThat(r.apply(Map.of()).action()).isEqualTo(Action.NO_OP);
        r.importAndVerify("2024-01-31T10:20:30Z", Set.of());
        Step replaced = r.apply(Map.of("triggers", Value.map(Type.STRING, Map.of("v", Value.string("2")))));
        assertThat(replaced.action()).isEqualTo(Action.REPLACE);
        assertThat(str(replaced.state(), "rfc3339")).isEqualTo("2024-01-31T11:20:30Z");
        Value given = tester().resource("time_static")
                .apply(Map.of("rfc3339", Value.string("2020-02-12T06:36:13+01:00")))
                .state();
        assertThat(num(given, "hour")).isEqualTo(6);
        assertThat(num(given, "unix"))
                .isEqualTo(Instant.parse("2020-02-12T05:36:13Z").getEpochSecond());
        assertThat(tester().validateResource("time_static", Map.of("rfc3339", Value.string("yesterday")))
                        .hasErrors())
                .isTrue();
        r.destroy();
    }

    @Test
    void timeOffsetAddsLikeGo() {
        ResourceTester r = tester().resource("time_offset");
        Step s =
                r.apply(Map.of("base_rfc3339", Value.string("2024-01-31T00:00:00Z"), "offset_months", Value.number(1)));
        // Go's AddDate normalises Feb 31 to Mar 2 (2024 is a leap year).
        assertThat(str(s.state(), "rfc3339")).isEqualTo("2024-03-02T00:00:00Z");
        assertThat(s.planned().attributes().get("rfc3339").isKnown()).isTrue();
        assertThat(str(s.state(), "id")).isEqualTo("2024-01-31T00:00:00Z");
        Step u = r.apply(Map.of(
                "base_rfc3339",
                Value.string("2024-01-31T00:00:00Z"),
                "offset_months",
                Value.number(1),
                "offset_hours",
                Value.number(-1)));
        assertThat(u.action()).isEqualTo(Action.UPDATE);
        assertThat(str(u.state(), "rfc3339")).isEqualTo("2024-03-01T23:00:00Z");
        r.importAndVerify("2024-01-31T00:00:00Z,,1,,-1,,", Set.of());
        Value now = tester().resource("time_offset")
                .apply(Map.of("offset_days", Value.number(7)))
                .state();
        assertThat(str(now, "base_rfc3339")).isEqualTo("2024-01-31T10:20:30Z");
        assertThat(str(now, "rfc3339")).isEqualTo("2024-02-07T10:20:30Z");
        assertThat(tester().validateResource("time_offset", Map.of()).hasErrors())
                .isTrue();
        r.destroy();
    }

    @Test
    void timeRotatingIsReplacedAfterTheRotation() {
        ResourceTester r = tester().resource("time_rotating");
        Map<String, Value> cfg = Map.of("rotation_days", Value.number(1));
        Value s = r.apply(cfg).state();
        assertThat(str(s, "rfc3339")).isEqualTo("2024-01-31T10:20:30Z");
        assertThat(str(s, "rotation_rfc3339")).isEqualTo("2024-02-01T10:20:30Z");
        clock.advance(Duration.ofHours(23));
        assertThat(r.refresh().isNull()).isFalse();
        assertThat(r.apply(cfg).action()).isEqualTo(Action.NO_OP);
        Step longer = r.apply(Map.of("rotation_days", Value.number(1), "rotation_hours", Value.number(2)));
        assertThat(longer.action()).isEqualTo(Action.UPDATE);
        assertThat(str(longer.state(), "rotation_rfc3339")).isEqualTo("2024-02-01T12:20:30Z");
        assertThat(str(longer.state(), "id")).isEqualTo("2024-01-31T10:20:30Z");
        clock.advance(Duration.ofHours(3));
        assertThat(r.refresh().isNull()).isTrue();
        Step again = r.apply(cfg);
        assertThat(again.action()).isEqualTo(Action.CREATE);
        assertThat(str(again.state(), "rfc3339")).isEqualTo("2024-02-01T12:20:30Z");
        Value imp = r.importState("2024-01-01T00:00:00Z,2030-01-01T00:00:00Z");
        assertThat(str(imp, "rotation_rfc3339")).isEqualTo("2030-01-01T00:00:00Z");
        Value imp2 = r.importState("2024-02-01T00:00:00Z,1,,,,");
        assertThat(str(imp2, "rotation_rfc3339")).isEqualTo("2025-02-01T00:00:00Z");
        assertThat(imp2.attributes().get("rotation_years")).isEqualTo(Value.number(1));
        assertThat(tester().validateResource("time_rotating", Map.of()).hasErrors())
                .isTrue();
        r.destroy();
    }

    @Test
    void timeSleepWaitsOnCreateAndDestroy() {
        ResourceTester r = tester().resource("time_sleep");
        Value s = r.apply(Map.of("create_duration", Value.string("1m30s"), "destroy_duration", Value.string("2s")))
                .state();
        assertThat(slept).containsExactly(Duration.ofSeconds(90));
        assertThat(str(s, "id")).isEqualTo("2024-01-31T10:20:30Z");
        Step u = r.apply(Map.of("create_duration", Value.string("1h"), "destroy_duration", Value.string("2s")));
        assertThat(u.action()).isEqualTo(Action.UPDATE);
        assertThat(slept).hasSize(1);
        Step t = r.apply(Map.of(
                "create_duration",
                Value.string("1ms"),
                "destroy_duration",
                Value.string("2s"),
                "triggers",
                Value.map(Type.STRING, Map.of("x", Value.string("y")))));
        assertThat(t.action()).isEqualTo(Action.REPLACE);
        assertThat(t.requiresReplace()).containsExactly(AttributePath.of("triggers"));
        assertThat(slept).containsExactly(Duration.ofSeconds(90), Duration.ofSeconds(2), Duration.ofMillis(1));
        Value imp = r.importState("30s,");
        assertThat(str(imp, "create_duration")).isEqualTo("30s");
        assertThat(imp.attributes().get("destroy_duration").isNull()).isTrue();
        r.destroy();
        assertThat(slept).last().isEqualTo(Duration.ofSeconds(2));
        assertThat(tester().validateResource("time_sleep", Map.of("create_duration", Value.string("5 minutes")))
                        .hasErrors())
                .isTrue();
    }

    @Test
    void stopEndsARunningSleep() throws Exception {
        java.util.concurrent.CountDownLatch asleep = new java.util.concurrent.CountDownLatch(1);
        TimeProvider p = new TimeProvider(clock, d -> {
            asleep.countDown();
            Thread.sleep(d.toMillis());
        });
        ProviderTester t = ProviderTester.configure(p);
        var result = new java.util.concurrent.atomic.AtomicReference<dev.strata.provider.ProviderDiagnostics>();
        Thread worker = new Thread(() -> {
            var planned = t.provider()
                    .planResourceChange(new dev.strata.provider.Provider.PlanRequest(
                            "time_sleep",
                            p.schema().resourceType("time_sleep").block().nullValue(),
                            dev.strata.provider.SchemaValues.coerce(
                                            p.schema()
                                                    .resourceType("time_sleep")
                                                    .block(),
                                            Value.objectOf("create_duration", Value.string("1h")))
                                    .value(),
                            dev.strata.provider.SchemaValues.coerce(
                                            p.schema()
                                                    .resourceType("time_sleep")
                                                    .block(),
                                            Value.objectOf("create_duration", Value.string("1h")))
                                    .value(),
                            null))
                    .plannedState();
            result.set(t.provider()
                    .applyResourceChange(new dev.strata.provider.Provider.ApplyRequest(
                            "time_sleep",
                            p.schema().resourceType("time_sleep").block().nullValue(),
                            planned,
                            planned,
                            null,
                            "token"))
                    .diagnostics());
        });
        worker.start();
        assertThat(asleep.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        p.stop();
        worker.join(30_000);
        assertThat(worker.isAlive()).isFalse();
        assertThat(result.get().asList())
                .extracting(dev.strata.provider.ProviderDiagnostic::summary)
                .containsExactly("Interrupted");
    }

    @Test
    void goDurations() {
        assertThat(Times.parseDuration("1.5h")).contains(Duration.ofMinutes(90));
        assertThat(Times.parseDuration("300ms")).contains(Duration.ofMillis(300));
        assertThat(Times.parseDuration("2h45m10s")).contains(Duration.ofSeconds(2 * 3600 + 45 * 60 + 10));
        assertThat(Times.parseDuration("0")).contains(Duration.ZERO);
        assertThat(Times.parseDuration("10")).isEmpty();
        assertThat(Times.parseDuration("")).isEmpty();
        assertThat(Times.parseDuration("1d")).isEmpty();
    }
}
