package dev.strata.sdk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/** A resource's {@code lifecycle} block. */
public final class Lifecycle {
    Boolean createBeforeDestroy;
    Boolean preventDestroy;
    boolean ignoreAll;
    final TreeSet<String> ignoreChanges = new TreeSet<>();
    final List<Value> replaceTriggeredBy = new ArrayList<>();

    Lifecycle() {}

    public Lifecycle createBeforeDestroy(boolean on) {
        createBeforeDestroy = on;
        return this;
    }

    public Lifecycle preventDestroy(boolean on) {
        preventDestroy = on;
        return this;
    }

    /** Top-level attribute names whose changes are ignored. */
    public Lifecycle ignoreChanges(String... attributes) {
        ignoreChanges.addAll(Arrays.asList(attributes));
        return this;
    }

    public Lifecycle ignoreAllChanges() {
        ignoreAll = true;
        return this;
    }

    /** References to resources or their attributes whose change replaces this resource. */
    public Lifecycle replaceTriggeredBy(Value... references) {
        replaceTriggeredBy.addAll(Arrays.asList(references));
        return this;
    }

    boolean isEmpty() {
        return createBeforeDestroy == null
                && preventDestroy == null
                && !ignoreAll
                && ignoreChanges.isEmpty()
                && replaceTriggeredBy.isEmpty();
    }
}
