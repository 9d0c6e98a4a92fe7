package dev.strata.state;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Measures the CPU the local journal takes to record N creates of one counted resource as an apply records
 * them (each create's intent appended alone, then its object and the end of its intent as one step), the
 * instances in a shuffled order as concurrent creates finish. The journal is in {@code /dev/shm} so that the
 * syncs cost no disk wait. Run by hand; prints the calling thread's CPU per round, asserts nothing about it:
 * {@code java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp <test classpath> dev.strata.state.JournalAppendMeasure
 * N ROUNDS} (the first round runs cold, as an apply's first creates do).
 */
public final class JournalAppendMeasure {
    static final AbsResource THING = ModuleInstance.ROOT.resource(Resource.managed("cloudsim_bucket", "w0"));
    static final AbsProviderConfig PROVIDER = AbsProviderConfig.parse(
                    "provider[\"registry.terraform.io/strata/cloudsim\"]")
            .value();

    private JournalAppendMeasure() {}

    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        int rounds = Integer.parseInt(a[1]);
        var bean = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int r = 0; r < rounds; r++) {
            List<Integer> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) keys.add(i);
            Collections.shuffle(keys, new Random(r));
            Path dir = Files.createTempDirectory(Path.of("/dev/shm"), "jb");
            StateManager m = LocalBackend.in(dir, "0.1.0")
                    .open("default", LockRequest.of("apply", Duration.ZERO))
                    .value();
            long c0 = bean.getCurrentThreadCpuTime();
            for (int i : keys) {
                String op =
                        java.util.UUID.nameUUIDFromBytes(("op" + i).getBytes()).toString();
                m.append(new JournalEntry.Intent(op, THING.instance(InstanceKey.of(i)), "create"));
                Map<String, JsonValue> attrs = new LinkedHashMap<>();
                attrs.put("arn", JsonValue.of("arn:sim:bucket:w0-" + i));
                attrs.put("id", JsonValue.of("bkt-" + Integer.toHexString(i * 7919)));
                attrs.put("name", JsonValue.of("w0-" + i));
                attrs.put("region", JsonValue.of("sim-1"));
                attrs.put("tags", JsonValue.NULL);
                attrs.put("versioning", JsonValue.FALSE);
                ResourceInstanceObject o = ResourceInstanceObject.current(
                        InstanceKey.of(i), 0, new JsonValue.ObjectValue(attrs), List.of(), List.of());
                m.appendAll(List.of(new JournalEntry.SetObject(THING, PROVIDER, o), new JournalEntry.Completed(op)));
            }
            long c1 = bean.getCurrentThreadCpuTime();
            m.compact();
            m.close();
            System.out.printf(
                    "n=%d round %d: %.1f ms CPU (%.1f us per create)%n", n, r, (c1 - c0) / 1e6, (c1 - c0) / 1e3 / n);
            try (var s = Files.list(dir)) {
                s.forEach(p -> p.toFile().delete());
            }
            Files.delete(dir);
        }
    }
}
