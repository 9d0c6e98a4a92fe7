package dev.strata.state;

import dev.strata.addr.AbsResource;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * An immutable list of resources already in {@link StateSnapshot}'s order, made only where that order
 * is kept by construction (a journal entry placed by binary search), so that the snapshot need not
 * compare every neighbour again: that check per applied instance made an apply quadratic.
 */
final class SortedResources extends AbstractList<ResourceState> implements RandomAccess {
    private final ResourceState[] items;

    private SortedResources(ResourceState[] items) {
        this.items = items;
    }

    /** {@code sorted} must be in the snapshot's resource order; it is copied. */
    static SortedResources of(List<ResourceState> sorted) {
        return new SortedResources(sorted.toArray(new ResourceState[0]));
    }

    /** The index of {@code addr} in {@code sorted}, or {@code -(insertion point) - 1}. */
    static int indexOf(List<ResourceState> sorted, AbsResource addr) {
        int lo = 0;
        int hi = sorted.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = StateOrder.compare(sorted.get(mid).addr(), addr);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo - 1;
    }

    @Override
    public ResourceState get(int index) {
        return items[index];
    }

    @Override
    public int size() {
        return items.length;
    }

    // Copies (new ArrayList<>(this), of(...)) are one array copy, not an iteration through get().
    @Override
    public Object[] toArray() {
        return items.clone();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T[] toArray(T[] a) {
        if (a.length < items.length) {
            return (T[]) java.util.Arrays.copyOf(items, items.length, a.getClass());
        }
        System.arraycopy(items, 0, a, 0, items.length);
        if (a.length > items.length) {
            a[items.length] = null;
        }
        return a;
    }
}
