package dev.strata.tfplugin;

import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.tfplugin.ProviderSchema.FunctionSignature;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The calls Strata makes to an external provider, independent of the protocol version the
 * plugin negotiated. Method names follow protocol 6 (and ARCHITECTURE §3.7's SPI), so an SPI
 * adapter maps them one to one. Closing the client shuts the plugin process down.
 */
public sealed interface ProviderClient extends AutoCloseable permits ProviderClientV5, ProviderClientV6 {

    /** Starts the plugin and returns a client for the protocol it chose. */
    static Result<ProviderClient> start(PluginLaunch launch, Duration callTimeout) {
        Result<PluginProcess> p = PluginProcess.start(launch);
        if (p.value() == null) {
            return Result.of(null, p.diagnostics());
        }
        PluginProcess plugin = p.value();
        return switch (plugin.protocolVersion()) {
            case 5 -> Result.of(new ProviderClientV5(plugin, callTimeout), p.diagnostics());
            case 6 -> Result.of(new ProviderClientV6(plugin, callTimeout), p.diagnostics());
            default -> {
                plugin.close();
                yield Result.of(null, p.diagnostics().with(dev.strata.hcl.Diagnostic.error(
                    "Unsupported plugin protocol",
                    "Provider " + launch.providerName() + " chose plugin protocol " + plugin.protocolVersion()
                        + ", which Strata does not speak.", null)));
            }
        };
    }

    PluginProcess plugin();

    PluginResult<ProviderSchema> getProviderSchema();

    /**
     * Uses {@code schema} (from {@link SchemaCache}) instead of asking the plugin, so calls that
     * need it do not fetch it again. Only for a schema this same provider package reported.
     */
    void useSchema(ProviderSchema schema);

    /** Validates the provider configuration; returns it as the provider prepared it (protocol 5 may fill defaults). */
    PluginResult<Value> validateProviderConfig(Value config);

    PluginResult<Void> configureProvider(String terraformVersion, Value config);

    PluginResult<Void> validateResourceConfig(String typeName, Value config);

    PluginResult<Void> validateDataResourceConfig(String typeName, Value config);

    /**
     * {@code providerMeta} (here and in the resource calls) is the calling module's
     * {@code provider_meta} block, a null value when it has none.
     */
    PluginResult<Value> readDataSource(String typeName, Value config, Value providerMeta);

    default PluginResult<Value> readDataSource(String typeName, Value config) {
        return readDataSource(typeName, config, Value.NULL);
    }

    /**
     * Brings a stored object to the current schema version.
     *
     * @param rawStateJson the object's attributes as stored in state (JSON), written with schema {@code version}
     */
    PluginResult<Value> upgradeResourceState(String typeName, long version, byte[] rawStateJson);

    PluginResult<ResourceResults.Read> readResource(String typeName, Value currentState, byte[] privateData,
                                                    Value providerMeta);

    default PluginResult<ResourceResults.Read> readResource(String typeName, Value currentState, byte[] privateData) {
        return readResource(typeName, currentState, privateData, Value.NULL);
    }

    /** {@code priorState} is a null value of the resource type for a create; {@code proposedNewState} likewise for a destroy. */
    PluginResult<ResourceResults.Plan> planResourceChange(String typeName, Value priorState, Value proposedNewState,
                                                          Value config, byte[] priorPrivate, Value providerMeta);

    default PluginResult<ResourceResults.Plan> planResourceChange(String typeName, Value priorState,
                                                                  Value proposedNewState, Value config,
                                                                  byte[] priorPrivate) {
        return planResourceChange(typeName, priorState, proposedNewState, config, priorPrivate, Value.NULL);
    }

    PluginResult<ResourceResults.Apply> applyResourceChange(String typeName, Value priorState, Value plannedState,
                                                            Value config, byte[] plannedPrivate, Value providerMeta);

    default PluginResult<ResourceResults.Apply> applyResourceChange(String typeName, Value priorState,
                                                                    Value plannedState, Value config,
                                                                    byte[] plannedPrivate) {
        return applyResourceChange(typeName, priorState, plannedState, config, plannedPrivate, Value.NULL);
    }

    PluginResult<List<ResourceResults.Imported>> importResourceState(String typeName, String id);

    PluginResult<Map<String, FunctionSignature>> getFunctions();

    /**
     * Calls a provider function. A failure the function reports (with the argument at fault, if it
     * names one) is a value of the result; the diagnostics are for calls that could not be made.
     */
    PluginResult<dev.strata.provider.Provider.CallFunctionResponse> callFunction(String name, List<Value> arguments);

    /** Asks the provider to cancel calls in progress; the process keeps running. */
    PluginResult<Void> stopProvider();

    @Override
    void close();
}
