package dev.strata.tfplugin;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.funcs.Function;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.LanguageFunctions;
import dev.strata.provider.PrivateState;
import dev.strata.provider.Provider;
import dev.strata.provider.Provider.CloseEphemeralRequest;
import dev.strata.provider.Provider.OpenEphemeralRequest;
import dev.strata.provider.Provider.OpenEphemeralResponse;
import dev.strata.provider.Provider.RenewEphemeralRequest;
import dev.strata.provider.Provider.RenewEphemeralResponse;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ProviderFunction;
import dev.strata.provider.Schema;
import dev.strata.tfplugin.ProviderSchema.FunctionParameter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * An external Terraform provider behind the provider SPI: one plugin process, started on the first
 * call that needs it (not for {@link #schema()} when the schema is cached) and shut down by
 * {@link #close()}. Each instance is one provider configuration: SDK-based providers such as AWS
 * accept a single {@code ConfigureProvider} per process, so every instance has its own process.
 *
 * <p>Provider-defined functions are offered by {@link #functions()} and {@link #callFunction} (the
 * SPI's), or ready for a function table as {@link #languageFunctions(String)}.
 *
 * <p>A provider that cannot start or that dies during a call yields an error diagnostic naming it,
 * with its last lines on stderr; every later call reports the same failure instead of starting it
 * again. Values given to the provider have the type of the SPI schema's blocks.
 */
public final class TerraformProvider implements Provider {
    /**
     * The Terraform version providers are told they run under: they may gate behaviour on it, and
     * Strata speaks the protocol as Terraform 1.11 does.
     */
    public static final String TERRAFORM_VERSION = "1.11.0";

    private final String name;
    private final Supplier<Result<ProviderClient>> starter;
    private final SchemaCache cache;
    private final String packageHash;
    private volatile ProviderClient client;
    /** Set by {@link #close()}; a start still in progress then stops what it started. Guarded by closeLock. */
    private boolean closed;
    /**
     * Guards {@link #closed} and the publishing of {@link #client}; always taken last (after this object's lock
     * and startLock), so that a start in progress and a close never wait for each other.
     */
    private final Object closeLock = new Object();

    private volatile Diagnostics startFailure;
    /** A crashed plugin's failure, kept when the client is closed. */
    private volatile ProviderDiagnostics crashed;

    private volatile ProviderSchema wireSchema;
    private dev.strata.provider.ProviderSchema spiSchema;

    /**
     * @param name how messages name the provider, e.g. {@code registry.terraform.io/hashicorp/aws}
     * @param starter starts the plugin; called at most once
     * @param cache where schemas are cached, or null for none
     * @param packageHash the package's hash, the cache key (ignored without a cache)
     */
    TerraformProvider(String name, Supplier<Result<ProviderClient>> starter, SchemaCache cache, String packageHash) {
        this.name = name;
        this.starter = starter;
        this.cache = cache;
        this.packageHash = packageHash;
    }

    /** A provider that runs {@code launch}, with calls bounded by {@code callTimeout}, and no schema cache. */
    public static TerraformProvider of(PluginLaunch launch, Duration callTimeout) {
        return new TerraformProvider(
                launch.providerName(), () -> ProviderClient.start(launch, callTimeout), null, null);
    }

    /** As {@link #of(PluginLaunch, Duration)}, keeping the schema in {@code cache} under {@code packageHash}. */
    public static TerraformProvider of(
            PluginLaunch launch, Duration callTimeout, SchemaCache cache, String packageHash) {
        return new TerraformProvider(
                launch.providerName(), () -> ProviderClient.start(launch, callTimeout), cache, packageHash);
    }

    public String name() {
        return name;
    }

    /** Whether the plugin process is running (for tests and logs). */
    public boolean started() {
        return client != null;
    }

    /** The plugin's process id while it runs (for tests that kill it). */
    java.util.OptionalLong pid() {
        ProviderClient c = client;
        return c == null
                ? java.util.OptionalLong.empty()
                : java.util.OptionalLong.of(c.plugin().pid());
    }

    /**
     * Starts the plugin process on a background thread, so that its start (seconds for a large
     * provider) overlaps with reading the schema from the cache; later calls wait for it.
     */
    @Override
    public void prepare() {
        if (client == null && startFailure == null) {
            Thread.ofVirtual().name("plugin-start-" + name).start(this::client);
        }
    }

    /**
     * The running client, starting the plugin on first use; null when it could not start. Guarded by
     * its own lock, not this object's, so that a start begun by {@link #prepare} does not hold up the
     * schema's loading from the cache.
     */
    private ProviderClient client() {
        synchronized (startLock) {
            if (client != null || startFailure != null) {
                return client;
            }
            Result<ProviderClient> r = starter.get();
            if (r.value() == null) {
                startFailure = r.diagnostics();
                return null;
            }
            ProviderClient c = r.value();
            // A start begun by prepare() may end after close(): the plugin it started is stopped, not kept
            // running with nothing to close it (its process, and the connection's threads, which keep an
            // embedding JVM from exiting).
            boolean stop;
            synchronized (closeLock) {
                stop = closed;
                if (!stop) {
                    client = c;
                }
            }
            if (stop) {
                c.close();
                return null;
            }
            // Read after publishing the client: either this sees the schema or its loader sees the client.
            ProviderSchema known = wireSchema;
            if (known != null && known.capabilities().getProviderSchemaOptional()) {
                c.useSchema(known);
            }
            return c;
        }
    }

    private final Object startLock = new Object();

    /**
     * The provider's schema with the diagnostics of getting it: from the cache when there, else from
     * the plugin (then stored in the cache). On failure the value is null.
     */
    public synchronized Result<ProviderSchema> checkPluginSchema() {
        if (wireSchema != null) {
            return Result.of(wireSchema);
        }
        if (cache != null && packageHash != null) {
            Optional<ProviderSchema> cached = cache.load(packageHash);
            if (cached.isPresent()) {
                wireSchema = cached.get();
                // A client started meanwhile (prepare) did not know the schema yet.
                ProviderClient c = client;
                if (c != null && wireSchema.capabilities().getProviderSchemaOptional()) {
                    c.useSchema(wireSchema);
                }
                return Result.of(wireSchema);
            }
        }
        ProviderClient c = client();
        if (c == null) {
            return Result.of(null, startFailure);
        }
        Result<ProviderSchema> r = c.getProviderSchema();
        if (r.value() == null) {
            return r;
        }
        wireSchema = r.value();
        if (cache != null && packageHash != null) {
            cache.store(packageHash, wireSchema);
        }
        return r;
    }

    /** The SPI schema with the diagnostics of getting it; null on failure. */
    public synchronized Result<dev.strata.provider.ProviderSchema> checkSchema() {
        if (spiSchema != null) {
            return Result.of(spiSchema);
        }
        Result<ProviderSchema> r = checkPluginSchema();
        if (r.value() == null) {
            return Result.of(null, r.diagnostics());
        }
        spiSchema = SpiSchemas.toSpi(r.value());
        return Result.of(spiSchema, r.diagnostics());
    }

    /**
     * The SPI schema. When the provider cannot report one it is an empty schema, and every later
     * call returns the reason as an error ({@link #checkSchema()} gives it at once).
     */
    @Override
    public dev.strata.provider.ProviderSchema schema() {
        dev.strata.provider.ProviderSchema s = checkSchema().value();
        return s != null
                ? s
                : new dev.strata.provider.ProviderSchema(
                        Schema.of(dev.strata.provider.Block.builder().build()),
                        new java.util.TreeMap<>(),
                        new java.util.TreeMap<>());
    }

    /** The failure that stops every call (the plugin did not start, has no schema or crashed), or null. */
    private ProviderDiagnostics unavailable() {
        ProviderClient running = client;
        ProviderDiagnostics died = running != null ? running.crashed() : crashed;
        if (died != null) {
            return died;
        }
        Result<ProviderSchema> s = checkPluginSchema();
        if (s.value() == null) {
            return ProviderClient.toProvider(s.diagnostics());
        }
        if (client() == null) {
            return ProviderClient.toProvider(startFailure);
        }
        return null;
    }

    private Type resourceType(String typeName) {
        Schema s = schema().resourceType(typeName);
        return s == null ? Type.DYNAMIC : s.block().impliedType();
    }

    @Override
    public ProviderDiagnostics validateProviderConfig(Value config) {
        ProviderDiagnostics down = unavailable();
        return down != null ? down : client().validateProviderConfig(config);
    }

    @Override
    public ProviderDiagnostics configure(ConfigureRequest request) {
        ProviderDiagnostics down = unavailable();
        return down != null ? down : client().configureProvider(TERRAFORM_VERSION, request.config());
    }

    @Override
    public ProviderDiagnostics validateResourceConfig(String typeName, Value config) {
        ProviderDiagnostics down = unavailable();
        return down != null ? down : client().validateResourceConfig(typeName, config);
    }

    @Override
    public ProviderDiagnostics validateDataResourceConfig(String typeName, Value config) {
        ProviderDiagnostics down = unavailable();
        return down != null ? down : client().validateDataResourceConfig(typeName, config);
    }

    @Override
    public PlanResponse planResourceChange(PlanRequest request) {
        ProviderDiagnostics down = unavailable();
        if (down != null) {
            return PlanResponse.failed(Value.unknown(resourceType(request.typeName())), down);
        }
        return client().planResourceChange(request);
    }

    @Override
    public ApplyResponse applyResourceChange(ApplyRequest request) {
        ProviderDiagnostics down = unavailable();
        if (down != null) {
            return new ApplyResponse(request.priorState(), PrivateState.EMPTY, down);
        }
        return client().applyResourceChange(request);
    }

    @Override
    public ReadResponse readResource(ReadRequest request) {
        ProviderDiagnostics down = unavailable();
        if (down != null) {
            return new ReadResponse(request.currentState(), request.currentPrivate(), down);
        }
        return client().readResource(request);
    }

    @Override
    public ImportResponse importResourceState(ImportRequest request) {
        ProviderDiagnostics down = unavailable();
        if (down != null) {
            return new ImportResponse(List.of(), down);
        }
        return client().importResourceState(request);
    }

    @Override
    public UpgradeResponse upgradeResourceState(UpgradeRequest request) {
        ProviderDiagnostics down = unavailable();
        if (down != null) {
            return new UpgradeResponse(Value.unknown(resourceType(request.typeName())), down);
        }
        return client().upgradeResourceState(request);
    }

    @Override
    public ReadDataResponse readDataSource(ReadDataRequest request) {
        ProviderDiagnostics down = unavailable();
        if (down != null) {
            Schema s = schema().dataSource(request.typeName());
            return new ReadDataResponse(
                    Value.unknown(s == null ? Type.DYNAMIC : s.block().impliedType()), down);
        }
        return client().readDataSource(request);
    }

    @Override
    public ProviderDiagnostics validateEphemeralResourceConfig(String typeName, Value config) {
        ProviderDiagnostics down = unavailable();
        return down != null ? down : client().validateEphemeralResourceConfig(typeName, config);
    }

    @Override
    public OpenEphemeralResponse openEphemeralResource(OpenEphemeralRequest request) {
        ProviderDiagnostics down = unavailable();
        return down != null ? OpenEphemeralResponse.failed(down) : client().openEphemeralResource(request);
    }

    @Override
    public RenewEphemeralResponse renewEphemeralResource(RenewEphemeralRequest request) {
        ProviderDiagnostics down = unavailable();
        return down != null
                ? new RenewEphemeralResponse(null, request.privateState(), down)
                : client().renewEphemeralResource(request);
    }

    @Override
    public ProviderDiagnostics closeEphemeralResource(CloseEphemeralRequest request) {
        ProviderDiagnostics down = unavailable();
        return down != null ? down : client().closeEphemeralResource(request);
    }

    @Override
    public ProviderDiagnostics stop() {
        ProviderClient c;
        synchronized (this) {
            c = client;
        }
        // Nothing runs in a plugin that was never started.
        return c == null ? ProviderDiagnostics.NONE : c.stopProvider();
    }

    @Override
    public void close() {
        ProviderClient c;
        synchronized (this) {
            synchronized (closeLock) {
                closed = true;
                c = client;
                client = null;
            }
            if (c != null) {
                crashed = c.crashed();
            }
            if (startFailure == null) {
                startFailure = Diagnostics.of(
                        Diagnostic.error("Provider closed", "The provider " + name + " was already shut down.", null));
            }
        }
        if (c != null) {
            c.close();
        }
    }

    // ---- provider-defined functions ---------------------------------------------------------------

    /**
     * The provider's functions by bare name, from its schema (so from the schema cache when there,
     * without starting the plugin); empty when it has no schema.
     */
    @Override
    public SortedMap<String, ProviderFunction> functions() {
        ProviderSchema s = checkPluginSchema().value();
        SortedMap<String, ProviderFunction> out = new TreeMap<>();
        if (s != null) {
            s.functions()
                    .forEach((fname, sig) -> out.put(
                            fname,
                            new ProviderFunction(
                                    fname,
                                    sig.parameters().stream()
                                            .map(TerraformProvider::parameter)
                                            .toList(),
                                    sig.variadicParameter().map(TerraformProvider::parameter),
                                    sig.returnType(),
                                    sig.summary(),
                                    sig.description())));
        }
        return out;
    }

    private static ProviderFunction.Parameter parameter(FunctionParameter p) {
        return new ProviderFunction.Parameter(
                p.name(), p.type(), p.allowNullValue(), p.allowUnknownValues(), p.description());
    }

    /**
     * Calls a provider function ({@code arn_parse}); the plugin is started if it is not running. When
     * the call cannot be made (the plugin did not start or died), that is the function's error, as
     * in Terraform.
     */
    @Override
    public CallFunctionResponse callFunction(CallFunctionRequest request) {
        ProviderDiagnostics down = unavailable();
        if (down != null) {
            return CallFunctionResponse.failed(ProviderClient.message(down, name));
        }
        return client().callFunction(request);
    }

    /**
     * The provider's functions as entries for the expression evaluator's function table, named
     * {@code provider::LOCALNAME::FUNC} where {@code localName} is the provider's local name in the
     * module (see {@link LanguageFunctions}).
     */
    public List<Function> languageFunctions(String localName) {
        List<Function> out = new ArrayList<>();
        functions()
                .forEach((fname, f) -> out.add(LanguageFunctions.of("provider::" + localName + "::" + fname, f, this)));
        return out;
    }
}
