package dev.strata.provider.testkit;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.ObjectChecks;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.SchemaValues;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A configured provider under test. Configuration values are given as maps of attribute name to
 * value and made to conform to the schema the way the engine decodes a body (missing attributes
 * null, values converted to the declared types).
 */
public final class ProviderTester {

    private final Provider provider;

    private ProviderTester(Provider provider) {
        this.provider = provider;
    }

    /** Validates and configures the provider with {@code config}; fails if either reports an error. */
    public static ProviderTester configure(Provider provider, Map<String, Value> config) {
        return configure(provider, config, null, null);
    }

    /**
     * Configures the provider as an engine running in {@code workingDirectory} with
     * {@code environment} would (null for the JVM's own).
     */
    public static ProviderTester configure(
            Provider provider, Map<String, Value> config, Path workingDirectory, Map<String, String> environment) {
        Block block = provider.schema().provider().block();
        Value cfg = conform(block, config, "provider configuration");
        expectNoErrors("validateProviderConfig", provider.validateProviderConfig(cfg));
        expectNoErrors(
                "configure",
                provider.configure(new Provider.ConfigureRequest(cfg, "test", workingDirectory, environment)));
        return new ProviderTester(provider);
    }

    public static ProviderTester configure(Provider provider) {
        return configure(provider, Map.of());
    }

    public Provider provider() {
        return provider;
    }

    /** A tester for one instance of resource type {@code typeName}, starting with no object. */
    public ResourceTester resource(String typeName) {
        Schema s = provider.schema().resourceType(typeName);
        if (s == null) {
            throw new AssertionError("the provider has no resource type " + typeName);
        }
        return new ResourceTester(this, typeName, s);
    }

    /** The diagnostics of validating a resource configuration, for tests of invalid configurations. */
    public ProviderDiagnostics validateResource(String typeName, Map<String, Value> config) {
        Schema s = provider.schema().resourceType(typeName);
        SchemaValues.Coerced c = SchemaValues.coerce(s.block(), Value.object(config));
        if (c.diagnostics().hasErrors()) {
            return c.diagnostics();
        }
        return provider.validateResourceConfig(typeName, c.value());
    }

    public ProviderDiagnostics validateDataSource(String typeName, Map<String, Value> config) {
        Schema s = provider.schema().dataSource(typeName);
        SchemaValues.Coerced c = SchemaValues.coerce(s.block(), Value.object(config));
        if (c.diagnostics().hasErrors()) {
            return c.diagnostics();
        }
        return provider.validateDataResourceConfig(typeName, c.value());
    }

    /**
     * Validates and reads a data source, checking that the result keeps every configured value
     * and is wholly known; returns it.
     */
    public Value readData(String typeName, Map<String, Value> config) {
        DataResult r = tryReadData(typeName, config);
        expectNoErrors("readDataSource", r.diagnostics());
        return r.state();
    }

    /** The outcome of reading a data source whose read may fail. */
    public record DataResult(Value state, ProviderDiagnostics diagnostics) {}

    /** Like {@link #readData} but returns errors instead of failing, for tests of failing reads. */
    public DataResult tryReadData(String typeName, Map<String, Value> config) {
        Schema s = provider.schema().dataSource(typeName);
        if (s == null) {
            throw new AssertionError("the provider has no data source " + typeName);
        }
        Value cfg = conform(s.block(), config, "data source configuration");
        expectNoErrors("validateDataResourceConfig", provider.validateDataResourceConfig(typeName, cfg));
        Provider.ReadDataResponse resp = provider.readDataSource(new Provider.ReadDataRequest(typeName, cfg));
        checkNoLeaks(s.block(), resp.state(), resp.diagnostics());
        if (resp.diagnostics().hasErrors()) {
            return new DataResult(resp.state(), resp.diagnostics());
        }
        failIf("readDataSource returned", ObjectChecks.checkPlanValid(s.block(), cfg, resp.state()));
        failIfUnknown("readDataSource", resp.state());
        return new DataResult(resp.state(), resp.diagnostics());
    }

    static Value conform(Block block, Map<String, Value> config, String what) {
        SchemaValues.Coerced c = SchemaValues.coerce(block, Value.object(config));
        if (c.diagnostics().hasErrors()) {
            throw new AssertionError("invalid " + what + ": " + describe(c.diagnostics()));
        }
        return c.value();
    }

    static void expectNoErrors(String operation, ProviderDiagnostics diags) {
        if (diags.hasErrors()) {
            throw new AssertionError(operation + " failed: " + describe(diags));
        }
    }

    static void failIf(String what, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new AssertionError(what + " an inconsistent result: " + String.join("; ", problems));
        }
    }

    static void failIfUnknown(String operation, Value v) {
        var unknown = ObjectChecks.unknownPaths(v);
        if (!unknown.isEmpty()) {
            throw new AssertionError(operation + " left values unknown: " + unknown);
        }
    }

    static String describe(ProviderDiagnostics diags) {
        return diags.asList().stream()
                .map(d -> d.severity() + " " + d.summary() + (d.detail().isEmpty() ? "" : ": " + d.detail())
                        + (d.attribute() == null ? "" : " [" + d.attribute() + "]"))
                .collect(Collectors.joining("; "));
    }

    /**
     * Fails if a diagnostic quotes the value of a sensitive attribute: the protocol's messages are
     * shown to users and logged, so a provider must never put secrets in them.
     */
    static void checkNoLeaks(Block block, Value state, ProviderDiagnostics diags) {
        if (diags.isEmpty() || !state.isKnownAndNotNull()) {
            return;
        }
        block.attributes().forEach((name, attr) -> {
            Value v = state.attributes().get(name);
            if (!attr.sensitive() || v == null || !v.isKnownAndNotNull()) {
                return;
            }
            String secret = v.type() == Type.STRING
                    ? v.unmarkDeep().asString()
                    : v.unmarkDeep().toString();
            for (ProviderDiagnostic d : diags) {
                if (secret.length() > 3
                        && (d.summary().contains(secret) || d.detail().contains(secret))) {
                    throw new AssertionError("a diagnostic contains the sensitive attribute " + name);
                }
            }
        });
    }
}
