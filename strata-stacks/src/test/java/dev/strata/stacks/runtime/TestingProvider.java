package dev.strata.stacks.runtime;

import dev.strata.addr.Version;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderFunction;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.ProviderSource;
import dev.strata.provider.Schema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Test scope only: the schemas of the {@code testing} provider HashiCorp's Stacks tests run against
 * ({@code hashicorp/testing} 0.1.0, also addressed {@code terraform.io/builtin/testing} and
 * {@code other/testing}, and as {@code hashicorp/other} for the tests of aliased providers), which exists only inside Terraform's test suite. The resource types and
 * their attributes are the ones the reference configurations set and the Go tests' expected states
 * hold (an {@code id} and a {@code value} string on every type, plus each type's own knobs), and its
 * function {@code echo} returns its argument. It answers schema, validation and function calls only:
 * validation never plans or applies.
 */
public final class TestingProvider implements Provider {
    static final List<dev.strata.addr.Provider> ADDRESSES = List.of(
            dev.strata.addr.Provider.hashicorp("testing"),
            new dev.strata.addr.Provider("terraform.io", "builtin", "testing"),
            new dev.strata.addr.Provider(dev.strata.addr.Provider.DEFAULT_HOSTNAME, "other", "testing"),
            dev.strata.addr.Provider.hashicorp("other"));

    private static final Attribute ID = Attribute.optionalComputed(Type.STRING);
    private static final Attribute VALUE = Attribute.optionalComputed(Type.STRING);

    private static final ProviderSchema SCHEMA = buildSchema();

    private static ProviderSchema buildSchema() {
        Map<String, Schema> resources = new TreeMap<>();
        resources.put("testing_resource", idValue().build());
        resources.put("testing_resource_with_identity", idValue().build());
        resources.put(
                "testing_deferred_resource",
                idValue().attribute("deferred", Attribute.optional(Type.BOOL)).build());
        resources.put(
                "testing_failed_resource",
                idValue()
                        .attribute("fail_plan", Attribute.optional(Type.BOOL))
                        .attribute("fail_apply", Attribute.optional(Type.BOOL))
                        .build());
        resources.put(
                "testing_blocked_resource",
                idValue()
                        .attribute("required_resources", Attribute.optional(Type.set(Type.STRING)))
                        .build());
        resources.put(
                "testing_write_only_resource",
                idValue()
                        .attribute("write_only", Attribute.optional(Type.STRING).withWriteOnly())
                        .build());
        Map<String, Schema> data = new TreeMap<>();
        data.put(
                "testing_data_source",
                Schema.of(Block.builder()
                        .attribute("id", Attribute.required(Type.STRING))
                        .attribute("value", Attribute.computed(Type.STRING))
                        .build()));
        data.put(
                "testing_write_only_data_source",
                Schema.of(Block.builder()
                        .attribute("id", Attribute.required(Type.STRING))
                        .attribute("value", Attribute.computed(Type.STRING))
                        .attribute("write_only", Attribute.optional(Type.STRING).withWriteOnly())
                        .build()));
        Map<String, Schema> ephemeral = new TreeMap<>();
        ephemeral.put(
                "testing_resource",
                Schema.of(Block.builder()
                        .attribute("value", Attribute.computed(Type.STRING))
                        .build()));
        return new ProviderSchema(
                Schema.of(TestingProviderSchema.CONFIG),
                new TreeMap<>(resources),
                new TreeMap<>(data),
                Optional.empty(),
                new TreeMap<>(ephemeral));
    }

    private static Builder idValue() {
        return new Builder(Block.builder().attribute("id", ID).attribute("value", VALUE));
    }

    /** Collects one resource type's block. */
    private record Builder(Block.Builder block) {
        Builder attribute(String name, Attribute a) {
            block.attribute(name, a);
            return this;
        }

        Schema build() {
            return Schema.of(block.build());
        }
    }

    /** The testing provider under each of its addresses, then the built-in providers ({@code terraform}). */
    public static ProviderSource source() {
        List<ProviderFactory> factories = ADDRESSES.stream()
                .<ProviderFactory>map(a -> new ProviderFactory() {
                    @Override
                    public dev.strata.addr.Provider address() {
                        return a;
                    }

                    @Override
                    public Version version() {
                        return Version.of("0.1.0");
                    }

                    @Override
                    public Provider create() {
                        return new TestingProvider();
                    }
                })
                .toList();
        return ProviderSource.chain(ProviderRegistry.of(factories), ProviderRegistry.load());
    }

    @Override
    public ProviderSchema schema() {
        return SCHEMA;
    }

    @Override
    public SortedMap<String, ProviderFunction> functions() {
        return new TreeMap<>(Map.of(
                "echo",
                new ProviderFunction(
                        "echo",
                        List.of(ProviderFunction.Parameter.of("value", Type.DYNAMIC)),
                        Optional.empty(),
                        Type.DYNAMIC,
                        "Returns its argument",
                        "")));
    }

    @Override
    public Provider.CallFunctionResponse callFunction(Provider.CallFunctionRequest request) {
        return new Provider.CallFunctionResponse(request.arguments().getFirst(), null, java.util.OptionalInt.empty());
    }

    @Override
    public ProviderDiagnostics validateProviderConfig(Value config) {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public ProviderDiagnostics configure(Provider.ConfigureRequest request) {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public ProviderDiagnostics validateResourceConfig(String typeName, Value config) {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public ProviderDiagnostics validateDataResourceConfig(String typeName, Value config) {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public Provider.PlanResponse planResourceChange(Provider.PlanRequest request) {
        throw new UnsupportedOperationException("the testing provider only validates");
    }

    @Override
    public Provider.ApplyResponse applyResourceChange(Provider.ApplyRequest request) {
        throw new UnsupportedOperationException("the testing provider only validates");
    }

    @Override
    public Provider.ReadResponse readResource(Provider.ReadRequest request) {
        throw new UnsupportedOperationException("the testing provider only validates");
    }

    @Override
    public Provider.ImportResponse importResourceState(Provider.ImportRequest request) {
        throw new UnsupportedOperationException("the testing provider only validates");
    }

    @Override
    public Provider.UpgradeResponse upgradeResourceState(Provider.UpgradeRequest request) {
        throw new UnsupportedOperationException("the testing provider only validates");
    }

    @Override
    public Provider.ReadDataResponse readDataSource(Provider.ReadDataRequest request) {
        throw new UnsupportedOperationException("the testing provider only validates");
    }

    @Override
    public ProviderDiagnostics stop() {
        return ProviderDiagnostics.NONE;
    }
}
