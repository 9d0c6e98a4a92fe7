package dev.strata.state;

import dev.strata.addr.AbsResource;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.RandomAccess;

/**
 * An immutable list of resources already in {@link StateSnapshot}'s order, made only where that order
 * is kept by construction (a journal entry placed by binary search), so that the snapshot need not
 * compare every neighbour again: that check per applied instance made an apply quadratic.
 *
 * <p>Held in chunks of at most {@link #MAX_CHUNK} resources that versions share: setting or inserting one
 * resource copies one chunk and the chunk table, not the whole list. An apply records every instance in a
 * new snapshot; with one flat array, 100,000 resources (module instances each hold their own) meant
 * copying 100,000 references per journal entry, a tenth of the apply's time and most of its garbage.
 */
final class SortedResources extends AbstractList<ResourceState> implements RandomAccess {
    /** Chunks split in two above this size; small enough to copy cheaply, large enough for a short table. */
    static final int MAX_CHUNK = 512;

    private final ResourceState[][] chunks;
    /** {@code starts[i]} is the index of {@code chunks[i][0]}; one more entry holds the size. */
    private final int[] starts;
    /**
     * Index by address, made once this version has had a quarter as many lookups as it has resources: a plan
     * looks up every resource of one snapshot (a binary search of 17 address comparisons each at 100,000),
     * while an apply makes a new version per journal entry with a few lookups each, so it never pays for one.
     */
    private volatile Map<AbsResource, Integer> index;
    /** Lookups so far; counted without synchronisation (a lost count only delays the index). */
    private int lookups;

    /** A version gets its index after {@code size / INDEX_AFTER} lookups, which cost about what making it does. */
    static final int INDEX_AFTER = 4;

    private SortedResources(ResourceState[][] chunks) {
        this.chunks = chunks;
        this.starts = new int[chunks.length + 1];
        for (int i = 0; i < chunks.length; i++) {
            starts[i + 1] = starts[i] + chunks[i].length;
        }
    }

    /** {@code sorted} must be in the snapshot's resource order; it is copied. */
    static SortedResources of(List<ResourceState> sorted) {
        if (sorted instanceof SortedResources s) {
            return s;
        }
        ResourceState[] all = sorted.toArray(new ResourceState[0]);
        int n = (all.length + MAX_CHUNK / 2 - 1) / (MAX_CHUNK / 2);
        ResourceState[][] chunks = new ResourceState[n][];
        for (int i = 0; i < n; i++) {
            chunks[i] = Arrays.copyOfRange(all, i * (MAX_CHUNK / 2), Math.min(all.length, (i + 1) * (MAX_CHUNK / 2)));
        }
        return new SortedResources(chunks);
    }

    /** This list with the resource at {@code index} replaced; the caller keeps the order. */
    SortedResources with(int index, ResourceState r) {
        int c = chunkOf(index);
        ResourceState[] chunk = chunks[c].clone();
        chunk[index - starts[c]] = r;
        ResourceState[][] out = chunks.clone();
        out[c] = chunk;
        return new SortedResources(out);
    }

    /** This list with {@code r} inserted at {@code index} (0..size); the caller keeps the order. */
    SortedResources inserted(int index, ResourceState r) {
        if (chunks.length == 0) {
            return new SortedResources(new ResourceState[][] {{r}});
        }
        int c = index == size() ? chunks.length - 1 : chunkOf(index);
        ResourceState[] old = chunks[c];
        int at = index - starts[c];
        ResourceState[] chunk = new ResourceState[old.length + 1];
        System.arraycopy(old, 0, chunk, 0, at);
        chunk[at] = r;
        System.arraycopy(old, at, chunk, at + 1, old.length - at);
        if (chunk.length <= MAX_CHUNK) {
            ResourceState[][] out = chunks.clone();
            out[c] = chunk;
            return new SortedResources(out);
        }
        ResourceState[][] out = new ResourceState[chunks.length + 1][];
        System.arraycopy(chunks, 0, out, 0, c);
        int half = chunk.length / 2;
        out[c] = Arrays.copyOfRange(chunk, 0, half);
        out[c + 1] = Arrays.copyOfRange(chunk, half, chunk.length);
        System.arraycopy(chunks, c + 1, out, c + 2, chunks.length - c - 1);
        return new SortedResources(out);
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

    /** The index of {@code addr}, or a negative number if it is not here. */
    int find(AbsResource addr) {
        Map<AbsResource, Integer> ix = index;
        if (ix == null && ++lookups > size() / INDEX_AFTER && size() > 64) {
            ix = new HashMap<>(size() * 2);
            int i = 0;
            for (ResourceState[] chunk : chunks) {
                for (ResourceState r : chunk) {
                    ix.put(r.addr(), i++);
                }
            }
            index = ix;
        }
        if (ix != null) {
            Integer i = ix.get(addr);
            return i == null ? -1 : i;
        }
        return indexOf(this, addr);
    }

    /** The chunk holding {@code index}: the last one starting at or before it. */
    private int chunkOf(int index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException(index);
        }
        int i = Arrays.binarySearch(starts, 0, chunks.length, index);
        if (i < 0) {
            return -i - 2;
        }
        // Empty chunks are never made, so equal starts do not occur.
        return i;
    }

    @Override
    public ResourceState get(int index) {
        int c = chunkOf(index);
        return chunks[c][index - starts[c]];
    }

    @Override
    public int size() {
        return starts[chunks.length];
    }

    /** Whether this version has made its index yet (for tests). */
    boolean indexed() {
        return index != null;
    }

    // Iteration (equals, hashCode, for-each) walks the chunks instead of locating each index through get().
    @Override
    public Iterator<ResourceState> iterator() {
        return new Iterator<>() {
            private int chunk;
            private int at;

            @Override
            public boolean hasNext() {
                while (chunk < chunks.length && at == chunks[chunk].length) {
                    chunk++;
                    at = 0;
                }
                return chunk < chunks.length;
            }

            @Override
            public ResourceState next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return chunks[chunk][at++];
            }
        };
    }

    // Copies (new ArrayList<>(this), of(...)) are chunk copies, not an iteration through get().
    @Override
    public Object[] toArray() {
        return toArray(new ResourceState[0]);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T[] toArray(T[] a) {
        int n = size();
        T[] out = a.length >= n
                ? a
                : (T[]) java.lang.reflect.Array.newInstance(a.getClass().getComponentType(), n);
        for (int i = 0; i < chunks.length; i++) {
            System.arraycopy(chunks[i], 0, out, starts[i], chunks[i].length);
        }
        if (out.length > n) {
            out[n] = null;
        }
        return out;
    }
}
