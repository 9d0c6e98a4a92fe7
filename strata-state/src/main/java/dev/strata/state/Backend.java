package dev.strata.state;

import dev.strata.hcl.Result;
import java.util.List;

/**
 * Where states are stored: one state per workspace, each with its own lock. Every method reports
 * problems as diagnostics; nothing is half-written when one fails.
 */
public interface Backend {

    /** Every workspace, sorted; {@code default} is always there. */
    Result<List<String>> workspaces();

    /** Creates an empty workspace; an error if it exists or the name is not allowed. */
    Result<String> createWorkspace(String name);

    /** Removes a workspace and its state; the caller checks emptiness and locks first. */
    Result<String> deleteWorkspace(String name);

    /**
     * Opens a workspace's state, locking it as requested (waiting up to the request's timeout).
     * Warnings (for instance a stale lock taken over) come with the value; on errors the value is null
     * and nothing is locked.
     */
    Result<StateManager> open(String workspace, LockRequest lock);

    /** Removes the lock with this ID from a workspace's state when its holder is gone; returns what it removed. */
    Result<LockInfo> forceUnlock(String workspace, String lockId);
}
