package dev.strata.providers.time;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code time_rotating}: a base timestamp that is replaced once the current time passes the
 * rotation timestamp (base plus the rotation period, or {@code rotation_rfc3339}): a refresh after
 * that moment drops the object, so the next plan creates it again with a new base.
 */
final class TimeRotating implements ManagedResource {

    static final List<String> ROTATIONS =
            List.of("rotation_years", "rotation_months", "rotation_days", "rotation_hours", "rotation_minutes");

    private static final Schema SCHEMA;

    static {
        Block.Builder b = Block.builder()
                .attribute("rfc3339", Times.baseTimestamp())
                .attribute(
                        "rotation_rfc3339",
                        Attribute.optionalComputed(Type.STRING)
                                .withDescription(
                                        "Configure the rotation timestamp with an RFC3339 format of the offset timestamp. When the current"
                                                + " time has passed the rotation timestamp, the resource will trigger recreation."))
                .attribute("triggers", Times.triggers())
                .attribute(
                        "id",
                        Attribute.computed(Type.STRING)
                                .withDescription("RFC3339 format of the timestamp, e.g. `2020-02-12T06:36:13Z`."));
        for (String r : ROTATIONS) {
            String unit = r.substring("rotation_".length());
            b.attribute(
                    r,
                    Attribute.optional(Type.NUMBER)
                            .withDescription("Number of " + unit
                                    + " to add to the base timestamp to configure the rotation timestamp. When the current time has passed"
                                    + " the rotation timestamp, the resource will trigger recreation."));
        }
        Times.partAttributes(b);
        SCHEMA = Schema.of(b.build());
    }

    private final Clock clock;

    TimeRotating(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String typeName() {
        return "time_rotating";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of("rfc3339", "triggers");
    }

    @Override
    public Set<String> stableComputed() {
        return Set.of("id", "year", "month", "day", "hour", "minute", "second", "unix");
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        boolean any = false;
        for (String r : ROTATIONS) {
            Value v = Attrs.get(config, r);
            any |= !v.isKnown() || !v.isNull();
        }
        Value explicit = Attrs.get(config, "rotation_rfc3339");
        any |= !explicit.isKnown() || !explicit.isNull();
        if (!any) {
            diags.error(
                    "Invalid Attribute Combination",
                    "At least one attribute out of [" + String.join(",", ROTATIONS)
                            + ",rotation_rfc3339] must be specified",
                    null);
        }
        Times.checkRfc3339(config, "rfc3339", diags);
        Times.checkRfc3339(config, "rotation_rfc3339", diags);
    }

    @Override
    public Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
        Value base = Attrs.get(plan.planned(), "rfc3339");
        if (!base.isKnownAndNotNull()) {
            return plan.planned();
        }
        Value planned = plan.planned();
        if (Attrs.get(plan.config(), "rotation_rfc3339").isNull()) {
            planned = Attrs.with(planned, "rotation_rfc3339", Value.nullValue(Type.STRING));
        }
        return compute(planned, Times.parse(base.asString()).orElseThrow());
    }

    private static Value compute(Value object, OffsetDateTime base) {
        String rotation = Attrs.string(object, "rotation_rfc3339");
        if (rotation == null) {
            OffsetDateTime r = Times.addDate(
                            base,
                            Times.whole(Attrs.number(object, "rotation_years")),
                            Times.whole(Attrs.number(object, "rotation_months")),
                            Times.whole(Attrs.number(object, "rotation_days")))
                    .plusHours(Times.whole(Attrs.number(object, "rotation_hours")))
                    .plusMinutes(Times.whole(Attrs.number(object, "rotation_minutes")));
            rotation = Times.format(r);
        }
        Value given = Attrs.get(object, "rfc3339");
        String b = given.isKnownAndNotNull() ? given.unmarkDeep().asString() : Times.format(base);
        return Attrs.with(
                Attrs.with(
                        object,
                        "rfc3339",
                        Value.string(b),
                        "id",
                        Value.string(b),
                        "rotation_rfc3339",
                        Value.string(rotation)),
                Times.parts(base));
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String given = Attrs.string(planned, "rfc3339");
        OffsetDateTime base = Times.givenOrNow(given, clock);
        if (!Attrs.get(planned, "rotation_rfc3339").isKnown()) {
            planned = Attrs.with(planned, "rotation_rfc3339", Value.nullValue(Type.STRING));
        }
        Value v = compute(planned, base);
        return given == null ? v : Attrs.with(v, "rfc3339", Value.string(given), "id", Value.string(given));
    }

    @Override
    public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
        if (!Attrs.get(planned, "rotation_rfc3339").isKnown()) {
            planned = Attrs.with(planned, "rotation_rfc3339", Value.nullValue(Type.STRING));
        }
        return compute(planned, Times.parse(Attrs.string(prior, "rfc3339")).orElseThrow());
    }

    @Override
    public Value read(Value state, ProviderDiagnostics.Builder diags) {
        OffsetDateTime rotation =
                Times.parse(Attrs.string(state, "rotation_rfc3339")).orElseThrow();
        return OffsetDateTime.now(clock).isBefore(rotation) ? state : null;
    }

    /**
     * The id is {@code BASE,YEARS,MONTHS,DAYS,HOURS,MINUTES} (empty fields unset) or
     * {@code BASE,ROTATION_RFC3339}.
     */
    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        String[] p = id.split(",", -1);
        Optional<OffsetDateTime> base = p.length == 2 || p.length == 6 ? Times.parse(p[0]) : Optional.empty();
        if (base.isEmpty() || p.length == 2 && Times.parse(p[1]).isEmpty()) {
            diags.error(
                    "Import time rotating error",
                    "The import ID must be BASETIMESTAMP,YEARS,MONTHS,DAYS,HOURS,MINUTES"
                            + " or BASETIMESTAMP,ROTATIONTIMESTAMP, with timestamps in RFC3339 format.",
                    null);
            return null;
        }
        Value v = Attrs.with(SCHEMA.block().emptyValue(), "rfc3339", Value.string(p[0]));
        if (p.length == 2) {
            v = Attrs.with(v, "rotation_rfc3339", Value.string(p[1]));
        } else {
            try {
                for (int i = 0; i < ROTATIONS.size(); i++) {
                    if (!p[i + 1].isEmpty()) {
                        v = Attrs.with(v, ROTATIONS.get(i), Value.number(Long.parseLong(p[i + 1])));
                    }
                }
            } catch (NumberFormatException e) {
                diags.error(
                        "Import time rotating error", "The rotations in the import ID must be whole numbers.", null);
                return null;
            }
        }
        Value out = compute(v, base.get());
        return Attrs.with(out, "rfc3339", Value.string(p[0]), "id", Value.string(p[0]));
    }
}
