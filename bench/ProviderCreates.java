package dev.strata.providers.cloudsim;

import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.PrivateState;
import dev.strata.provider.ProposedNewState;
import dev.strata.provider.Provider;
import dev.strata.provider.SchemaValues;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The CPU of N {@code cloudsim_bucket} creates through the cloudsim provider alone (no engine, journal or
 * output), in a cold JVM, P at a time on virtual threads, against a running simulator: the provider's share
 * of a simulator apply. Prints the CPU of configuring and planning, of the creates, classes loaded and JIT time.
 *
 * <pre>
 *   javac -d /tmp/pc -cp strata-cli/target/strata-all.jar bench/ProviderCreates.java
 *   java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss1g -cp /tmp/pc:strata-cli/target/strata-all.jar \
 *       dev.strata.providers.cloudsim.ProviderCreates SIMULATOR_URL N P NAME_PREFIX
 * </pre>
 *
 * (Start the simulator as bench/run does; NAME_PREFIX keeps the bucket names of several runs against one
 * simulator apart. Classes compiled into a directory before the jar on the class path replace the jar's: that
 * is how a change to the provider is measured against the jar it was made on.)
 */
public final class ProviderCreates {

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        int n = Integer.parseInt(args[1]);
        int parallelism = Integer.parseInt(args[2]);
        String prefix = args[3];
        long cpu0 = cpuNanos();
        Provider provider = new CloudsimProviderFactory().create();
        Value config = SchemaValues.coerce(
                        provider.schema().provider().block(),
                        Value.object(Map.of(
                                "endpoint", Value.string(url),
                                "client_id", Value.string("bench"),
                                "max_retries", Value.number(50))))
                .value();
        provider.validateProviderConfig(config);
        var configured = provider.configure(new Provider.ConfigureRequest(config, "bench", null, null));
        if (configured.hasErrors()) {
            throw new IllegalStateException(configured.toString());
        }
        Block block = provider.schema().resourceType("cloudsim_bucket").block();
        Value[] configs = new Value[n];
        Value[] planned = new Value[n];
        for (int i = 0; i < n; i++) {
            configs[i] = SchemaValues.coerce(block, Value.object(Map.of("name", Value.string(prefix + "-" + i))))
                    .value();
            Value proposed = ProposedNewState.of(block, block.nullValue(), configs[i]);
            planned[i] = provider.planResourceChange(new Provider.PlanRequest(
                            "cloudsim_bucket", block.nullValue(), proposed, configs[i], PrivateState.EMPTY))
                    .plannedState();
        }
        long cpu1 = cpuNanos();
        long wall1 = System.nanoTime();
        Semaphore slots = new Semaphore(parallelism);
        AtomicInteger created = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            slots.acquire();
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    var r = provider.applyResourceChange(new Provider.ApplyRequest(
                            "cloudsim_bucket", block.nullValue(), planned[k], configs[k], PrivateState.EMPTY, prefix + k));
                    if (!r.diagnostics().hasErrors() && !r.newState().isNull()) {
                        created.incrementAndGet();
                    } else {
                        System.err.println(r.diagnostics());
                    }
                } finally {
                    slots.release();
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        long cpu2 = cpuNanos();
        long wall2 = System.nanoTime();
        System.out.printf(
                "n=%d created=%d | configure+plan CPU %.3f s | creates CPU %.3f s, wall %.3f s | process CPU %.3f s"
                        + " | classes %d | JIT %d ms%n",
                n,
                created.get(),
                (cpu1 - cpu0) / 1e9,
                (cpu2 - cpu1) / 1e9,
                (wall2 - wall1) / 1e9,
                cpu2 / 1e9,
                ManagementFactory.getClassLoadingMXBean().getLoadedClassCount(),
                ManagementFactory.getCompilationMXBean().getTotalCompilationTime());
        System.exit(0);
    }
}
