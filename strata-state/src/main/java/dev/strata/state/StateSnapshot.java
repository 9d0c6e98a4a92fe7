package dev.strata.state;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * One immutable snapshot of a state: Terraform's state format version 4 as values. Resources are kept
 * in Terraform's file order (module, mode, type, name) and their objects in key order, so two snapshots
 * with the same content are equal and serialize to the same bytes.
 *
 * @param terraformVersion the {@code terraform_version} field: the version of the program that wrote it
 *                         (Strata writes its own version)
 * @param serial           increases with every written change of this lineage
 * @param lineage          identifies the history this snapshot belongs to (a UUID when Strata creates it)
 * @param outputs          root module outputs by name
 * @param resources        resources with their instance objects
 * @param checkResults     check results of the last run; null when the file had none ({@code null} in JSON)
 * @param extra            top-level members this version does not know, written back unchanged
 */
public record StateSnapshot(
        String terraformVersion,
        long serial,
        String lineage,
        Map<String, OutputValue> outputs,
        List<ResourceState> resources,
        List<CheckResult> checkResults,
        JsonValue.ObjectValue extra) {

    private static final Comparator<ResourceState> RESOURCE_ORDER =
            Comparator.comparing(ResourceState::addr, StateOrder.RESOURCES);

    /** A sorted immutable copy; the common already-sorted case (every with* call, journal replay) costs one pass. */
    static <T> List<T> sortedCopy(List<T> items, Comparator<? super T> order) {
        for (int i = 1; i < items.size(); i++) {
            if (order.compare(items.get(i - 1), items.get(i)) > 0) {
                return items.stream().sorted(order).toList();
            }
        }
        return List.copyOf(items);
    }

    /** The only state format version Strata reads and writes. */
    public static final int FORMAT_VERSION = 4;

    public StateSnapshot {
        Objects.requireNonNull(terraformVersion, "terraformVersion");
        Objects.requireNonNull(lineage, "lineage");
        if (serial < 0) {
            throw new IllegalArgumentException("serial must not be negative: " + serial);
        }
        outputs = Collections.unmodifiableMap(new TreeMap<>(outputs));
        resources = SortedResources.of(
                resources instanceof SortedResources ? resources : sortedCopy(resources, RESOURCE_ORDER));
        checkResults = checkResults == null ? null : List.copyOf(checkResults);
        extra = extra == null ? JsonValue.EMPTY_OBJECT : extra;
    }

    /** An empty state of a new lineage, serial 0: what a first apply starts from. */
    public static StateSnapshot empty(String terraformVersion) {
        return new StateSnapshot(terraformVersion, 0, newLineage(), Map.of(), List.of(), null, null);
    }

    /** A fresh lineage: a random UUID, as Terraform makes them. */
    public static String newLineage() {
        return UUID.randomUUID().toString();
    }

    public StateSnapshot withSerial(long newSerial) {
        return new StateSnapshot(terraformVersion, newSerial, lineage, outputs, resources, checkResults, extra);
    }

    public StateSnapshot withLineage(String newLineage) {
        return new StateSnapshot(terraformVersion, serial, newLineage, outputs, resources, checkResults, extra);
    }

    public StateSnapshot withTerraformVersion(String version) {
        return new StateSnapshot(version, serial, lineage, outputs, resources, checkResults, extra);
    }

    public StateSnapshot withResources(List<ResourceState> newResources) {
        return new StateSnapshot(terraformVersion, serial, lineage, outputs, newResources, checkResults, extra);
    }

    public StateSnapshot withOutputs(Map<String, OutputValue> newOutputs) {
        return new StateSnapshot(terraformVersion, serial, lineage, newOutputs, resources, checkResults, extra);
    }

    public StateSnapshot withCheckResults(List<CheckResult> results) {
        return new StateSnapshot(terraformVersion, serial, lineage, outputs, resources, results, extra);
    }

    /**
     * Whether the two snapshots record the same things, ignoring serial, lineage and the writer's
     * version: a write whose content did not change needs no new serial.
     */
    public boolean sameContentAs(StateSnapshot o) {
        return outputs.equals(o.outputs)
                && resources.equals(o.resources)
                && Objects.equals(checkResults, o.checkResults)
                && extra.equals(o.extra);
    }

    public Optional<ResourceState> resource(AbsResource addr) {
        // resources are sorted by address (the constructor sees to it): a binary search, not a scan per lookup,
        // which the engine does once per instance (quadratic at 10,000 instances).
        int i = ((SortedResources) resources).find(addr);
        return i >= 0 ? Optional.of(resources.get(i)) : Optional.empty();
    }

    /** Every instance that has at least one object (current or deposed), in Terraform's order. */
    public List<AbsResourceInstance> instanceAddresses() {
        TreeSet<AbsResourceInstance> out = new TreeSet<>(StateOrder.INSTANCES);
        for (ResourceState r : resources) {
            for (ResourceInstanceObject o : r.instances()) {
                out.add(r.addr().instance(o.key()));
            }
        }
        return new ArrayList<>(out);
    }

    /** The current and deposed objects of one instance (current first). */
    public List<ResourceInstanceObject> objects(AbsResourceInstance addr) {
        Optional<ResourceState> r = resource(addr.containingResource());
        if (r.isEmpty()) {
            return List.of();
        }
        // Instances are sorted by key (then deposed key): a binary search for the first with this key, not a
        // scan, which the engine does once per instance (quadratic for one resource with 10,000 instances).
        List<ResourceInstanceObject> all = r.get().instances();
        int lo = 0;
        int hi = all.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (all.get(mid).key().compareTo(addr.resource().key()) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int end = lo;
        while (end < all.size() && all.get(end).key().equals(addr.resource().key())) {
            end++;
        }
        return List.copyOf(all.subList(lo, end));
    }

    /** This snapshot with one journal entry applied, as replaying the journal would (pure). */
    public StateSnapshot with(JournalEntry entry) {
        return Journal.apply(this, entry);
    }

    public boolean isEmpty() {
        return resources.isEmpty() && outputs.isEmpty();
    }
}
