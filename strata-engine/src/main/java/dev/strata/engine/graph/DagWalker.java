package dev.strata.engine.graph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Visits every node of an acyclic {@link DependencyGraph} concurrently, each only after all it
 * depends on has succeeded, with at most {@code parallelism} visits running at once. A failed
 * node's dependents are skipped (and theirs, transitively) while independent branches go on. When
 * a stop is requested, no new visit starts; running ones finish and the rest are skipped.
 *
 * <p>Visits run on virtual threads, since they mostly wait on provider calls; the bound is the
 * parallelism, not the thread count. Among nodes ready at the same time, the smallest starts first.
 */
public final class DagWalker<N extends Comparable<? super N>> {

    /** What happened to a node. */
    public sealed interface Outcome<N> {
        record Succeeded<N>() implements Outcome<N> {}

        /** The visit failed; {@code reason} is for the summary (never a sensitive value). */
        record Failed<N>(String reason) implements Outcome<N> {}

        /** Not visited because {@code cause} failed or was skipped, or because a stop was requested (null). */
        record Skipped<N>(N cause) implements Outcome<N> {}
    }

    /**
     * The work for one node. Throwing anything (an exception or an error such as a stack overflow)
     * counts as a failure whose reason says what was thrown; a visitor that reports its own problems
     * should catch what it can name itself.
     */
    @FunctionalInterface
    public interface Visitor<N> {
        Outcome<N> visit(N node) throws Exception;
    }

    private final DependencyGraph<N> graph;
    private final int parallelism;

    public DagWalker(DependencyGraph<N> graph, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
        this.graph = graph;
        this.parallelism = parallelism;
    }

    private record Completion<N>(N node, Outcome<N> outcome) {}

    /** Walks the graph; returns every node's outcome, in node order. */
    public SortedMap<N, Outcome<N>> walk(Visitor<N> visitor, BooleanSupplier stopRequested)
            throws InterruptedException {
        Map<N, Integer> waitingOn = new HashMap<>();
        PriorityQueue<N> ready = new PriorityQueue<>();
        for (N n : graph.nodes()) {
            int deps = (int)
                    graph.dependenciesOf(n).stream().filter(d -> !d.equals(n)).count();
            waitingOn.put(n, deps);
            if (deps == 0) {
                ready.add(n);
            }
        }
        SortedMap<N, Outcome<N>> outcomes = new TreeMap<>();
        LinkedBlockingQueue<Completion<N>> done = new LinkedBlockingQueue<>();
        int running = 0;
        AtomicBoolean exhausted = new AtomicBoolean();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            while (true) {
                // Out of memory (or another VM failure) in a visit stops the walk as a stop request does:
                // starting more work would only fail the same way.
                boolean stopping = exhausted.get() || stopRequested.getAsBoolean();
                while (!stopping && running < parallelism && !ready.isEmpty()) {
                    N n = ready.poll();
                    running++;
                    pool.submit(() -> done.add(new Completion<>(n, visitSafely(visitor, n, exhausted))));
                }
                if (running == 0) {
                    break;
                }
                Completion<N> c = done.take();
                running--;
                outcomes.put(c.node(), c.outcome());
                if (c.outcome() instanceof Outcome.Succeeded<N>) {
                    for (N dependent : graph.dependentsOf(c.node())) {
                        if (dependent.equals(c.node())) {
                            continue;
                        }
                        int left = waitingOn.merge(dependent, -1, Integer::sum);
                        if (left == 0 && !outcomes.containsKey(dependent)) {
                            ready.add(dependent);
                        }
                    }
                } else {
                    skipDependents(c.node(), outcomes);
                }
            }
        }
        // Whatever never became ready (a stop, or a cycle the caller did not check) is skipped.
        for (N n : graph.nodes()) {
            outcomes.putIfAbsent(n, new Outcome.Skipped<>(null));
        }
        return Collections.unmodifiableSortedMap(outcomes);
    }

    /**
     * Every visit ends with a completion, whatever it throws: the walk waits for one completion per
     * started visit, so a visit that ended without one would hang the walk.
     */
    private Outcome<N> visitSafely(Visitor<N> visitor, N n, AtomicBoolean exhausted) {
        try {
            Outcome<N> o = visitor.visit(n);
            return o == null ? new Outcome.Failed<>("no outcome") : o;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Failed<>("interrupted");
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError) {
                exhausted.set(true);
            }
            return new Outcome.Failed<>(describe(t));
        }
    }

    /**
     * What went wrong, in words for a diagnostic: never a class name or a stack trace. The messages
     * of the JDK's programming-error exceptions name classes and methods, so those are not quoted;
     * the engine's own exceptions carry messages written for users.
     */
    public static String describe(Throwable t) {
        return switch (t) {
            case StackOverflowError e -> "stack overflow";
            case OutOfMemoryError e -> "out of memory";
            case VirtualMachineError e -> "the Java virtual machine failed";
            case NullPointerException e -> INTERNAL;
            case ClassCastException e -> INTERNAL;
            case IndexOutOfBoundsException e -> INTERNAL;
            case ArithmeticException e -> INTERNAL;
            case UnsupportedOperationException e -> INTERNAL;
            case java.util.ConcurrentModificationException e -> INTERNAL;
            case java.util.NoSuchElementException e -> INTERNAL;
            default -> t.getMessage() == null || t.getMessage().isBlank() ? INTERNAL : t.getMessage();
        };
    }

    private static final String INTERNAL = "an unexpected internal error";

    /** Marks everything downstream of a failed or skipped node as skipped because of it. */
    private void skipDependents(N cause, Map<N, Outcome<N>> outcomes) {
        List<N> todo = new ArrayList<>(graph.dependentsOf(cause));
        while (!todo.isEmpty()) {
            N n = todo.remove(todo.size() - 1);
            if (outcomes.containsKey(n)) {
                continue;
            }
            outcomes.put(n, new Outcome.Skipped<>(cause));
            todo.addAll(graph.dependentsOf(n));
        }
    }
}
