package dev.strata.engine;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderFunction;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.Schema;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A provider with no resources and three functions, for engine tests: {@code shout(s)} upper-cases,
 * failing on a blank string with the argument named; {@code echo(v)} returns any value with its own
 * type (a dynamic parameter and result); {@code check(s)} fails for the call as a whole.
 */
final class FunctionProvider implements Provider {
    static final dev.strata.addr.Provider ADDRESS = new dev.strata.addr.Provider("example.com", "test", "fn");

    final AtomicInteger created = new AtomicInteger();
    final AtomicInteger calls = new AtomicInteger();

    ProviderFactory factory() {
        return EngineHarness.factory(ADDRESS, () -> {
            created.incrementAndGet();
            return this;
        });
    }

    @Override
    public SortedMap<String, ProviderFunction> functions() {
        SortedMap<String, ProviderFunction> m = new TreeMap<>();
        m.put(
                "shout",
                new ProviderFunction(
                        "shout",
                        List.of(ProviderFunction.Parameter.of("text", Type.STRING)),
                        Optional.empty(),
                        Type.STRING,
                        "",
                        ""));
        m.put(
                "echo",
                new ProviderFunction(
                        "echo",
                        List.of(ProviderFunction.Parameter.of("value", Type.DYNAMIC)),
                        Optional.empty(),
                        Type.DYNAMIC,
                        "",
                        ""));
        m.put(
                "check",
                new ProviderFunction(
                        "check",
                        List.of(ProviderFunction.Parameter.of("text", Type.STRING)),
                        Optional.empty(),
                        Type.BOOL,
                        "",
                        ""));
        return m;
    }

    @Override
    public CallFunctionResponse callFunction(CallFunctionRequest request) {
        calls.incrementAndGet();
        Value a = request.arguments().get(0);
        return switch (request.name()) {
            case "shout" ->
                a.asString().isBlank()
                        ? CallFunctionResponse.failed("text must not be blank", 0)
                        : CallFunctionResponse.of(Value.string(a.asString().toUpperCase()));
            case "echo" -> CallFunctionResponse.of(a);
            case "check" -> CallFunctionResponse.failed("nothing passes");
            default -> CallFunctionResponse.failed("no function " + request.name());
        };
    }

    @Override
    public ProviderSchema schema() {
        return new ProviderSchema(Schema.of(Block.builder().build()), new TreeMap<>(), new TreeMap<>());
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
        return ProviderDiagnostics.NONE;
    }

    @Override
    public ProviderDiagnostics validateDataResourceConfig(String typeName, Value config) {
        return ProviderDiagnostics.NONE;
    }

    @Override
    public PlanResponse planResourceChange(PlanRequest request) {
        throw new UnsupportedOperationException("no resources");
    }

    @Override
    public ApplyResponse applyResourceChange(ApplyRequest request) {
        throw new UnsupportedOperationException("no resources");
    }

    @Override
    public ReadResponse readResource(ReadRequest request) {
        throw new UnsupportedOperationException("no resources");
    }

    @Override
    public ImportResponse importResourceState(ImportRequest request) {
        throw new UnsupportedOperationException("no resources");
    }

    @Override
    public UpgradeResponse upgradeResourceState(UpgradeRequest request) {
        throw new UnsupportedOperationException("no resources");
    }

    @Override
    public ReadDataResponse readDataSource(ReadDataRequest request) {
        throw new UnsupportedOperationException("no data sources");
    }

    @Override
    public ProviderDiagnostics stop() {
        return ProviderDiagnostics.NONE;
    }
}
