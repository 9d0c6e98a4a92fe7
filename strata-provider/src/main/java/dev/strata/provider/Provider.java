package dev.strata.provider;

import dev.strata.addr.AttributePath;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.SortedMap;

/**
 * A provider, with the operations and semantics of Terraform's provider protocol version 6.
 * Values are objects of the implied type of the relevant schema block ({@link Block#impliedType()});
 * a null object stands for "no object" (no prior state on create, no planned or new state on
 * destroy). Problems are returned as {@link ProviderDiagnostics}, never thrown.
 *
 * <p>The engine calls {@link #schema()} and the validate operations before {@link #configure};
 * every other operation after it. Implementations must be safe to call from several threads at
 * once after {@code configure}, as the engine applies independent resources concurrently.
 */
public interface Provider extends AutoCloseable {

    /**
     * A hint that the engine is about to ask for the schema and then configure and call this
     * provider (plan, apply): one with a slow start, an external plugin process, may begin it in the
     * background now, so that it overlaps with reading the schema. The default does nothing.
     */
    default void prepare() {}

    ProviderSchema schema();

    ProviderDiagnostics validateProviderConfig(Value config);

    ProviderDiagnostics configure(ConfigureRequest request);

    ProviderDiagnostics validateResourceConfig(String typeName, Value config);

    ProviderDiagnostics validateDataResourceConfig(String typeName, Value config);

    PlanResponse planResourceChange(PlanRequest request);

    ApplyResponse applyResourceChange(ApplyRequest request);

    ReadResponse readResource(ReadRequest request);

    ImportResponse importResourceState(ImportRequest request);

    UpgradeResponse upgradeResourceState(UpgradeRequest request);

    ReadDataResponse readDataSource(ReadDataRequest request);

    /**
     * The functions this provider offers to configurations, by bare name. They may be called on an
     * instance that was never configured (as Terraform does), so their results must not depend on
     * the provider's configuration. The default is none.
     */
    default SortedMap<String, ProviderFunction> functions() {
        return java.util.Collections.emptySortedMap();
    }

    /**
     * Calls one of {@link #functions()}. The arguments have the declared parameter types, and are
     * known and non-null unless the parameter allows otherwise (the engine checks that, and handles
     * unknown arguments and sensitive marks, before calling).
     */
    default CallFunctionResponse callFunction(CallFunctionRequest request) {
        return CallFunctionResponse.failed("this provider offers no function named \"" + request.name() + "\"");
    }

    /**
     * Checks an {@code ephemeral} block's configuration (unknown values allowed). The default, for a
     * provider without ephemeral resource types, accepts it; the engine never calls it for a type the
     * schema does not declare.
     */
    default ProviderDiagnostics validateEphemeralResourceConfig(String typeName, Value config) {
        return ProviderDiagnostics.NONE;
    }

    /**
     * Opens an ephemeral resource: the result lives for this plan or apply only and is never stored.
     * The default refuses, as a provider without ephemeral resource types never gets the call.
     */
    default OpenEphemeralResponse openEphemeralResource(OpenEphemeralRequest request) {
        return OpenEphemeralResponse.failed(ProviderDiagnostics.error(
                "Ephemeral resources are not supported",
                "This provider has no ephemeral resource type \"" + request.typeName() + "\"."));
    }

    /** Extends an open ephemeral resource's validity, when {@link OpenEphemeralResponse#renewAt} passes. */
    default RenewEphemeralResponse renewEphemeralResource(RenewEphemeralRequest request) {
        return new RenewEphemeralResponse(null, request.privateState(), ProviderDiagnostics.NONE);
    }

    /** Releases an open ephemeral resource (a lease, a session); called once per successful open. */
    default ProviderDiagnostics closeEphemeralResource(CloseEphemeralRequest request) {
        return ProviderDiagnostics.NONE;
    }

    /** Asks running operations to finish early (the first Ctrl-C); they should return soon after. */
    ProviderDiagnostics stop();

    /** Releases what the provider holds (connections, threads). The default holds nothing. */
    @Override
    default void close() {}

