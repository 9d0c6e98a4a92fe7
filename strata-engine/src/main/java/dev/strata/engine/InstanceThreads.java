package dev.strata.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Runs the instance operations of one vertex on virtual threads, starting a thread only while fewer than
 * {@code atOnce} of them are alive. The operations beyond {@code -parallelism} would only wait for a
 * provider slot, and a vertex of many thousand instances (a module called with a large {@code for_each})
 * would otherwise hold that many parked threads, with their stacks, at once.
 */
final class InstanceThreads {
    private InstanceThreads() {}

    /**
     * Runs every task and waits for all of them; returns what each threw, or null, in task order. When
     * interrupted, starts no more and throws once the started ones have ended.
     */
    static List<Throwable> runAll(List<Runnable> tasks, int atOnce) throws InterruptedException {
        if (atOnce < 1) {
            throw new IllegalArgumentException("atOnce must be at least 1");
        }
        Semaphore alive = new Semaphore(atOnce);
        List<Future<?>> started = new ArrayList<>(tasks.size());
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Runnable task : tasks) {
                alive.acquire();
                started.add(ex.submit(() -> {
                    try {
                        task.run();
                    } finally {
                        alive.release();
                    }
                }));
            }
        }
        Throwable[] thrown = new Throwable[tasks.size()];
        for (int i = 0; i < started.size(); i++) {
            try {
                started.get(i).get();
            } catch (ExecutionException e) {
                thrown[i] = e.getCause();
            }
        }
        return Arrays.asList(thrown);
    }
}
