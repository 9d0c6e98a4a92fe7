package dev.strata.stacks.runtime;

import dev.strata.engine.EngineEvents;

/**
 * Progress of a deployment run, per component instance; called from several threads at once.
 * Messages carry addresses and counts, never values.
 */
public interface StackEvents {
    StackEvents NONE = new StackEvents() {};

    /** Work on a component instance started ("planning", "applying", "destroying"). */
    default void componentStarted(String deployment, String component, String what) {}

    /** Work on a component instance ended; {@code outcome} is a short human summary. */
    default void componentFinished(String deployment, String component, String what, String outcome) {}

    /** The engine's own events for one component instance's resources. */
    default EngineEvents engineEvents(String deployment, String component) {
        return EngineEvents.NONE;
    }
}