    /**
     * The provider's configuration and what else it needs from the engine: the engine's version,
     * the working directory (where {@code -chdir} points; relative paths in arguments such as a
     * file name resolve against it, never against the JVM's directory) and the environment
     * variables the provider may read (libpq's {@code PGHOST}, {@code PG_CONN_STR}, ...), given
     * explicitly so that an engine can run several configurations in one process and tests can
     * set them.
     */
    record ConfigureRequest(
            Value config, String engineVersion, Path workingDirectory, Map<String, String> environment) {
        public ConfigureRequest {
            Objects.requireNonNull(config, "config");
            engineVersion = engineVersion == null ? "" : engineVersion;
            workingDirectory = (workingDirectory == null ? Path.of("") : workingDirectory)
                    .toAbsolutePath()
                    .normalize();
            environment = environment == null ? System.getenv() : Map.copyOf(environment);
        }

        /** With the JVM's working directory and environment. */
        public ConfigureRequest(Value config, String engineVersion) {
            this(config, engineVersion, null, null);
        }

        /** With the JVM's environment. */
        public ConfigureRequest(Value config, String engineVersion, Path workingDirectory) {
            this(config, engineVersion, workingDirectory, null);
        }

        /** {@code path} as the provider should open it: relative paths against the working directory. */
        public Path resolve(String path) {
            return workingDirectory.resolve(path);
        }

        // The environment may hold secrets, and the configuration sensitive values: neither is shown.
        @Override
        public String toString() {
            return "ConfigureRequest[engineVersion=" + engineVersion + ", workingDirectory=" + workingDirectory + "]";
        }
    }

    /**
     * Plan one resource instance. {@code priorState} is null on create; {@code proposedNewState}
     * (built by {@link ProposedNewState#of}) and {@code config} are null on destroy.
     *
     * <p>{@code providerMeta} is the calling module's {@code provider_meta} block for this provider,
     * decoded against the provider's {@code provider_meta} schema, or {@link Value#NULL} when the
     * module has none; the constructor without it means none.
     */
    record PlanRequest(
            String typeName,
            Value priorState,
            Value proposedNewState,
            Value config,
            PrivateState priorPrivate,
            Value providerMeta) {
        public PlanRequest {
            Objects.requireNonNull(typeName, "typeName");
            Objects.requireNonNull(priorState, "priorState");
            Objects.requireNonNull(proposedNewState, "proposedNewState");
            Objects.requireNonNull(config, "config");
            priorPrivate = priorPrivate == null ? PrivateState.EMPTY : priorPrivate;
            providerMeta = providerMeta == null ? Value.NULL : providerMeta;
        }

        public PlanRequest(
                String typeName, Value priorState, Value proposedNewState, Value config, PrivateState priorPrivate) {
            this(typeName, priorState, proposedNewState, config, priorPrivate, Value.NULL);
        }
    }

    /**
     * The planned state (unknown where a value is only known after apply; null on destroy), the
     * paths whose change forces the object to be replaced, and private data for apply.
     *
     * <p>{@code legacyTypeSystem} is set by providers built on Terraform's legacy plugin SDK (v2,
     * e.g. most of the AWS provider's resources), which cannot express every value precisely: as
     * Terraform does, the engine then tolerates a plan that does not match the configuration
     * exactly, or a result that does not match the plan, instead of reporting a provider bug.
     * Terraform's protocol calls this flag {@code legacy_type_system}; built-in providers never set it.
     */
    record PlanResponse(
            Value plannedState,
            List<AttributePath> requiresReplace,
            PrivateState plannedPrivate,
            ProviderDiagnostics diagnostics,
            boolean legacyTypeSystem) {
        public PlanResponse {
            requiresReplace = List.copyOf(requiresReplace);
            plannedPrivate = plannedPrivate == null ? PrivateState.EMPTY : plannedPrivate;
            Objects.requireNonNull(diagnostics, "diagnostics");
        }

        /** From a provider with a precise type system. */
        public PlanResponse(
                Value plannedState,
                List<AttributePath> requiresReplace,
                PrivateState plannedPrivate,
                ProviderDiagnostics diagnostics) {
            this(plannedState, requiresReplace, plannedPrivate, diagnostics, false);
        }

        public static PlanResponse failed(Value placeholder, ProviderDiagnostics diagnostics) {
            return new PlanResponse(placeholder, List.of(), PrivateState.EMPTY, diagnostics);
        }
    }

