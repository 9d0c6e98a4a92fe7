package dev.strata.providers.time;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import dev.strata.resilience.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code time_sleep}: waits {@code create_duration} when created and {@code destroy_duration}
 * when destroyed (Go duration strings such as {@code 30s} or {@code 1m30s}); changing a duration
 * is an in-place update that does not wait.
 */
final class TimeSleep implements ManagedResource {

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(
                    "create_duration",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "Time duration to delay resource creation. For example, `30s` for 30 seconds or `5m` for 5 minutes."
                                            + " Updating this value by itself will not trigger a delay."))
            .attribute(
                    "destroy_duration",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "Time duration to delay resource destroy. For example, `30s` for 30 seconds or `5m` for 5 minutes."
                                            + " Updating this value by itself will not trigger a delay. This value or any updates to it must"
                                            + " be successfully applied into the Terraform state before destroying this resource to take effect."))
            .attribute(
                    "triggers",
                    Attribute.optional(Type.map(Type.STRING))
                            .withDescription(
                                    "(Optional) Arbitrary map of values that, when changed, will run any creation or destroy delays again."))
            .attribute(
                    "id",
                    Attribute.computed(Type.STRING)
                            .withDescription("RFC3339 format of the offset timestamp, e.g. `2020-02-12T06:36:13Z`."))
            .build());

    private final Clock clock;
    private final Sleeper sleeper;
    private final java.util.Set<Thread> sleeping = java.util.concurrent.ConcurrentHashMap.newKeySet();

    TimeSleep(Clock clock, Sleeper sleeper) {
        this.clock = clock;
        this.sleeper = sleeper;
    }

    @Override
    public String typeName() {
        return "time_sleep";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of("triggers");
    }

    @Override
    public Set<String> stableComputed() {
        return Set.of("id");
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        boolean any = false;
        for (String a : List.of("create_duration", "destroy_duration")) {
            Value v = Attrs.get(config, a).unmarkDeep();
            any |= !v.isKnown() || !v.isNull();
            if (v.isKnownAndNotNull() && Times.parseDuration(v.asString()).isEmpty()) {
                diags.error(
                        "Invalid Attribute Value",
                        "Attribute " + a + " must be a string containing a Go time duration" + " (e.g. 30s, 1m30s)",
                        AttributePath.of(a));
            }
        }
        if (!any) {
            diags.error(
                    "Invalid Attribute Combination",
                    "At least one attribute out of [create_duration,destroy_duration] must be specified",
                    null);
        }
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        if (!sleep(Attrs.string(planned, "create_duration"), diags)) {
            return null;
        }
        return Attrs.with(
                planned,
                "id",
                Value.string(Times.format(OffsetDateTime.now(clock)
                        .withOffsetSameInstant(ZoneOffset.UTC)
                        .withNano(0))));
    }

    @Override
    public void delete(Value prior, ProviderDiagnostics.Builder diags) {
        sleep(Attrs.string(prior, "destroy_duration"), diags);
    }

    private boolean sleep(String duration, ProviderDiagnostics.Builder diags) {
        if (duration == null) {
            return true;
        }
        Duration d = Times.parseDuration(duration).orElse(Duration.ZERO);
        sleeping.add(Thread.currentThread());
        try {
            if (!d.isNegative() && !d.isZero()) {
                sleeper.sleep(d);
            }
            return true;
        } catch (InterruptedException e) {
            diags.error("Interrupted", "The sleep was interrupted before its duration passed.", null);
            return false;
        } finally {
            sleeping.remove(Thread.currentThread());
        }
    }

    /** Ends every sleep in progress early, for the provider's {@code stop}. */
    void interruptSleeps() {
        sleeping.forEach(Thread::interrupt);
    }

    /** The id is {@code CREATE_DURATION,DESTROY_DURATION}; either may be empty. */
    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        String[] p = id.split(",", -1);
        if (p.length != 2) {
            diags.error("Import time sleep error", "The import ID must be CREATEDURATION,DESTROYDURATION.", null);
            return null;
        }
        Value v = SCHEMA.block().emptyValue();
        for (int i = 0; i < 2; i++) {
            if (!p[i].isEmpty()) {
                Optional<Duration> d = Times.parseDuration(p[i]);
                if (d.isEmpty()) {
                    diags.error("Import time sleep error", "\"" + p[i] + "\" is not a Go time duration.", null);
                    return null;
                }
                v = Attrs.with(v, i == 0 ? "create_duration" : "destroy_duration", Value.string(p[i]));
            }
        }
        return Attrs.with(
                v,
                "id",
                Value.string(Times.format(OffsetDateTime.now(clock)
                        .withOffsetSameInstant(ZoneOffset.UTC)
                        .withNano(0))));
    }
}
