package dev.strata.cli.tftest;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.DataSource;
import dev.strata.provider.sdk.ManagedResource;
import dev.strata.provider.sdk.SdkProvider;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code hashicorp/test}, the provider the scenarios of Terraform's own {@code terraform test} suite
 * are written against, with the same resource and data source shapes: {@code test_resource} stores its
 * {@code value} under its {@code id} in {@link #STORE} (failing on purpose with {@code apply_fail} or
 * {@code destroy_fail}), and {@code test_data_source} reads a stored value back by id. The store is
 * shared by all instances, so that a test can count what cleanup left behind.
 */
final class TestProvider extends SdkProvider {
    /** Objects that exist, by id: the provider's remote system. */
    static final Map<String, Value> STORE = new ConcurrentHashMap<>();

    /**
     * Where this instance's objects live in the store, as Terraform's test provider does: under
     * {@code resource_prefix/ID} for the resources it writes, {@code data_prefix/ID} for the data
     * sources it reads (the bare ID without a prefix).
     */
    static final class Prefixes {
        volatile String resource = "";
        volatile String data = "";

        static String key(String prefix, String id) {
            return prefix.isEmpty() ? id : prefix + "/" + id;
        }
    }

    private final Prefixes prefixes;

    TestProvider() {
        this(new Prefixes());
    }

    private TestProvider(Prefixes prefixes) {
        super(
                Schema.of(Block.builder()
                        .attribute("data_prefix", Attribute.optional(Type.STRING))
                        .attribute("resource_prefix", Attribute.optional(Type.STRING))
                        .build()),
                List.of(new TestResource(prefixes)),
                List.of(new TestDataSource(prefixes)));
        this.prefixes = prefixes;
    }

    /** {@code test_ephemeral_resource}: opens with {@code value = "bar"}, closes without a trace. */
    private static final Schema EPHEMERAL = Schema.of(
            Block.builder().attribute("value", Attribute.computed(Type.STRING)).build());

    @Override
    public dev.strata.provider.ProviderSchema schema() {
        dev.strata.provider.ProviderSchema s = super.schema();
        return new dev.strata.provider.ProviderSchema(
                s.provider(),
                s.resourceTypes(),
                s.dataSources(),
                s.providerMeta(),
                new java.util.TreeMap<>(Map.of("test_ephemeral_resource", EPHEMERAL)));
    }

    @Override
    public OpenEphemeralResponse openEphemeralResource(OpenEphemeralRequest request) {
        return OpenEphemeralResponse.of(
                Value.objectOf("value", Value.string("bar")), null, dev.strata.provider.PrivateState.EMPTY);
    }

    @Override
    public dev.strata.provider.ProviderDiagnostics closeEphemeralResource(CloseEphemeralRequest request) {
        return dev.strata.provider.ProviderDiagnostics.NONE;
    }

    @Override
    protected void configure(Value config, ProviderDiagnostics.Builder diags) {
        String r = Attrs.string(config, "resource_prefix");
        String d = Attrs.string(config, "data_prefix");
        prefixes.resource = r == null ? "" : r;
        prefixes.data = d == null ? "" : d;
    }

    /** {@code provider::test::is_true(bool)}: whether its argument is true. */
    @Override
    public java.util.SortedMap<String, dev.strata.provider.ProviderFunction> functions() {
        return new java.util.TreeMap<>(Map.of(
                "is_true",
                new dev.strata.provider.ProviderFunction(
                        "is_true",
                        List.of(dev.strata.provider.ProviderFunction.Parameter.of("input", Type.BOOL)),
                        java.util.Optional.empty(),
                        Type.BOOL,
                        "",
                        "")));
    }

    @Override
    public CallFunctionResponse callFunction(CallFunctionRequest request) {
        if (!request.name().equals("is_true")) {
            return super.callFunction(request);
        }
        return CallFunctionResponse.of(Value.bool(request.arguments().getFirst().asBool()));
    }

    static final class TestResource implements ManagedResource {
        private final Prefixes prefixes;

        TestResource(Prefixes prefixes) {
            this.prefixes = prefixes;
        }

        private static final Schema SCHEMA = Schema.of(Block.builder()
                .attribute("id", Attribute.optionalComputed(Type.STRING))
                .attribute("value", Attribute.optional(Type.STRING))
                .attribute("interrupt_count", Attribute.optional(Type.NUMBER))
                .attribute("destroy_fail", Attribute.optional(Type.BOOL))
                .attribute("apply_fail", Attribute.optional(Type.BOOL))
                .attribute("create_wait_seconds", Attribute.optional(Type.NUMBER))
                .attribute("destroy_wait_seconds", Attribute.optional(Type.NUMBER))
                .attribute("defer", Attribute.optional(Type.BOOL))
                .attribute("write_only", Attribute.optional(Type.STRING).withWriteOnly())
                .build());

        @Override
        public String typeName() {
            return "test_resource";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public java.util.Set<String> stableComputed() {
            return java.util.Set.of("id");
        }

        @Override
        public Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
            // As Terraform's test provider: the write-only value is used, never planned or stored.
            return plan.planned().isNull()
                    ? plan.planned()
                    : Attrs.with(plan.planned(), "write_only", Value.nullValue(Type.STRING));
        }

        @Override
        public Value create(Value planned, Value config, String token, ProviderDiagnostics.Builder diags) {
            if (Boolean.TRUE.equals(Attrs.bool(config, "apply_fail"))) {
                diags.add(ProviderDiagnostic.error("Failed to create resource", "apply_fail is set to true"));
                return Value.NULL;
            }
            Value id = Attrs.get(planned, "id");
            if (!id.isKnownAndNotNull()) {
                id = Value.string(UUID.randomUUID().toString().substring(0, 8));
            }
            Value out = Attrs.with(planned, "id", id);
            STORE.put(Prefixes.key(prefixes.resource, id.asString()), out);
            return out;
        }

        @Override
        public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
            Value out = Attrs.with(planned, "id", Attrs.get(prior, "id"));
            STORE.put(Prefixes.key(prefixes.resource, Attrs.string(out, "id")), out);
            return out;
        }

        @Override
        public void delete(Value prior, ProviderDiagnostics.Builder diags) {
            if (Boolean.TRUE.equals(Attrs.bool(prior, "destroy_fail"))) {
                diags.add(ProviderDiagnostic.error("Failed to destroy resource", "destroy_fail is set to true"));
                return;
            }
            STORE.remove(Prefixes.key(prefixes.resource, Attrs.string(prior, "id")));
        }
    }

    static final class TestDataSource implements DataSource {
        private final Prefixes prefixes;

        TestDataSource(Prefixes prefixes) {
            this.prefixes = prefixes;
        }

        private static final Schema SCHEMA = Schema.of(Block.builder()
                .attribute("id", Attribute.required(Type.STRING))
                .attribute("value", Attribute.computed(Type.STRING))
                .attribute("write_only", Attribute.optional(Type.STRING).withSensitive())
                .build());

        @Override
        public String typeName() {
            return "test_data_source";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public Value read(Value config, ProviderDiagnostics.Builder diags) {
            String id = Attrs.string(config, "id");
            Value stored = STORE.get(Prefixes.key(prefixes.data, id));
            if (stored == null) {
                diags.add(ProviderDiagnostic.error("not found", "test_resource \"" + id + "\" does not exist"));
                return Value.NULL;
            }
            return Attrs.with(config, "value", Attrs.get(stored, "value"));
        }
    }
}
