package dev.strata.providers.nullprovider;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.DataSource;
import dev.strata.provider.sdk.ManagedResource;
import dev.strata.provider.sdk.SdkProvider;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * {@code hashicorp/null}: {@code null_resource}, which does nothing but can be replaced by
 * changing {@code triggers}, and the deprecated {@code null_data_source}, which echoes its inputs.
 */
final class NullProvider extends SdkProvider {

    NullProvider(Random random) {
        super(
                Schema.of(Block.builder().build()),
                List.of(new NullResource(random)),
                List.of(new NullDataSource(random)));
    }

    /** A non-negative 63-bit integer in decimal, as Go's {@code rand.Int()} gives the null provider its ids. */
    static String randomId(Random random) {
        return Long.toString(random.nextLong() & Long.MAX_VALUE);
    }

    static final class NullResource implements ManagedResource {
        private static final Schema SCHEMA = Schema.of(Block.builder()
                .attribute(
                        "triggers",
                        Attribute.optional(Type.map(Type.STRING))
                                .withDescription(
                                        "A map of arbitrary strings that, when changed, will force the null resource to be replaced,"
                                                + " re-running any associated provisioners."))
                .attribute(
                        "id",
                        Attribute.computed(Type.STRING)
                                .withDescription("This is set to a random value at create time."))
                .build());

        private final Random random;

        NullResource(Random random) {
            this.random = random;
        }

        @Override
        public String typeName() {
            return "null_resource";
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
        public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
            return Attrs.with(planned, "id", Value.string(randomId(random)));
        }
    }

    static final class NullDataSource implements DataSource {
        private static final Schema SCHEMA = Schema.of(Block.builder()
                .attribute(
                        "inputs",
                        Attribute.optional(Type.map(Type.STRING))
                                .withDescription(
                                        "A map of arbitrary strings that is copied into the `outputs` attribute, and accessible directly"
                                                + " for interpolation."))
                .attribute(
                        "outputs",
                        Attribute.computed(Type.map(Type.STRING))
                                .withDescription("After the data source is \"read\", a copy of the `inputs` map."))
                .attribute(
                        "random",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "A random value. This is primarily for testing and has little practical use; prefer the"
                                                + " hashicorp/random provider for more practical random number use-cases."))
                .attribute(
                        "has_computed_default",
                        Attribute.optionalComputed(Type.STRING)
                                .withDescription(
                                        "If set, its literal value will be stored and returned. If not, its value defaults to `\"default\"`."
                                                + " This argument exists primarily for testing and has little practical use."))
                .attribute(
                        "id",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "This attribute is only present for some legacy compatibility issues and should not be used. It"
                                                + " will be removed in a future version."))
                .deprecated()
                .description("The null_data_source was historically used to construct intermediate values to re-use"
                        + " elsewhere in configuration, the same can now be achieved using locals or the terraform_data"
                        + " resource type in Terraform 1.4 and later.")
                .build());

        private final Random random;

        NullDataSource(Random random) {
            this.random = random;
        }

        @Override
        public String typeName() {
            return "null_data_source";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public Value read(Value config, ProviderDiagnostics.Builder diags) {
            Value inputs = Attrs.get(config, "inputs");
            Value dflt = Attrs.get(config, "has_computed_default");
            return Attrs.with(
                    config,
                    "outputs",
                    inputs.isNull() ? Value.map(Type.STRING, Map.of()) : inputs,
                    "random",
                    Value.string(randomId(random)),
                    "has_computed_default",
                    dflt.isNull() ? Value.string("default") : dflt,
                    "id",
                    Value.string("static"));
        }
    }
}
