package dev.strata.engine.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.engine.graph.DagWalker.Outcome;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class DagWalkerTest {
    private static DependencyGraph<String> chainAndSideBranch() {
        return DependencyGraph.<String>builder()
                .dependency("b", "a", null)
                .dependency("c", "b", null)
                .dependency("d", "c", null)
                .dependency("y", "x", null)
                .build();
    }

    @Test
    void visitsEachNodeAfterItsDependencies() throws InterruptedException {
        List<String> order = new CopyOnWriteArrayList<>();
        Map<String, Outcome<String>> out = new DagWalker<>(chainAndSideBranch(), 4)
                .walk(
                        n -> {
                            order.add(n);
                            return new Outcome.Succeeded<>();
                        },
                        () -> false);
        assertThat(out.values()).allMatch(o -> o instanceof Outcome.Succeeded<String>);
        assertThat(order).containsExactlyInAnyOrder("a", "b", "c", "d", "x", "y");
        assertThat(order.indexOf("a")).isLessThan(order.indexOf("b"));
        assertThat(order.indexOf("b")).isLessThan(order.indexOf("c"));
        assertThat(order.indexOf("c")).isLessThan(order.indexOf("d"));
        assertThat(order.indexOf("x")).isLessThan(order.indexOf("y"));
    }

    @Test
    void aFailureSkipsOnlyWhatDependsOnIt() throws InterruptedException {
        Map<String, Outcome<String>> out = new DagWalker<>(chainAndSideBranch(), 2)
                .walk(
                        n -> {
                            if (n.equals("b")) {
                                throw new IllegalStateException("API said no");
                            }
                            return new Outcome.Succeeded<>();
                        },
                        () -> false);
        assertThat(out.get("a")).isInstanceOf(Outcome.Succeeded.class);
        assertThat(out.get("b")).isEqualTo(new Outcome.Failed<String>("API said no"));
        assertThat(out.get("c")).isEqualTo(new Outcome.Skipped<>("b"));
        assertThat(out.get("d")).isEqualTo(new Outcome.Skipped<>("b"));
        assertThat(out.get("x")).isInstanceOf(Outcome.Succeeded.class);
        assertThat(out.get("y")).isInstanceOf(Outcome.Succeeded.class);
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    /** An Error is not an Exception: before, it ended the visit without a completion and the walk waited forever. */
    @Test
    @Timeout(20)
    void aStackOverflowInAVisitFailsThatNodeOnlyAndTheWalkReturns() throws InterruptedException {
        Map<String, Outcome<String>> out = new DagWalker<>(chainAndSideBranch(), 2)
                .walk(
                        n -> {
                            if (n.equals("b")) {
                                recurse(0);
                            }
                            return new Outcome.Succeeded<>();
                        },
                        () -> false);
        assertThat(out.get("b")).isEqualTo(new Outcome.Failed<String>("stack overflow"));
        assertThat(out.get("c")).isEqualTo(new Outcome.Skipped<>("b"));
        assertThat(out.get("d")).isEqualTo(new Outcome.Skipped<>("b"));
        assertThat(out.get("x")).isInstanceOf(Outcome.Succeeded.class);
        assertThat(out.get("y")).isInstanceOf(Outcome.Succeeded.class);
    }

    /** Out of memory stops the walk as a stop request does: what has not started is skipped, with no cause. */
    @Test
    @Timeout(20)
    void outOfMemoryInAVisitStartsNothingMore() throws InterruptedException {
        List<String> visited = new CopyOnWriteArrayList<>();
        Map<String, Outcome<String>> out = new DagWalker<>(chainAndSideBranch(), 1)
                .walk(
                        n -> {
                            visited.add(n);
                            if (n.equals("a")) {
                                throw new OutOfMemoryError("Java heap space");
                            }
                            return new Outcome.Succeeded<>();
                        },
                        () -> false);
        assertThat(visited).containsExactly("a");
        assertThat(out.get("a")).isEqualTo(new Outcome.Failed<String>("out of memory"));
        assertThat(out.get("b")).isEqualTo(new Outcome.Skipped<>("a"));
        assertThat(out.get("x")).isEqualTo(new Outcome.Skipped<String>(null));
        assertThat(out.get("y")).isEqualTo(new Outcome.Skipped<String>(null));
    }

    @Test
    void failureReasonsNeverQuoteJavaInternals() {
        assertThat(DagWalker.describe(new StackOverflowError())).isEqualTo("stack overflow");
        assertThat(DagWalker.describe(new OutOfMemoryError("Java heap space"))).isEqualTo("out of memory");
        assertThat(DagWalker.describe(
                        new NullPointerException("Cannot invoke \"dev.strata.X.y()\" because \"z\" is null")))
                .isEqualTo("an unexpected internal error");
        assertThat(DagWalker.describe(new ClassCastException("class java.lang.String cannot be cast")))
                .isEqualTo("an unexpected internal error");
        assertThat(DagWalker.describe(new IllegalStateException("could not record the state change durably")))
                .isEqualTo("could not record the state change durably");
        assertThat(DagWalker.describe(new IllegalStateException())).isEqualTo("an unexpected internal error");
    }

    /**
     * Twelve independent nodes with parallelism 3: a barrier of three proves three run at once (it
     * would time out otherwise), and a counter proves never more than three.
     */
    @Test
    void runsUpToParallelismAtOnceAndNeverMore() throws InterruptedException {
        DependencyGraph.Builder<Integer> b = DependencyGraph.builder();
        for (int i = 0; i < 12; i++) {
            b.node(i);
        }
        CyclicBarrier three = new CyclicBarrier(3);
        AtomicInteger active = new AtomicInteger();
        AtomicInteger max = new AtomicInteger();
        Map<Integer, Outcome<Integer>> out = new DagWalker<>(b.build(), 3)
                .walk(
                        n -> {
                            int now = active.incrementAndGet();
                            max.accumulateAndGet(now, Math::max);
                            try {
                                three.await(20, TimeUnit.SECONDS);
                            } catch (BrokenBarrierException | TimeoutException e) {
                                throw new IllegalStateException("fewer than three visits ran together", e);
                            } finally {
                                active.decrementAndGet();
                            }
                            return new Outcome.Succeeded<>();
                        },
                        () -> false);
        assertThat(out.values()).allMatch(o -> o instanceof Outcome.Succeeded<Integer>);
        assertThat(max.get()).isEqualTo(3);
    }

    @Test
    void aStopLetsRunningVisitsFinishAndStartsNoMore() throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        Map<String, Integer> visits = new ConcurrentHashMap<>();
        Map<String, Outcome<String>> out = new DagWalker<>(chainAndSideBranch(), 1)
                .walk(
                        n -> {
                            visits.merge(n, 1, Integer::sum);
                            stop.set(true); // as if Ctrl-C arrived during the first operation
                            return new Outcome.Succeeded<>();
                        },
                        stop::get);
        assertThat(visits).containsOnlyKeys("a");
        assertThat(out.get("a")).isInstanceOf(Outcome.Succeeded.class);
        assertThat(out.get("x")).isEqualTo(new Outcome.Skipped<String>(null));
        assertThat(out.get("d")).isInstanceOf(Outcome.Skipped.class);
    }
}
