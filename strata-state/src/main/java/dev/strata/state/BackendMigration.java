package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Copies every workspace's state from one backend to another ({@code strata init -migrate-state}):
 * every source state is locked, then every destination, before anything is written, so nobody writes
 * either side meanwhile; each copy is read back and compared; the source is kept as it was.
 */
public final class BackendMigration {
    private BackendMigration() {}

    /**
     * What a migration would do.
     *
     * @param workspaces every source workspace (each is created in the destination)
     * @param withState  those with a stored state, which is copied
     * @param conflicts  destination workspaces that already hold a different state, which the copy overwrites
     */
    public record Plan(List<String> workspaces, List<String> withState, List<String> conflicts) {
        public Plan {
            workspaces = List.copyOf(workspaces);
            withState = List.copyOf(withState);
            conflicts = List.copyOf(conflicts);
        }
    }

    /** One copied state: its workspace and the serial and lineage written to the destination. */
    public record Copied(String workspace, long serial, String lineage, int instances) {}

    /** Looks at both backends without locking or writing anything. */
    public static Result<Plan> plan(Backend from, Backend to) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Result<List<String>> source = from.workspaces();
        Result<List<String>> dest = to.workspaces();
        diags.addAll(source.diagnostics()).addAll(dest.diagnostics());
        if (diags.hasErrors()) {
            return Result.of(null, diags.build());
        }
        List<String> withState = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        for (String w : source.value()) {
            if (sameStorage(from, to, w)) {
                continue;
            }
            StateSnapshot src = peek(from, w, diags);
            if (src == null) {
                continue;
            }
            withState.add(w);
            if (dest.value().contains(w)) {
                StateSnapshot dst = peek(to, w, diags);
                if (dst != null && !(dst.lineage().equals(src.lineage()) && dst.sameContentAs(src))) {
                    conflicts.add(w);
                }
            }
        }
        return Result.of(diags.hasErrors() ? null : new Plan(source.value(), withState, conflicts), diags.build());
    }

    /** The stored state of a workspace, or null when there is none (or it cannot be read: a diagnostic). */
    private static StateSnapshot peek(Backend b, String workspace, Diagnostics.Builder diags) {
        Result<StateManager> r = b.open(workspace, LockRequest.none());
        diags.addAll(r.diagnostics());
        if (r.hasErrors()) {
            return null;
        }
        try (StateManager m = r.value()) {
            return m.exists() ? m.state() : null;
        }
    }

    /**
     * Copies every workspace. Nothing is written unless every state on both sides could be locked and
     * read; a failure while writing leaves the workspaces copied so far (each completely) and the source
     * untouched, so the migration can simply be run again.
     */
    public static Result<List<Copied>> copy(Backend from, Backend to, LockRequest lock) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Result<List<String>> source = from.workspaces();
        diags.addAll(source.diagnostics());
        if (source.hasErrors()) {
            return Result.of(List.of(), diags.build());
        }
        Map<String, StateManager> sources = new LinkedHashMap<>();
        Map<String, StateManager> targets = new LinkedHashMap<>();
        try {
            for (String w : source.value()) {
                if (sameStorage(from, to, w)) {
                    continue;
                }
                Result<StateManager> r = from.open(w, lock);
                diags.addAll(r.diagnostics());
                if (r.hasErrors()) {
                    return Result.of(List.of(), diags.build());
                }
                sources.put(w, r.value());
            }
            Result<List<String>> existing = to.workspaces();
            diags.addAll(existing.diagnostics());
            if (existing.hasErrors()) {
                return Result.of(List.of(), diags.build());
            }
            for (String w : sources.keySet()) {
                if (!existing.value().contains(w)) {
                    Result<String> created = to.createWorkspace(w);
                    diags.addAll(created.diagnostics());
                    if (created.hasErrors()) {
                        return Result.of(List.of(), diags.build());
                    }
                }
                Result<StateManager> r = to.open(w, lock);
                diags.addAll(r.diagnostics());
                if (r.hasErrors()) {
                    return Result.of(List.of(), diags.build());
                }
                targets.put(w, r.value());
            }
            List<Copied> copied = new ArrayList<>();
            for (Map.Entry<String, StateManager> e : sources.entrySet()) {
                String w = e.getKey();
                StateManager src = e.getValue();
                if (!src.exists()) {
                    continue;
                }
                StateSnapshot snapshot = src.state();
                Result<StateSnapshot> written = targets.get(w).replace(snapshot, true);
                diags.addAll(written.diagnostics());
                if (written.hasErrors()) {
                    return Result.of(copied, diags.build());
                }
                Diagnostic mismatch = verify(to, w, snapshot);
                if (mismatch != null) {
                    diags.add(mismatch);
                    return Result.of(copied, diags.build());
                }
                copied.add(new Copied(
                        w,
                        written.value().serial(),
                        written.value().lineage(),
                        snapshot.instanceAddresses().size()));
            }
            return Result.of(copied, diags.build());
        } finally {
            targets.values().forEach(StateManager::close);
            sources.values().forEach(StateManager::close);
        }
    }

    /** Reads the copy back (without the lock, which this process holds) and compares it with the source. */
    private static Diagnostic verify(Backend to, String workspace, StateSnapshot expected) {
        Result<StateManager> r = to.open(workspace, LockRequest.none());
        if (r.hasErrors()) {
            return Diagnostic.error(
                    "Failed to verify the migrated state",
                    "The state copied to workspace \"" + workspace + "\" could not be read back: "
                            + r.diagnostics().asList().get(0).detail(),
                    null);
        }
        try (StateManager m = r.value()) {
            StateSnapshot got = m.state();
            if (!m.exists() || !got.lineage().equals(expected.lineage()) || !got.sameContentAs(expected)) {
                return Diagnostic.error(
                        "Failed to verify the migrated state",
                        "The state read back from workspace \""
                                + workspace + "\" of the new backend differs from the one copied. The source state is "
                                + "unchanged; check the new backend and run the migration again.",
                        null);
            }
            return null;
        }
    }

    /** Whether both backends keep this workspace's state in the same place (nothing to copy, and one lock). */
    static boolean sameStorage(Backend a, Backend b, String workspace) {
        if (a instanceof LocalBackend la && b instanceof LocalBackend lb) {
            return la.statePath(workspace).equals(lb.statePath(workspace));
        }
        if (a instanceof S3Backend sa && b instanceof S3Backend sb) {
            return sa.display(workspace).equals(sb.display(workspace))
                    && java.util.Objects.equals(
                            sa.settings().endpoint(), sb.settings().endpoint());
        }
        if (a instanceof HttpBackend ha && b instanceof HttpBackend hb) {
            return ha.settings().address().equals(hb.settings().address());
        }
        if (a instanceof PgBackend pa && b instanceof PgBackend pb) {
            return pa.location().equals(pb.location());
        }
        return false;
    }
}
