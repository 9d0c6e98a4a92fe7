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
 * {@code time_offset}: a base timestamp plus offsets. Changing an offset updates the object in
 * place; the offset timestamp is known at plan time whenever the base is.
 */
final class TimeOffset implements ManagedResource {

    static final List<String> OFFSETS =
            List.of("offset_years", "offset_months", "offset_days", "offset_hours", "offset_minutes", "offset_seconds");

    private static final Schema SCHEMA;

    static {
        Block.Builder b = Block.builder()
                .attribute("base_rfc3339", Times.baseTimestamp())
                .attribute("triggers", Times.triggers())
                .attribute(
                        "rfc3339",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "RFC3339 format of the offset timestamp, e.g. `2020-02-12T06:36:13Z`."))
                .attribute(
                        "id",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "RFC3339 format of the offset timestamp, e.g. `2020-02-12T06:36:13Z`."));
        for (String o : OFFSETS) {
            String unit = o.substring("offset_".length());
            b.attribute(
                    o,
                    Attribute.optional(Type.NUMBER)
                            .withDescription(
                                    "Number of " + unit
                                            + " to offset the base timestamp. At least one of the 'offset_' arguments must be configured."));
        }
        Times.partAttributes(b);
        SCHEMA = Schema.of(b.build());
    }

    private final Clock clock;

    TimeOffset(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String typeName() {
        return "time_offset";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of("base_rfc3339", "triggers");
    }

    @Override
    public Set<String> stableComputed() {
        return Set.of("id");
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        boolean any = false;
        for (String o : OFFSETS) {
            Value v = Attrs.get(config, o);
            any |= !v.isKnown() || !v.isNull();
        }
        if (!any) {
            diags.error(
                    "Invalid Attribute Combination",
                    "At least one attribute out of [" + String.join(",", OFFSETS) + "] must be specified",
                    null);
        }
        Times.checkRfc3339(config, "base_rfc3339", diags);
    }

    @Override
    public Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
        Value base = Attrs.get(plan.planned(), "base_rfc3339");
        if (!base.isKnownAndNotNull()
                || !plan.requiresReplace().isEmpty()
                        && Attrs.get(plan.config(), "base_rfc3339").isNull()) {
            return plan.planned();
        }
        return compute(plan.planned(), Times.parse(base.asString()).orElseThrow());
    }

    private static Value compute(Value object, OffsetDateTime base) {
        OffsetDateTime t = Times.addDate(
                        base,
                        Times.whole(Attrs.number(object, "offset_years")),
                        Times.whole(Attrs.number(object, "offset_months")),
                        Times.whole(Attrs.number(object, "offset_days")))
                .plusHours(Times.whole(Attrs.number(object, "offset_hours")))
                .plusMinutes(Times.whole(Attrs.number(object, "offset_minutes")))
                .plusSeconds(Times.whole(Attrs.number(object, "offset_seconds")));
        return Attrs.with(
                Attrs.with(object, "rfc3339", Value.string(Times.format(t)), "id", Value.string(Times.format(base))),
                Times.parts(t));
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String given = Attrs.string(planned, "base_rfc3339");
        OffsetDateTime base = Times.givenOrNow(given, clock);
        return compute(
                Attrs.with(planned, "base_rfc3339", Value.string(given == null ? Times.format(base) : given)), base);
    }

    @Override
    public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
        return compute(
                planned, Times.parse(Attrs.string(planned, "base_rfc3339")).orElseThrow());
    }

    /** The id is {@code BASE_RFC3339,YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS}; empty offsets are left unset. */
    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        String[] p = id.split(",", -1);
        Optional<OffsetDateTime> base = p.length == 7 ? Times.parse(p[0]) : Optional.empty();
        if (base.isEmpty()) {
            diags.error(
                    "Import time offset error",
                    "The import ID must be BASETIMESTAMP,YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS"
                            + " with the base timestamp in RFC3339 format.",
                    null);
            return null;
        }
        Value v = Attrs.with(SCHEMA.block().emptyValue(), "base_rfc3339", Value.string(p[0]));
        try {
            for (int i = 0; i < OFFSETS.size(); i++) {
                if (!p[i + 1].isEmpty()) {
                    v = Attrs.with(v, OFFSETS.get(i), Value.number(Long.parseLong(p[i + 1])));
                }
            }
        } catch (NumberFormatException e) {
            diags.error("Import time offset error", "The offsets in the import ID must be whole numbers.", null);
            return null;
        }
        return compute(v, base.get());
    }
}
