package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Operation ids and create tokens: unique, in version-4 UUID form, numbered from one random draw per walk. */
class OperationIdsTest {
    @Test
    void idsAreDistinctVersionFourUuidsEvenWhereTheLowBitsWrap() {
        // A start whose low 62 bits are all ones: the third id wraps them around to zero.
        OperationIds ids = new OperationIds(new UUID(0x1234_5678_9abc_def0L, -1L));
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = ids.next();
            UUID u = UUID.fromString(id);
            assertThat(u.version()).isEqualTo(4);
            assertThat(u.variant()).isEqualTo(2);
            assertThat(u.toString()).isEqualTo(id);
            assertThat(seen.add(id)).as("id %s repeated after %d", id, i).isTrue();
        }
        assertThat(seen).contains("12345678-9abc-4ef0-bfff-ffffffffffff", "12345678-9abc-4ef0-8000-000000000000");
    }

    @Test
    void eachWalkStartsFromItsOwnRandomDraw() {
        Set<String> firsts = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            firsts.add(new OperationIds().next());
        }
        assertThat(firsts).hasSize(100);
    }

    @Test
    void idsFromManyThreadsAreAllDistinct() throws Exception {
        OperationIds ids = new OperationIds();
        Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Thread[] ts = new Thread[8];
        for (int t = 0; t < ts.length; t++) {
            ts[t] = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 1_000; i++) {
                    seen.add(ids.next());
                }
            });
        }
        for (Thread t : ts) {
            t.join();
        }
        assertThat(seen).hasSize(8_000);
    }
}
