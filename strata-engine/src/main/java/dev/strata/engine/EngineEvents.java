package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.hcl.Diagnostics;
import java.time.Duration;

/**
 * What the engine reports while it works, for progress views. Called from several threads at once;
 * implementations must be thread-safe. Messages never carry values, only addresses and ids.
 */
public interface EngineEvents {
    EngineEvents NONE = new EngineEvents() {};

    default void refreshStart(AbsResourceInstance addr) {}

    /** A managed object is being read again from its provider; {@code priorId} is its id in the state, or null. */
    default void refreshStart(AbsResourceInstance addr, String priorId) {
        refreshStart(addr);
    }

    default void refreshComplete(AbsResourceInstance addr, String id) {}

    /** An operation started; {@code deposed} is the deposed key for a deposed object, else null. */
    default void applyStart(AbsResourceInstance addr, Action action, String deposed) {}

    /** As {@link #applyStart(AbsResourceInstance, Action, String)}, with the id of the prior object (or null). */
    default void applyStart(AbsResourceInstance addr, Action action, String deposed, String priorId) {
        applyStart(addr, action, deposed);
    }

    /** {@code strata import} asks the provider for the object of {@code id}. */
    default void importingFromId(AbsResourceInstance addr, String id) {}

    /** {@code strata import}: the provider returned objects of these types for the import. */
    default void importPrepared(AbsResourceInstance addr, java.util.List<String> types) {}

    /** An {@code import} block's object is about to be imported while planning. */
    default void importPreparing(AbsResourceInstance addr, String id) {}

    /** An {@code import} block's object is being imported into the state under {@code id}. */
    default void importStart(AbsResourceInstance addr, String id) {}

    /** The object of an {@code import} block is in the state (not called when the import failed). */
    default void importComplete(AbsResourceInstance addr, String id) {}

    /** A deferred resource was expanded during the apply into this instance. */
    default void instanceAdded(AbsResourceInstance addr, Action action) {}

    default void applyComplete(AbsResourceInstance addr, Action action, String id, Duration elapsed) {}

    default void applyErrored(AbsResourceInstance addr, Action action, Duration elapsed, Diagnostics diagnostics) {}

    /** A provisioner of the instance started ({@code type} is {@code local-exec}, {@code file}, {@code remote-exec}). */
    default void provisionStart(AbsResourceInstance addr, String type) {}

    /**
     * One line a running provisioner printed, or said about what it does. Lines of a provisioner whose
     * configuration holds sensitive values are replaced before they get here.
     */
    default void provisionOutput(AbsResourceInstance addr, String type, String line) {}

    /** A provisioner finished; {@code failed} when it returned an error (reported as a diagnostic). */
    default void provisionComplete(AbsResourceInstance addr, String type, boolean failed) {}

    /** An ephemeral resource instance is being opened, renewed or closed. */
    default void ephemeralStart(AbsResourceInstance addr, EphemeralAction action) {}

    /** An ephemeral resource instance was opened, renewed or closed (not called when it failed). */
    default void ephemeralComplete(AbsResourceInstance addr, EphemeralAction action, Duration elapsed) {}

    /** Opening, renewing or closing an ephemeral resource instance failed (reported as a diagnostic). */
    default void ephemeralErrored(AbsResourceInstance addr, EphemeralAction action, Duration elapsed) {}

    /** A transient failure is being retried after {@code delay}. */
    default void retrying(AbsResourceInstance addr, int attempt, Duration delay, String why) {}

    /**
     * A plan found errors: what it planned all the same (the changes of the objects that planned), for a
     * person to see before the errors, as Terraform shows "planned the following actions, but then
     * encountered a problem". Never to be applied or saved: the plan itself is the errors.
     */
    default void planErrored(Plan partial) {}

    /**
     * The walk of a plan or an apply is over (also when it failed): {@code root} evaluates expressions
     * as the root module sees the result, planned values after a plan (unknown where only the apply
     * knows them) and new ones after an apply; {@code rootOutputs} are the root module's output values
     * by name. {@code strata test} evaluates its assertions here; the values may be sensitive-marked.
     */
    default void walkFinished(
            dev.strata.lang.eval.Scope root, java.util.SortedMap<String, dev.strata.lang.value.Value> rootOutputs) {}
}
