package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What happened to each instance during one apply walk (and its destroy pass): the operations that
 * succeeded, the instances that failed, and the instances a deferred expansion found already existing,
 * which need a new plan (§3.6). Written by the vertex (or destroy) that handles the instance, from any
 * thread; the apply's summary reads it once the walk is over.
 */
final class ApplyOutcomes {
    private record Done(AbsResourceInstance addr, Action action) {}

    private final List<Done> succeeded = Collections.synchronizedList(new ArrayList<>());
    private final Set<AbsResourceInstance> failed = ConcurrentHashMap.newKeySet();
    private final List<AbsResourceInstance> needsPlan = Collections.synchronizedList(new ArrayList<>());

    void succeeded(AbsResourceInstance addr, Action action) {
        succeeded.add(new Done(addr, action));
    }

    void failed(AbsResourceInstance addr) {
        failed.add(addr);
    }

    boolean hasFailed(AbsResourceInstance addr) {
        return failed.contains(addr);
    }

    void needsPlan(AbsResourceInstance addr) {
        needsPlan.add(addr);
    }

    /** Successful operations with {@code action}. */
    int count(Action action) {
        synchronized (succeeded) {
            return (int) succeeded.stream().filter(d -> d.action() == action).count();
        }
    }

    /** The instances with at least one successful operation. */
    Set<AbsResourceInstance> done() {
        Set<AbsResourceInstance> out = new HashSet<>();
        synchronized (succeeded) {
            succeeded.forEach(d -> out.add(d.addr()));
        }
        return out;
    }

    /** The failed instances, sorted. */
    List<AbsResourceInstance> failed() {
        return new ArrayList<>(new TreeSet<>(failed));
    }

    /** The instances that need a new plan, in the order they were found. */
    List<AbsResourceInstance> needsPlan() {
        synchronized (needsPlan) {
            return new ArrayList<>(needsPlan);
        }
    }
}
