package dev.strata.cli.tftest;

import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.PrivateState;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.Schema;
import java.util.List;
import java.util.Map;

/**
 * A provider that never reaches its remote system: it has the real provider's schema, plans what the
 * configuration says (computed attributes unknown, or already filled with {@code override_during =
 * plan}), and "applies" and reads by filling computed attributes from the test file's values or
 * generated ones ({@link MockValues}). Stands in for a whole configuration ({@code mock_provider}) or
 * for one resource instance ({@code override_resource}, {@code override_data}).
 */
final class MockProvider implements Provider {
    /**
     * What the test file gives for one resource or data source type (or one instance): its values, and
     * whether they are used when planning already.
     */
    record Values(Map<String, Value> values, boolean duringPlan) {
        static final Values NONE = new Values(Map.of(), false);
    }

    /** The values for an object: per type, with the provider's default for types the file does not name. */
    interface Lookup {
        Values resource(String type);

        Values data(String type);
    }

    private final Provider real;
    private final Lookup lookup;

    MockProvider(Provider real, Lookup lookup) {
        this.real = real;
        this.lookup = lookup;
    }

    @Override
    public ProviderSchema schema() {
        return real.schema();
    }

    @Override
    public ProviderDiagnostics validateProviderConfig(Value config) {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public ProviderDiagnostics configure(ConfigureRequest request) {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public ProviderDiagnostics validateResourceConfig(String typeName, Value config) {
        return real.validateResourceConfig(typeName, config);
    }

    @Override
    public ProviderDiagnostics validateDataResourceConfig(String typeName, Value config) {
        return real.validateDataResourceConfig(typeName, config);
    }

    private Block block(String type, boolean data) {
        Schema s = data ? real.schema().dataSource(type) : real.schema().resourceType(type);
        return s == null ? null : s.block();
    }

    @Override
    public PlanResponse planResourceChange(PlanRequest request) {
        if (request.proposedNewState().isNull()) {
            return new PlanResponse(
                    request.proposedNewState(), List.of(), PrivateState.EMPTY, ProviderDiagnostics.NONE);
        }
        Values v = lookup.resource(request.typeName());
        Value planned = MockValues.fill(
                block(request.typeName(), false), request.proposedNewState(), v.values(), !v.duringPlan());
        return new PlanResponse(planned, List.of(), PrivateState.EMPTY, ProviderDiagnostics.NONE);
    }

    @Override
    public ApplyResponse applyResourceChange(ApplyRequest request) {
        if (request.plannedState().isNull()) {
            return new ApplyResponse(request.plannedState(), PrivateState.EMPTY, ProviderDiagnostics.NONE);
        }
        Values v = lookup.resource(request.typeName());
        Value applied = MockValues.fill(block(request.typeName(), false), request.plannedState(), v.values(), false);
        return new ApplyResponse(applied, PrivateState.EMPTY, ProviderDiagnostics.NONE);
    }

    @Override
    public ReadResponse readResource(ReadRequest request) {
        return new ReadResponse(request.currentState(), request.currentPrivate(), ProviderDiagnostics.NONE);
    }

    @Override
    public ImportResponse importResourceState(ImportRequest request) {
        return new ImportResponse(
                List.of(),
                ProviderDiagnostics.of(ProviderDiagnostic.error(
                        "Import not supported by mock providers",
                        "A mocked provider has no remote objects to import.")));
    }

    @Override
    public UpgradeResponse upgradeResourceState(UpgradeRequest request) {
        return real.upgradeResourceState(request);
    }

    @Override
    public ReadDataResponse readDataSource(ReadDataRequest request) {
        Values v = lookup.data(request.typeName());
        Value read = MockValues.fill(block(request.typeName(), true), request.config(), v.values(), false);
        return new ReadDataResponse(read, ProviderDiagnostics.NONE);
    }

    @Override
    public ProviderDiagnostics validateEphemeralResourceConfig(String typeName, Value config) {
        return real.validateEphemeralResourceConfig(typeName, config);
    }

    /**
     * A mocked ephemeral resource opens without reaching the remote system: its configuration with
     * every computed attribute generated, as a mocked data source reads; it needs no renewal, and
     * closing it releases nothing.
     */
    @Override
    public OpenEphemeralResponse openEphemeralResource(OpenEphemeralRequest request) {
        Schema s = real.schema().ephemeralResources().get(request.typeName());
        if (s == null) {
            return Provider.super.openEphemeralResource(request);
        }
        Value opened = MockValues.fill(s.block(), request.config(), Map.of(), false);
        return OpenEphemeralResponse.of(opened, null, PrivateState.EMPTY);
    }

    @Override
    public ProviderDiagnostics closeEphemeralResource(CloseEphemeralRequest request) {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public java.util.SortedMap<String, dev.strata.provider.ProviderFunction> functions() {
        return real.functions();
    }

    @Override
    public CallFunctionResponse callFunction(CallFunctionRequest request) {
        return real.callFunction(request);
    }

    @Override
    public ProviderDiagnostics stop() {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public void close() {
        real.close();
    }
}
