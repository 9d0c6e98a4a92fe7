package dev.strata.resilience;

import io.github.resilience4j.retry.Retry;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Runs an operation under a resilience4j {@link Retry}: its configuration decides which results are
 * retried ({@code retryOnResult}), how many attempts there are and how long to wait before each
 * ({@code intervalBiFunction}); the waiting itself goes through a {@link Sleeper}, so that tests need
 * not wait and an interrupt ends the retries at once. (resilience4j's own blocking decorator sleeps
 * through a process-wide hook, which neither tests nor interrupts can scope to one call.)
 */
public final class Retrying {

    private Retrying() {}

    /** Told before each wait; may end the retries early, e.g. when the run is stopping or out of time. */
    @FunctionalInterface
    public interface Listener<T> {
        /**
         * Attempt {@code attempt} (from 1) gave {@code result}, which the retry's configuration would
         * retry after {@code wait}; false returns {@code result} instead.
         */
        boolean retrying(int attempt, T result, Duration wait);

        static <T> Listener<T> always() {
            return (attempt, result, wait) -> true;
        }
    }

    /**
     * Calls {@code attempt} until its result is not one to retry, the attempts are used up, the
     * listener declines, or the wait is interrupted; returns the last result. An exception from an
     * attempt is not retried: it propagates.
     */
    public static <T> T call(Retry retry, Sleeper sleeper, Supplier<T> attempt, Listener<? super T> listener) {
        Retry.AsyncContext<T> context = retry.asyncContext();
        for (int n = 1; ; n++) {
            T result = attempt.get();
            long waitMillis = context.onResult(result);
            if (waitMillis < 0) {
                context.onComplete();
                return result;
            }
            Duration wait = Duration.ofMillis(waitMillis);
            if (!listener.retrying(n, result, wait)) {
                return result;
            }
            try {
                sleeper.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return result;
            }
        }
    }
}
