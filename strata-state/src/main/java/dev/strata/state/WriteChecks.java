package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;

/**
 * The refusals every state manager makes before writing, worded alike for every backend: a write of
 * another history (persist), a push of another history or an older serial without -force, a write after
 * the lock was lost or after another writer changed the state, and a journal append without the lock.
 */
final class WriteChecks {
    private WriteChecks() {}

    /**
     * The serial of the snapshot about to be written over {@code current}: one past it (or what
     * {@code next} already has, if higher); for a new state whose history may start afresh, from 1. A
     * placeholder (the empty snapshot a journal extends before the first entry) keeps its serial 0, so
     * that the first real write is serial 1, as Terraform's first write is.
     */
    static long serial(
            boolean exists, boolean lineageMayChange, boolean placeholder, StateSnapshot next, StateSnapshot current) {
        if (placeholder) {
            return next.serial();
        }
        return exists || !lineageMayChange ? Math.max(next.serial(), current.serial() + 1) : Math.max(next.serial(), 1);
    }

    /** The refusal of writing {@code next} over {@code stored} (at {@code where}), or null when it may be written. */
    static Result<StateSnapshot> persist(boolean exists, StateSnapshot stored, StateSnapshot next, String where) {
        if (exists && !next.lineage().equals(stored.lineage())) {
            return error(
                    "Refusing to write a state of another lineage",
                    "The state to write has lineage \"" + next.lineage() + "\", but " + where + " has lineage \""
                            + stored.lineage()
                            + "\": it belongs to a different history, and writing it would lose the stored one.");
        }
        return null;
    }

    /** The refusal of replacing {@code stored} by {@code incoming} ({@code state push}), or null when allowed. */
    static Result<StateSnapshot> replace(boolean exists, StateSnapshot stored, StateSnapshot incoming, boolean force) {
        if (!exists || force) {
            return null;
        }
        if (!incoming.lineage().equals(stored.lineage())) {
            return error(
                    "Failed to write state",
                    "cannot import state with lineage \"" + incoming.lineage()
                            + "\" over unrelated state with lineage \"" + stored.lineage()
                            + "\". Use -force to overwrite it anyway.");
        }
        if (Long.compareUnsigned(incoming.serial(), stored.serial()) < 0) {
            return error(
                    "Failed to write state",
                    "cannot import state with serial " + incoming.serial() + " over newer state with serial "
                            + stored.serial() + ". Use -force to overwrite it anyway.");
        }
        return null;
    }

    /** The refusal of writing after the lock was lost; {@code cause} says how (one clause, no final stop). */
    static Result<StateSnapshot> lockLost(String cause) {
        return error(
                "State lock lost",
                cause + ". The state was not written, so that another writer's changes are not overwritten.");
    }

    /** How a lock Strata took and then lost reads in {@link #lockLost}: {@code reason} is what became of it. */
    static String notHeld(String where, String reason) {
        return "Strata no longer holds the lock of " + where + ": " + reason;
    }

    /**
     * The refusal of writing over a state that another {@code writer} (a process, a client) changed after
     * it was read; {@code how} is what is known of how that could happen (locking off, say), or "".
     */
    static Result<StateSnapshot> changedSinceRead(String what, String writer, String how) {
        return error(
                "The state changed since it was read",
                what + " was changed by another " + writer + " after Strata read it" + how
                        + ". The state was not written, so that the other change is not lost; run the command again.");
    }

    /** The refusal of a journal append without the lock; {@code hint} says how to turn locking on, or "". */
    static Result<StateSnapshot> journalNeedsLock(String where, String hint) {
        return error(
                "The journal needs the state lock",
                "Appending to the journal of " + where
                        + " without holding its lock could interleave with another writer; open the state with"
                        + " locking on" + hint + ".");
    }

    static Result<StateSnapshot> error(String summary, String detail) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }
}
