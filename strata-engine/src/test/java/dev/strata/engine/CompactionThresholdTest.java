package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import dev.strata.state.JsonValue;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompactionThresholdTest {
    @Test
    void aSmallStateUsesTheMinimum() {
        CompactionThreshold t = new CompactionThreshold(30_000, StateSnapshot.empty("1.11.0"));
        assertThat(t.entries()).isEqualTo(30_000);
        assertThat(t.reached(29_999)).isFalse();
        assertThat(t.reached(30_000)).isTrue();
    }

    @Test
    void aLargeStateWaitsInProportionToItsObjects() {
        StateSnapshot big = withObjects(40_000);
        CompactionThreshold t = new CompactionThreshold(30_000, big);
        assertThat(t.entries()).isEqualTo(40_000 * CompactionThreshold.PER_OBJECT);
        assertThat(t.reached(30_000)).isFalse();
        assertThat(t.reached(80_000)).isTrue();
    }

    @Test
    void eachCompactionSetsTheNextThresholdFromWhatItWrote() {
        CompactionThreshold t = new CompactionThreshold(10, StateSnapshot.empty("1.11.0"));
        assertThat(t.entries()).isEqualTo(10);
        t.compacted(withObjects(25));
        assertThat(t.entries()).isEqualTo(50);
        t.compacted(withObjects(3));
        assertThat(t.entries()).isEqualTo(10);
    }

    @Test
    void theMinimumIsAtLeastOne() {
        assertThatThrownBy(() -> new CompactionThreshold(0, StateSnapshot.empty("1.11.0")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A state of {@code n} objects in two resources (the threshold counts objects, not resources). */
    private static StateSnapshot withObjects(int n) {
        AbsProviderConfig p = AbsProviderConfig.parse("provider[\"registry.terraform.io/hashicorp/x\"]")
                .value();
        List<ResourceState> resources = new ArrayList<>();
        int[] sizes = {n / 2, n - n / 2};
        for (int r = 0; r < 2; r++) {
            List<ResourceInstanceObject> objects = new ArrayList<>();
            for (int i = 0; i < sizes[r]; i++) {
                objects.add(ResourceInstanceObject.current(
                        InstanceKey.of(i), 0, JsonValue.EMPTY_OBJECT, List.of(), List.of()));
            }
            resources.add(new ResourceState(
                    ModuleInstance.ROOT.resource(Resource.managed("x", "r" + r)), null, p, objects, null));
        }
        return StateSnapshot.empty("1.11.0").withResources(resources);
    }
}