    /**
     * Apply one planned change. On create ({@code priorState} null) {@code idempotencyToken}
     * identifies this create across retries and engine restarts: a provider whose remote API
     * supports it passes it on, so that a repeated create adopts the object the first attempt
     * made. It is null for updates and destroys. {@code providerMeta} as in {@link PlanRequest}.
     */
    record ApplyRequest(
            String typeName,
            Value priorState,
            Value plannedState,
            Value config,
            PrivateState plannedPrivate,
            String idempotencyToken,
            Value providerMeta) {
        public ApplyRequest {
            Objects.requireNonNull(typeName, "typeName");
            Objects.requireNonNull(priorState, "priorState");
            Objects.requireNonNull(plannedState, "plannedState");
            Objects.requireNonNull(config, "config");
            plannedPrivate = plannedPrivate == null ? PrivateState.EMPTY : plannedPrivate;
            providerMeta = providerMeta == null ? Value.NULL : providerMeta;
        }

        public ApplyRequest(
                String typeName,
                Value priorState,
                Value plannedState,
                Value config,
                PrivateState plannedPrivate,
                String idempotencyToken) {
            this(typeName, priorState, plannedState, config, plannedPrivate, idempotencyToken, Value.NULL);
        }
    }

    /**
     * The new state: wholly known, null after a destroy. On error it is the best knowledge of
     * what exists (the prior state if nothing happened, a partial object if a create half
     * succeeded), so the engine never loses track of an object. {@code legacyTypeSystem} as in
     * {@link PlanResponse}.
     */
    record ApplyResponse(
            Value newState, PrivateState newPrivate, ProviderDiagnostics diagnostics, boolean legacyTypeSystem) {
        public ApplyResponse {
            Objects.requireNonNull(newState, "newState");
            newPrivate = newPrivate == null ? PrivateState.EMPTY : newPrivate;
            Objects.requireNonNull(diagnostics, "diagnostics");
        }

        /** From a provider with a precise type system. */
        public ApplyResponse(Value newState, PrivateState newPrivate, ProviderDiagnostics diagnostics) {
            this(newState, newPrivate, diagnostics, false);
        }
    }

    /** Refresh one object; {@code providerMeta} as in {@link PlanRequest}. */
    record ReadRequest(String typeName, Value currentState, PrivateState currentPrivate, Value providerMeta) {
        public ReadRequest {
            Objects.requireNonNull(typeName, "typeName");
            Objects.requireNonNull(currentState, "currentState");
            currentPrivate = currentPrivate == null ? PrivateState.EMPTY : currentPrivate;
            providerMeta = providerMeta == null ? Value.NULL : providerMeta;
        }

        public ReadRequest(String typeName, Value currentState, PrivateState currentPrivate) {
            this(typeName, currentState, currentPrivate, Value.NULL);
        }
    }

    /** The refreshed state; a null object when the remote object no longer exists. */
    record ReadResponse(Value newState, PrivateState newPrivate, ProviderDiagnostics diagnostics) {
        public ReadResponse {
            Objects.requireNonNull(newState, "newState");
            newPrivate = newPrivate == null ? PrivateState.EMPTY : newPrivate;
            Objects.requireNonNull(diagnostics, "diagnostics");
        }
    }

    record ImportRequest(String typeName, String id) {
        public ImportRequest {
            Objects.requireNonNull(typeName, "typeName");
            Objects.requireNonNull(id, "id");
        }
    }

    /** One object found by an import; the engine reads it next to fill in the rest. */
    record ImportedResource(String typeName, Value state, PrivateState privateState) {
        public ImportedResource {
            Objects.requireNonNull(typeName, "typeName");
            Objects.requireNonNull(state, "state");
            privateState = privateState == null ? PrivateState.EMPTY : privateState;
        }
    }

    record ImportResponse(List<ImportedResource> imported, ProviderDiagnostics diagnostics) {
        public ImportResponse {
            imported = List.copyOf(imported);
            Objects.requireNonNull(diagnostics, "diagnostics");
        }
    }

    /**
     * Upgrade a stored object: {@code rawStateJson} is the state's {@code attributes} JSON as
     * written with schema version {@code version}, which may be older than the current one.
     */
    record UpgradeRequest(String typeName, long version, String rawStateJson) {
        public UpgradeRequest {
            Objects.requireNonNull(typeName, "typeName");
            Objects.requireNonNull(rawStateJson, "rawStateJson");
        }
    }

