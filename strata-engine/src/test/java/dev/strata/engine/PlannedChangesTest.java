package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PlannedChangesTest {
    private static final AbsProviderConfig PROVIDER = AbsProviderConfig.parse(
                    "provider[\"registry.terraform.io/hashicorp/null\"]")
            .value();

    private static ResourceChange change(String addr, String deposed) {
        AbsResourceInstance ai = Addrs.parseAbsResourceInstance(addr).value();
        return new ResourceChange(
                ai, deposed, Action.NO_OP, Value.NULL, Value.NULL, List.of(), null, PROVIDER, 0, null, null, null);
    }

    @Test
    void manyChangesComeOutInTerraformsOrderWhicheverOrderTheyArrived() {
        // More than the 8,192 from which the sort runs in parallel; module instances, data before managed,
        // nested modules after their parents, deposed objects after the current one in key order.
        List<ResourceChange> made = new ArrayList<>();
        for (int m = 0; m < 600; m++) {
            String module = "module.m[\"k" + m + "\"].";
            for (int r = 0; r < 8; r++) {
                made.add(change(module + "null_resource.r" + r + "[" + (r % 3) + "]", null));
            }
            made.add(change(module + "data.null_data_source.d", null));
            made.add(change(module + "module.inner[" + (m % 7) + "].null_resource.x", null));
            made.add(change(module + "null_resource.r1[1]", m % 2 == 0 ? "bbbb" + m : "aaaa" + m));
            made.add(change("null_resource.top[" + m + "]", null));
        }
        List<ResourceChange> arrival = new ArrayList<>(made);
        Collections.shuffle(arrival, new Random(19));
        PlannedChanges planned = new PlannedChanges();
        for (ResourceChange c : arrival) {
            if (c.deposed() == null) {
                planned.change(c.addr(), c);
            } else {
                planned.deposed(c);
            }
        }
        List<ResourceChange> expected = new ArrayList<>(made);
        expected.sort(ResourceChange.TERRAFORM_ORDER.thenComparing(c -> c.deposed() == null ? "" : c.deposed()));
        assertThat(made.size()).isGreaterThan(8192);
        assertThat(planned.changes()).containsExactlyElementsOf(expected);
        assertThat(planned.changes().getFirst().addr().toString()).isEqualTo("null_resource.top[0]");
    }
}
