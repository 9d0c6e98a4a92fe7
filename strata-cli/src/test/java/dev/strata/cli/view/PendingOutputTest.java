package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Lines held back by a view: kept while its writer thread has not come round to them, written in one
 * go and in order when it does or when the view writes anything else, and at once after the close.
 * The writer thread is held busy here, so that nothing depends on how fast this machine is.
 */
class PendingOutputTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    /** How many times the stream was flushed: once per write of the pending lines. */
    private final AtomicInteger flushes = new AtomicInteger();

    private final PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8) {
        @Override
        public void flush() {
            flushes.incrementAndGet();
            super.flush();
        }
    };

    private String written() {
        synchronized (out) {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /** A writer thread that runs nothing else until {@code busy} is counted down. */
    private static ScheduledExecutorService busyUntil(CountDownLatch busy) {
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
        writer.execute(() -> {
            try {
                busy.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return writer;
    }

    @Test
    void linesWaitForTheWriterAndAreWrittenInOneGoInOrder() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        ScheduledExecutorService writer = busyUntil(busy);
        try {
            PendingOutput pending = new PendingOutput(out, writer);
            assertThat(pending.writesTo(out)).isTrue();
            assertThat(pending.writesTo(System.out)).isFalse();
            pending.println("one");
            pending.println("two");
            pending.println("three");
            assertThat(written()).isEmpty();
            // The view writes something else: the pending lines first, in one write.
            pending.write();
            assertThat(written()).isEqualTo(String.join(System.lineSeparator(), "one", "two", "three", ""));
            assertThat(flushes).hasValue(1);
            pending.write();
            assertThat(flushes).hasValue(1);
            pending.println("four");
            assertThat(written()).doesNotContain("four");
            // The writer thread comes round to the write scheduled with "four".
            busy.countDown();
            writer.shutdown();
            assertThat(writer.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(written()).endsWith("three" + System.lineSeparator() + "four" + System.lineSeparator());
            assertThat(flushes).hasValue(2);
        } finally {
            busy.countDown();
            writer.shutdownNow();
        }
    }

    /** As a log line on stderr does: the lines of every instance holding some are written first. */
    @Test
    void writeAllWritesTheLinesEveryInstanceHolds() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        ScheduledExecutorService writer = busyUntil(busy);
        try {
            ByteArrayOutputStream other = new ByteArrayOutputStream();
            PendingOutput first = new PendingOutput(out, writer);
            PendingOutput second = new PendingOutput(new PrintStream(other, false, StandardCharsets.UTF_8), writer);
            first.println("first");
            second.println("second");
            assertThat(written()).isEmpty();
            PendingOutput.writeAll();
            assertThat(written()).isEqualTo("first" + System.lineSeparator());
            assertThat(other.toString(StandardCharsets.UTF_8)).isEqualTo("second" + System.lineSeparator());
        } finally {
            busy.countDown();
            writer.shutdownNow();
        }
    }

    @Test
    void closeWritesWhatIsPendingAndEachLineAfterItAtOnce() {
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
        PendingOutput pending = new PendingOutput(out, writer);
        pending.println("held");
        // As a view closes: its thread stops first, so a line added meanwhile cannot be scheduled.
        writer.shutdownNow();
        pending.println("added while closing");
        pending.close();
        assertThat(written())
                .isEqualTo("held" + System.lineSeparator() + "added while closing" + System.lineSeparator());
        pending.println("straggler");
        assertThat(written()).endsWith("closing" + System.lineSeparator() + "straggler" + System.lineSeparator());
    }
}
