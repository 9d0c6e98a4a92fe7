package dev.strata.cloudsim;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Brings the simulator's request path up to speed before it serves anyone: a remote cloud's servers are
 * long warm and run on other machines, but this one shares the client's cores, so the classes it loads
 * and the code its compiler compiles on its first requests would be charged to the run being measured.
 * The requests go to a throwaway simulator in the same JVM (1 ms latency, no limits, no state file) that
 * is closed afterwards: the one that then starts has no objects and its counters are all zero, so what
 * it does and answers is unchanged; only its code is compiled already.
 */
final class WarmUp {

    /** How long to wait at most for the compiler to finish what the requests queued. */
    private static final long COMPILER_WAIT_MS = 5_000;

    /**
     * Concurrent clients, each on its own connection: enough to run the server's hand-offs between
     * threads and its selector over many connections as a benchmark at -parallelism=100 does.
     */
    private static final int CLIENTS = 64;

    /**
     * The throwaway simulator's settings: a latency of 1 ms, so that every request parks its thread and
     * is woken again, as every request does under a benchmark's latency (without it, the run would be
     * the first to execute, and compile, the sleep path of each of its requests).
     */
    private static final Knobs SETTINGS = new Knobs(0, 0, 0, 10, 0, 1, 0, 0, 1000);

    private WarmUp() {}

    /**
     * Sends {@code requests} requests (creates, and reads of what they created) to a throwaway simulator,
     * then waits until the compiler is idle; returns how many were answered with success.
     */
    static int run(int requests) throws IOException, InterruptedException {
        if (requests <= 0) {
            return 0;
        }
        AtomicInteger ok = new AtomicInteger();
        try (CloudSim sim = CloudSim.start(0, (Path) null, SETTINGS);
                HttpClient http = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
                ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            AtomicInteger next = new AtomicInteger();
            for (int c = 0; c < CLIENTS; c++) {
                done.add(clients.submit(() -> {
                    // A create and a read of it are two requests.
                    for (int i = next.getAndAdd(2); i < requests; i = next.getAndAdd(2)) {
                        String id = create(http, sim.url(), "warm-up-" + i);
                        if (id != null) {
                            ok.incrementAndGet();
                            if (i + 1 < requests && read(http, sim.url(), id)) {
                                ok.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    // A failed client only warms less; the simulator itself is unaffected.
                }
            }
        }
        awaitCompilerIdle();
        return ok.get();
    }

    private static String create(HttpClient http, String url, String name) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(url + "/v1/buckets"))
                        .header("Content-Type", "application/json")
                        .header("X-Client-Id", "warm-up")
                        .header("Idempotency-Key", name)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) {
            return null;
        }
        String body = r.body();
        int at = body.indexOf("\"id\":\"");
        return at < 0 ? null : body.substring(at + 6, body.indexOf('"', at + 6));
    }

    private static boolean read(HttpClient http, String url, String id) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(url + "/v1/buckets/" + id))
                        .header("X-Client-Id", "warm-up")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200;
    }

    /** Waits until the JIT compiler's total time stops growing (its queue is empty), at most a few seconds. */
    private static void awaitCompilerIdle() throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + COMPILER_WAIT_MS * 1_000_000;
        long last = jit.getTotalCompilationTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(100);
            long now = jit.getTotalCompilationTime();
            if (now == last) {
                return;
            }
            last = now;
        }
    }
}
