package dev.strata.state;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AttributePath;
import dev.strata.addr.ConfigResource;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.Module;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import dev.strata.hcl.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures reading and writing a generated ~100 MB state with 15,000 resource instances, through the
 * codec and through the local backend (atomic write with fsync). Run by hand; prints times, asserts
 * nothing about them:
 * {@code java -cp <test classpath> dev.strata.state.LargeStateMeasure}.
 */
public final class LargeStateMeasure {
    public static void main(String[] args) throws Exception {
        StateSnapshot s = generate(15_000, 4_600);
        byte[] bytes = StateCodec.write(s);
        System.out.printf(
                "state: %d instances, %.1f MB%n", s.instanceAddresses().size(), bytes.length / 1e6);
        Path dir = Files.createTempDirectory("strata-large");
        for (int round = 1; round <= 5; round++) {
            long t0 = System.nanoTime();
            Result<StateSnapshot> r = StateCodec.read(bytes, "big.tfstate", "");
            long t1 = System.nanoTime();
            byte[] again = StateCodec.write(r.value());
            long t2 = System.nanoTime();
            LocalBackend b = LocalBackend.in(dir, "0.1.0");
            long t3 = System.nanoTime();
            try (StateManager m =
                    b.open("default", LockRequest.of("bench", Duration.ZERO)).value()) {
                long t4 = System.nanoTime();
                StateSnapshot next = StateProcess.withCounter(
                        m.exists() ? m.state() : s.withLineage(m.state().lineage()), round);
                Result<StateSnapshot> w = m.persist(next);
                long t5 = System.nanoTime();
                if (w.hasErrors() || again.length != bytes.length) {
                    throw new IllegalStateException(w.diagnostics().toString());
                }
                long t6 = System.nanoTime();
                int appends = 200;
                for (int i = 0; i < appends; i++) {
                    Result<StateSnapshot> a = m.append(new JournalEntry.SetOutput(
                            "o" + i, new OutputValue(JsonValue.of("v" + round), JsonValue.of("string"), false)));
                    if (a.hasErrors()) {
                        throw new IllegalStateException(a.diagnostics().toString());
                    }
                }
                long t7 = System.nanoTime();
                System.out.printf(
                        "round %d: codec read %d ms, codec write %d ms, backend open+read %d ms, backend persist (backup+fsync) %d ms,"
                                + " journal append %.2f ms each%n",
                        round,
                        (t1 - t0) / 1_000_000,
                        (t2 - t1) / 1_000_000,
                        (t4 - t3) / 1_000_000,
                        (t5 - t4) / 1_000_000,
                        (t7 - t6) / 1e6 / appends);
            }
        }
    }

    private static StateSnapshot generate(int instances, int payload) {
        List<ResourceState> resources = new ArrayList<>();
        int perResource = 10;
        for (int r = 0; r < instances / perResource; r++) {
            List<ResourceInstanceObject> objs = new ArrayList<>();
            for (int i = 0; i < perResource; i++) {
                Map<String, JsonValue> attrs = new LinkedHashMap<>();
                attrs.put("id", JsonValue.of("i-" + r + "-" + i));
                attrs.put("arn", JsonValue.of("arn:aws:ec2:eu-west-1:123456789012:instance/i-" + r + "-" + i));
                attrs.put("cpu", JsonValue.NumberValue.of(r % 64));
                attrs.put(
                        "tags",
                        new JsonValue.ObjectValue(
                                Map.of("Name", JsonValue.of("web-" + r), "Team", JsonValue.of("infra"))));
                attrs.put("user_data", JsonValue.of("#!/bin/sh\n" + "echo x > /dev/null\n".repeat(payload / 19)));
                attrs.put("enabled", JsonValue.TRUE);
                objs.add(ResourceInstanceObject.current(
                        InstanceKey.of(i),
                        1,
                        new JsonValue.ObjectValue(attrs),
                        List.of(new AttributePath(List.of(new AttributePath.Attr("user_data")))),
                        List.of(new ConfigResource(Module.ROOT, Resource.managed("aws_vpc", "main")))));
            }
            ModuleInstance module =
                    r % 3 == 0 ? ModuleInstance.ROOT.child("m" + (r % 7), InstanceKey.NONE) : ModuleInstance.ROOT;
            resources.add(new ResourceState(
                    module.resource(Resource.managed("aws_instance", "r" + r)),
                    null,
                    AbsProviderConfig.parse("provider[\"registry.terraform.io/hashicorp/aws\"]")
                            .value(),
                    objs,
                    null));
        }
        return StateSnapshot.empty("0.1.0").withResources(resources);
    }
}
