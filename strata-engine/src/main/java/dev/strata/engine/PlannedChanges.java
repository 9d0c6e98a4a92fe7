package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What one plan walk decided, as its vertices decide it: the action of each instance (written only by
 * the vertex of its resource, or by the orphan pass after the walk), the actions on deposed objects,
 * the changes made outside Strata, the resources deferred to apply and the root outputs' changes.
 * Vertices run concurrently, so everything here is safe to add to from any thread; the plan reads it
 * once the walk is over, in Terraform's order.
 */
final class PlannedChanges {
    private final ConcurrentMap<AbsResourceInstance, ResourceChange> current = new ConcurrentHashMap<>();
    private final List<ResourceChange> deposed = Collections.synchronizedList(new ArrayList<>());
    private final List<ResourceChange> drift = Collections.synchronizedList(new ArrayList<>());
    private final List<DeferredResource> deferred = Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentMap<String, OutputChange> outputs = new ConcurrentHashMap<>();

    /** The action planned for the current object of {@code addr} (replacing an earlier decision for it). */
    void change(AbsResourceInstance addr, ResourceChange c) {
        current.put(addr, c);
    }

    /** The current objects' changes decided so far (a live view: other vertices may still add). */
    Collection<ResourceChange> currentChanges() {
        return current.values();
    }

    void deposed(ResourceChange c) {
        deposed.add(c);
    }

    /** A change made outside Strata that the refresh found. */
    void drift(ResourceChange c) {
        drift.add(c);
    }

    void deferred(DeferredResource d) {
        deferred.add(d);
    }

    void output(OutputChange c) {
        outputs.put(c.name(), c);
    }

    /** Every change, current objects and deposed ones, in Terraform's order. */
    List<ResourceChange> changes() {
        List<ResourceChange> out = new ArrayList<>(current.values());
        synchronized (deposed) {
            out.addAll(deposed);
        }
        out.sort(ResourceChange.TERRAFORM_ORDER.thenComparing(c -> c.deposed() == null ? "" : c.deposed()));
        return out;
    }

    List<ResourceChange> drift() {
        List<ResourceChange> out;
        synchronized (drift) {
            out = new ArrayList<>(drift);
        }
        out.sort(ResourceChange.TERRAFORM_ORDER);
        return out;
    }

    List<DeferredResource> deferred() {
        List<DeferredResource> out;
        synchronized (deferred) {
            out = new ArrayList<>(deferred);
        }
        out.sort(Comparator.comparing(DeferredResource::addr));
        return out;
    }

    SortedMap<String, OutputChange> outputs() {
        return new TreeMap<>(outputs);
    }
}
