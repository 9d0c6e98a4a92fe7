package dev.strata.engine;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids of one walk's operations: each intent's operation id in the journal, which for a create is also
 * the idempotency token the provider sends (a cloud API answers a repeated token with the object the first
 * request made, so a create retried after a crash adopts it instead of making a second).
 *
 * <p>What they need is uniqueness: within the journal (open intents are tracked by id, and a crashed run's
 * intents are carried into the next journal) and across every run against the same API (a token another
 * run used would return that run's object). They need not be unpredictable: the token names a request, it
 * authorises nothing (Terraform's AWS provider makes its client tokens from a timestamp and a counter).
 * So each walk draws one random version-4 UUID, 122 random bits from {@link UUID#randomUUID()}'s secure
 * generator, and numbers its operations from it: the i-th id is that UUID with i added to its low 62 bits.
 * Two walks' ids can only meet if their random starting points fall within a walk's number of operations of
 * each other, as unlikely as two random UUIDs being equal. The ids keep the UUID form (version 4, variant
 * bits) that the journal has always held; one secure draw per walk instead of one per operation, each of
 * which took a lock, a SHA-1 round and (every other id) a read of the OS's random device.
 */
final class OperationIds {
    private final long high;
    private final long low;
    private final AtomicLong next = new AtomicLong();

    OperationIds() {
        this(UUID.randomUUID());
    }

    /** Ids numbered from {@code start} (tests give a fixed one). */
    OperationIds(UUID start) {
        this.high = (start.getMostSignificantBits() & ~0xF000L) | 0x4000L;
        this.low = start.getLeastSignificantBits();
    }

    /** A new id, never returned before by this instance. */
    String next() {
        long n = next.getAndIncrement();
        // The variant's two high bits (10) stay; the other 62 count on from the random start, wrapping within them.
        long lo = Long.MIN_VALUE | ((low + n) & 0x3FFF_FFFF_FFFF_FFFFL);
        return new UUID(high, lo).toString();
    }
}
