package dev.strata.provider.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.addr.AttributePath;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One resource type of an {@link SdkProvider}. Only {@link #typeName()}, {@link #schema()} and
 * {@link #create} are required; the defaults give the framework's usual behaviour: an update
 * stores the plan, a read keeps the state, a delete forgets the object, import is refused.
 * Problems go to the {@code diags} builder; a method that reports an error may return null when it
 * produced nothing.
 */
public interface ManagedResource {

    String typeName();

    Schema schema();

    /** Top-level attributes whose change means a new object (Terraform's ForceNew / RequiresReplace). */
    default Set<String> forceNew() {
        return Set.of();
    }

    /** Values for optional+computed attributes the configuration leaves null. */
    default Map<String, Value> defaults() {
        return Map.of();
    }

    /**
     * Computed attributes that keep their prior value on an in-place update (the framework's
     * UseStateForUnknown); the others become unknown whenever an update is planned.
     */
    default Set<String> stableComputed() {
        return Set.of();
    }

    /** Resource-specific checks of a configuration; unknown values must be tolerated. */
    default void validate(Value config, ProviderDiagnostics.Builder diags) {}

    /**
     * Adjusts the plan the framework made. {@code plan.planned()} already has defaults applied,
     * computed attributes unknown where they will change, and force-new changes found.
     */
    default Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
        return plan.planned();
    }

    /**
     * Creates the object and returns its state, wholly known. {@code idempotencyToken} names this
     * create across retries; a resource backed by an API that supports it passes it on.
     */
    Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags);

    /** Updates the object in place; the default resolves nothing, so plans with unknowns need an override. */
    default Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
        return planned;
    }

    default void delete(Value prior, ProviderDiagnostics.Builder diags) {}

    /** The object as it is now, or a null value when it no longer exists. */
    default Value read(Value state, ProviderDiagnostics.Builder diags) {
        return state;
    }

    /** The state of an existing object named by {@code id}; the engine reads it afterwards. */
    default Value importState(String id, ProviderDiagnostics.Builder diags) {
        diags.add(ProviderDiagnostic.error(
                "Resource Import Not Implemented",
                "This resource does not support import. Please contact the provider developer for additional"
                        + " information."));
        return null;
    }

    /** The state written with an older schema version, in the current schema's type. */
    default Value upgrade(long version, JsonNode rawState, ProviderDiagnostics.Builder diags) {
        diags.add(ProviderDiagnostic.error(
                "Unable to Upgrade Resource State",
                "This resource has no upgrade from schema version " + version + " to " + schema().version() + "."));
        return null;
    }

    /** The context of one plan: what was, what is configured, and the plan so far. */
    interface PlanContext {
        /** The prior state; a null object on create. */
        Value prior();

        Value config();

        Value planned();

        /** Paths that force replacement, as found so far; add to it to force more. */
        List<AttributePath> requiresReplace();

        default boolean isCreate() {
            return prior().isNull();
        }
    }
}
