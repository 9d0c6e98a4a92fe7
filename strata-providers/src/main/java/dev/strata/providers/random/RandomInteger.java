package dev.strata.providers.random;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.util.Random;
import java.util.Set;

/** {@code random_integer}: a whole number in [{@code min}, {@code max}], repeatable with {@code seed}. */
final class RandomInteger implements ManagedResource {

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(Common.KEEPERS, Common.keepers())
            .attribute(
                    "min", Attribute.required(Type.NUMBER).withDescription("The minimum inclusive value of the range."))
            .attribute(
                    "max", Attribute.required(Type.NUMBER).withDescription("The maximum inclusive value of the range."))
            .attribute(
                    "seed",
                    Attribute.optional(Type.STRING).withDescription("A custom seed to always produce the same value."))
            .attribute("result", Attribute.computed(Type.NUMBER).withDescription("The random integer result."))
            .attribute(
                    "id",
                    Attribute.computed(Type.STRING).withDescription("The string representation of the integer result."))
            .build());

    private final SecureRandom random;

    RandomInteger(SecureRandom random) {
        this.random = random;
    }

    @Override
    public String typeName() {
        return "random_integer";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of(Common.KEEPERS, "min", "max", "seed");
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value min = Attrs.get(config, "min").unmarkDeep();
        Value max = Attrs.get(config, "max").unmarkDeep();
        for (Value v : new Value[] {min, max}) {
            if (v.isKnownAndNotNull() && !isWhole(v.asNumber())) {
                diags.error("Invalid Attribute Value", "min and max must be whole numbers.", null);
                return;
            }
        }
        if (min.isKnownAndNotNull() && max.isKnownAndNotNull() && min.asNumber().compareTo(max.asNumber()) > 0) {
            diags.error(
                    "Create Random Integer Error",
                    "The minimum (min) value needs to be smaller than or equal to maximum (max) value.",
                    null);
        }
    }

    private static boolean isWhole(BigDecimal d) {
        return d.signum() == 0 || d.scale() <= 0 || d.stripTrailingZeros().scale() <= 0;
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        long min = Attrs.number(planned, "min").longValueExact();
        long max = Attrs.number(planned, "max").longValueExact();
        if (max < min) {
            diags.error(
                    "Create Random Integer Error",
                    "The minimum (min) value needs to be smaller than or equal to maximum (max) value.",
                    null);
            return null;
        }
        Random rng = Common.forSeed(Attrs.string(planned, "seed"), random);
        long result = min + rng.nextLong(max - min + 1);
        return Attrs.with(planned, "result", Value.number(result), "id", Value.string(Long.toString(result)));
    }

    /** The id is {@code result,min,max} or {@code result,min,max,seed}. */
    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        String[] parts = id.split(",", -1);
        if (parts.length != 3 && parts.length != 4) {
            diags.error("Invalid Import ID", "The import ID must be result,min,max or result,min,max,seed.", null);
            return null;
        }
        try {
            long result = Long.parseLong(parts[0]);
            long min = Long.parseLong(parts[1]);
            long max = Long.parseLong(parts[2]);
            return Attrs.with(
                    SCHEMA.block().emptyValue(),
                    "result",
                    Value.number(result),
                    "id",
                    Value.string(parts[0]),
                    "min",
                    Value.number(min),
                    "max",
                    Value.number(max),
                    "seed",
                    parts.length == 4 ? Value.string(parts[3]) : Value.nullValue(Type.STRING));
        } catch (NumberFormatException e) {
            diags.error(
                    "Import Random Integer Error",
                    "The result, min and max in the import ID must be whole numbers.",
                    null);
            return null;
        }
    }
}
