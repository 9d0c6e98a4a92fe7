package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.Addrs;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Journal entries keep a snapshot's resources in Terraform's order, and lookups find them by binary search. */
class SortedResourcesTest {
    static final AbsProviderConfig PROVIDER = JournalTest.PROVIDER;

    static AbsResource addr(String module, String name) {
        return Addrs.parseModuleInstance(module).value().resource(Resource.managed("test_thing", name));
    }

    static JournalEntry.SetObject set(AbsResource a, int key, String id) {
        return new JournalEntry.SetObject(
                a,
                PROVIDER,
                ResourceInstanceObject.current(
                        InstanceKey.of(key),
                        0,
                        new JsonValue.ObjectValue(Map.of("id", JsonValue.of(id))),
                        List.of(),
                        List.of()));
    }

    @Test
    void entriesInAnyOrderLeaveTheResourcesSortedAsAFreshSnapshotWould() {
        List<AbsResource> order = List.of(
                addr("", "m"),
                addr("", "a"),
                addr("module.x", "b"),
                addr("", "z"),
                addr("", "a10"),
                addr("", "a2"),
                addr("module.a", "q"));
        StateSnapshot s = StateSnapshot.empty("0.1.0");
        for (AbsResource a : order) {
            s = s.with(set(a, 0, "id-" + a.resource().name()));
        }
        List<AbsResource> got = s.resources().stream().map(ResourceState::addr).toList();
        List<AbsResource> expected = new ArrayList<>(order);
        expected.sort(null);
        assertThat(got).isEqualTo(expected);
        // The same resources given unsorted to the constructor sort the same way.
        StateSnapshot fresh = StateSnapshot.empty("0.1.0").withResources(new ArrayList<>(s.resources()).reversed());
        assertThat(fresh.resources()).isEqualTo(s.resources());
        assertThat(fresh).isEqualTo(s.withLineage(fresh.lineage()));
    }

    @Test
    void aSecondEntryForAResourceReplacesOrAddsItsInstance() {
        AbsResource a = addr("", "a");
        StateSnapshot s = StateSnapshot.empty("0.1.0")
                .with(set(addr("", "b"), 0, "b0"))
                .with(set(a, 1, "a1"))
                .with(set(a, 0, "a0"))
                .with(set(a, 1, "a1-new"));
        assertThat(s.resources()).hasSize(2);
        assertThat(s.objects(a.instance(InstanceKey.of(1))))
                .singleElement()
                .extracting(o -> o.attributes().toString())
                .asString()
                .contains("a1-new");
        assertThat(s.resource(a).orElseThrow().instances())
                .extracting(ResourceInstanceObject::key)
                .containsExactly(InstanceKey.of(0), InstanceKey.of(1));
    }

    @Test
    void lookupFindsEveryResourceAndNothingElse() {
        StateSnapshot s = StateSnapshot.empty("0.1.0");
        for (int i = 0; i < 50; i++) {
            s = s.with(set(addr(i % 3 == 0 ? "" : "module.m[" + i % 3 + "]", "r" + i), 0, "x" + i));
        }
        for (int i = 0; i < 50; i++) {
            AbsResource a = addr(i % 3 == 0 ? "" : "module.m[" + i % 3 + "]", "r" + i);
            assertThat(s.resource(a)).as(a.toString()).map(ResourceState::addr).contains(a);
        }
        assertThat(s.resource(addr("", "r1"))).isEmpty();
        assertThat(s.resource(addr("module.z", "r0"))).isEmpty();
        assertThat(StateSnapshot.empty("0.1.0").resource(addr("", "r0"))).isEmpty();
    }

    /**
     * A version looked up as often as a plan does gets an index by address, which finds what the binary search
     * finds (and nothing it does not); versions made an entry at a time with a lookup each, as an apply makes
     * them, never make one.
     */
    @Test
    void aVersionLookedUpOftenIndexesItsResourcesAndFindsTheSame() {
        int n = 1000;
        List<AbsResource> addrs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            addrs.add(addr("module.m[\"k" + (i * 7919 % n) + "\"]", "r" + (i % 4)));
        }
        StateSnapshot s = StateSnapshot.empty("0.1.0");
        for (AbsResource a : addrs) {
            s = s.with(set(a, 0, "v"));
            assertThat(s.resource(a)).isPresent();
            assertThat(((SortedResources) s.resources()).indexed()).isFalse();
        }
        StateSnapshot decoded = StateSnapshot.empty("0.1.0").withResources(new ArrayList<>(s.resources()));
        SortedResources rs = (SortedResources) decoded.resources();
        assertThat(rs.indexed()).isFalse();
        List<AbsResource> missing = List.of(
                addr("module.m[\"k1\"]", "r9"), addr("", "r0"), addr("module.m[\"zz\"]", "r0"), addr("module.n", "r1"));
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n; i++) {
                AbsResource a = addrs.get(i);
                assertThat(decoded.resource(a))
                        .as(a.toString())
                        .map(ResourceState::addr)
                        .contains(a);
                assertThat(rs.find(a)).isEqualTo(SortedResources.indexOf(rs, a));
            }
            for (AbsResource m : missing) {
                assertThat(decoded.resource(m)).as(m.toString()).isEmpty();
            }
        }
        assertThat(rs.indexed()).isTrue();
        assertThat(rs.find(addrs.get(0))).isEqualTo(SortedResources.indexOf(rs, addrs.get(0)));
    }

    /**
     * Thousands of resources (several chunks, split as they grow) entered in random order, some twice: the
     * list, its lookups and its copies are those of a snapshot sorted from scratch, and older versions stay
     * as they were (versions share chunks).
     */
    @Test
    void manyResourcesAcrossChunksStayInOrderAndOlderVersionsUnchanged() {
        int n = SortedResources.MAX_CHUNK * 5 + 17;
        List<AbsResource> addrs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            addrs.add(addr("module.m[\"k" + (i * 7919 % n) + "\"]", "r" + (i % 3)));
        }
        java.util.Collections.shuffle(addrs, new java.util.Random(7));
        StateSnapshot s = StateSnapshot.empty("0.1.0");
        StateSnapshot half = null;
        for (int i = 0; i < addrs.size(); i++) {
            s = s.with(set(addrs.get(i), 0, "v1"));
            if (i == addrs.size() / 2) {
                half = s;
            }
        }
        for (int i = 0; i < addrs.size(); i += 3) {
            s = s.with(set(addrs.get(i), 0, "v2"));
        }
        StateSnapshot fresh = StateSnapshot.empty("0.1.0").withResources(new ArrayList<>(s.resources()).reversed());
        assertThat(s.resources()).isEqualTo(fresh.resources());
        assertThat(s.resources().toArray()).containsExactly(fresh.resources().toArray());
        assertThat(s.resources()).hasSize(new java.util.HashSet<>(addrs).size());
        for (int i = 0; i < addrs.size(); i++) {
            AbsResource a = addrs.get(i);
            assertThat(s.resource(a)
                            .orElseThrow()
                            .instances()
                            .get(0)
                            .attributes()
                            .toString())
                    .as(a.toString())
                    .contains(i % 3 == 0 ? "v2" : "v1");
        }
        assertThat(half.resources()).hasSize(new java.util.HashSet<>(addrs.subList(0, addrs.size() / 2 + 1)).size());
        assertThat(half.resources().toString()).doesNotContain("v2");
    }
}
