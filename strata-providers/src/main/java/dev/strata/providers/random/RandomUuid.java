package dev.strata.providers.random;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** {@code random_uuid}: a random UUID string, the id as well as the result. */
final class RandomUuid implements ManagedResource {

    static final Pattern FORMAT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(Common.KEEPERS, Common.keepers())
            .attribute(
                    "result",
                    Attribute.computed(Type.STRING).withDescription("The generated uuid presented in string format."))
            .attribute(
                    "id",
                    Attribute.computed(Type.STRING).withDescription("The generated uuid presented in string format."))
            .build());

    private final SecureRandom random;

    RandomUuid(SecureRandom random) {
        this.random = random;
    }

    @Override
    public String typeName() {
        return "random_uuid";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of(Common.KEEPERS);
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String u = Common.uuid(random);
        return Attrs.with(planned, "result", Value.string(u), "id", Value.string(u));
    }

    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        String u = id.toLowerCase(Locale.ROOT);
        if (!FORMAT.matcher(u).matches()) {
            diags.error("Random UUID Import Error", "The id is not a UUID (8-4-4-4-12 hexadecimal digits).", null);
            return null;
        }
        return Attrs.with(SCHEMA.block().emptyValue(), "result", Value.string(u), "id", Value.string(u));
    }
}