    /** The object in the current schema's type. */
    record UpgradeResponse(Value upgradedState, ProviderDiagnostics diagnostics) {
        public UpgradeResponse {
            Objects.requireNonNull(upgradedState, "upgradedState");
            Objects.requireNonNull(diagnostics, "diagnostics");
        }
    }

    /** Read a data source; {@code providerMeta} as in {@link PlanRequest}. */
    record ReadDataRequest(String typeName, Value config, Value providerMeta) {
        public ReadDataRequest {
            Objects.requireNonNull(typeName, "typeName");
            Objects.requireNonNull(config, "config");
            providerMeta = providerMeta == null ? Value.NULL : providerMeta;
        }

        public ReadDataRequest(String typeName, Value config) {
            this(typeName, config, Value.NULL);
        }
    }

    record ReadDataResponse(Value state, ProviderDiagnostics diagnostics) {
        public ReadDataResponse {
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(diagnostics, "diagnostics");
        }
    }

    record CallFunctionRequest(String name, List<Value> arguments) {
        public CallFunctionRequest {
            Objects.requireNonNull(name, "name");
            arguments = List.copyOf(arguments);
        }
    }

    /**
     * The function's result, or why it failed: {@code error} is the provider's message (without a
     * trailing period) and {@code errorArgument} the index of the argument at fault, when one is.
     */
    record CallFunctionResponse(Value result, String error, OptionalInt errorArgument) {
        public CallFunctionResponse {
            if ((result == null) == (error == null)) {
                throw new IllegalArgumentException("exactly one of result and error");
            }
            Objects.requireNonNull(errorArgument, "errorArgument");
        }

        public static CallFunctionResponse of(Value result) {
            return new CallFunctionResponse(result, null, OptionalInt.empty());
        }

        public static CallFunctionResponse failed(String error) {
            return new CallFunctionResponse(null, error, OptionalInt.empty());
        }

        public static CallFunctionResponse failed(String error, int argument) {
            return new CallFunctionResponse(null, error, OptionalInt.of(argument));
        }
    }

    /**
     * Open one ephemeral resource instance with its configuration, wholly known (the engine does not
     * open one whose configuration is not known yet).
     */
    record OpenEphemeralRequest(String typeName, Value config) {
        public OpenEphemeralRequest {
            Objects.requireNonNull(typeName, "typeName");
            Objects.requireNonNull(config, "config");
        }
    }

    /**
     * The opened object ({@code result}, of the schema's type), when it must be renewed ({@code renewAt},
     * null for never), the provider's private data for renew and close, and {@code deferred}: the provider
     * cannot open it yet (its result is then unknown for this plan).
     */
    record OpenEphemeralResponse(
            Value result,
            java.time.Instant renewAt,
            PrivateState privateState,
            boolean deferred,
            ProviderDiagnostics diagnostics) {
        public OpenEphemeralResponse {
            Objects.requireNonNull(result, "result");
            privateState = privateState == null ? PrivateState.EMPTY : privateState;
            Objects.requireNonNull(diagnostics, "diagnostics");
        }

        public static OpenEphemeralResponse of(Value result, java.time.Instant renewAt, PrivateState privateState) {
            return new OpenEphemeralResponse(result, renewAt, privateState, false, ProviderDiagnostics.NONE);
        }

        public static OpenEphemeralResponse failed(ProviderDiagnostics diagnostics) {
            return new OpenEphemeralResponse(Value.NULL, null, PrivateState.EMPTY, false, diagnostics);
        }
    }

    record RenewEphemeralRequest(String typeName, PrivateState privateState) {
        public RenewEphemeralRequest {
            Objects.requireNonNull(typeName, "typeName");
            privateState = privateState == null ? PrivateState.EMPTY : privateState;
        }
    }

    /** The next renewal time (null for none) and the private data to use from now on. */
    record RenewEphemeralResponse(
            java.time.Instant renewAt, PrivateState privateState, ProviderDiagnostics diagnostics) {
        public RenewEphemeralResponse {
            privateState = privateState == null ? PrivateState.EMPTY : privateState;
            Objects.requireNonNull(diagnostics, "diagnostics");
        }
    }

    record CloseEphemeralRequest(String typeName, PrivateState privateState) {
        public CloseEphemeralRequest {
            Objects.requireNonNull(typeName, "typeName");
            privateState = privateState == null ? PrivateState.EMPTY : privateState;
        }
    }
}
