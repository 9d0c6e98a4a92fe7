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
import java.util.Optional;
import java.util.Set;

/** {@code time_static}: a timestamp taken at create (or given) and kept in state. */
final class TimeStatic implements ManagedResource {

    private static final Schema SCHEMA;

    static {
        Block.Builder b = Block.builder()
                .attribute("rfc3339", Times.baseTimestamp())
                .attribute("triggers", Times.triggers())
                .attribute(
                        "id",
                        Attribute.computed(Type.STRING)
                                .withDescription("RFC3339 format of the timestamp, e.g. `2020-02-12T06:36:13Z`."));
        Times.partAttributes(b);
        SCHEMA = Schema.of(b.build());
    }

    private final Clock clock;

    TimeStatic(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String typeName() {
        return "time_static";
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
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Times.checkRfc3339(config, "rfc3339", diags);
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String given = Attrs.string(planned, "rfc3339");
        OffsetDateTime t = Times.givenOrNow(given, clock);
        String text = given == null ? Times.format(t) : given;
        return Attrs.with(Attrs.with(planned, "rfc3339", Value.string(text), "id", Value.string(text)), Times.parts(t));
    }

    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        Optional<OffsetDateTime> t = Times.parse(id);
        if (t.isEmpty()) {
            diags.error("Import time static error", "The import ID must be a timestamp in RFC3339 format.", null);
            return null;
        }
        return Attrs.with(
                Attrs.with(SCHEMA.block().emptyValue(), "rfc3339", Value.string(id), "id", Value.string(id)),
                Times.parts(t.get()));
    }
}
