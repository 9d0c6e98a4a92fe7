package dev.strata.state;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import java.util.Objects;

/**
 * One change appended to a state's journal (ARCHITECTURE §3.8): durable when
 * {@link StateManager#append} returns, at a cost proportional to the change rather than to the state,
 * and folded into the snapshot by {@link StateManager#compact}. Replaying the entries over the snapshot
 * gives the current state.
 */
public sealed interface JournalEntry {

    /** Sets one object (current or deposed, by its key and deposed key) of a resource, creating the resource if needed. */
    record SetObject(AbsResource resource, AbsProviderConfig provider, ResourceInstanceObject object)
            implements JournalEntry {
        public SetObject {
            Objects.requireNonNull(resource, "resource");
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(object, "object");
        }
    }

    /** Removes one object; {@code deposed} null means the current object. */
    record RemoveObject(AbsResourceInstance instance, String deposed) implements JournalEntry {
        public RemoveObject {
            Objects.requireNonNull(instance, "instance");
        }
    }

    record SetOutput(String name, OutputValue value) implements JournalEntry {
        public SetOutput {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }

    record RemoveOutput(String name) implements JournalEntry {
        public RemoveOutput {
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * An operation about to start (e.g. a create call to a provider), written before it begins so that
     * after a crash the engine knows which operations may have happened without their results.
     */
    record Intent(String operationId, AbsResourceInstance instance, String action) implements JournalEntry {
        public Intent {
            Objects.requireNonNull(operationId, "operationId");
            Objects.requireNonNull(instance, "instance");
            Objects.requireNonNull(action, "action");
        }
    }

    /** The operation of an {@link Intent} finished (its result, if any, is in an entry before this one). */
    record Completed(String operationId) implements JournalEntry {
        public Completed {
            Objects.requireNonNull(operationId, "operationId");
        }
    }
}
