package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.cli.command.CommandContext;
import dev.strata.engine.Action;
import dev.strata.engine.ApplyResult;
import dev.strata.hcl.Diagnostics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The apply's progress lines are held back for at most {@link ApplyView#FLUSH_DELAY_MS} and written in
 * batches: these are the guarantees that keep that invisible (every line written, in order, before
 * anything else the view or the command writes, and by the time the view is closed).
 */
class ApplyViewOutputTest {
    /** stdout and stderr into one stream, as on a terminal, so that their order shows. */
    private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();

    private final PrintStream stream = new PrintStream(terminal, true, StandardCharsets.UTF_8);

    private CommandContext context() {
        return new CommandContext(
                Path.of("."),
                new ByteArrayInputStream("yes\n".getBytes(StandardCharsets.UTF_8)),
                stream,
                stream,
                false,
                80,
                Map.of(),
                "test");
    }

    private String written() {
        synchronized (stream) {
            return terminal.toString(StandardCharsets.UTF_8);
        }
    }

    private static AbsResourceInstance addr(String s) {
        return Addrs.parseAbsResourceInstance(s).value();
    }

    @Test
    void aProgressLineIsWrittenWithoutAnythingElseHappening() throws Exception {
        try (ApplyView v = new ApplyView(context(), System::nanoTime, false)) {
            v.applyStart(addr("terraform_data.a"), Action.CREATE, null, null);
            // The view's own thread writes it (within FLUSH_DELAY_MS when it gets a core); wait for it,
            // with a bound far above that only so that a broken flush fails instead of hanging.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!written().contains("terraform_data.a: Creating...") && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(written()).isEqualTo("terraform_data.a: Creating...\n");
        }
    }

    @Test
    void whateverTheViewWritesNextFollowsThePendingLines() {
        try (ApplyView v = new ApplyView(context(), System::nanoTime, false)) {
            v.applyStart(addr("terraform_data.a"), Action.CREATE, null, null);
            v.out().println("[out]");
            v.applyStart(addr("terraform_data.b"), Action.CREATE, null, null);
            v.err().println("[err]");
            v.applyStart(addr("terraform_data.c"), Action.CREATE, null, null);
            v.diagnostics(List.of(CliDiagnostic.error("Boom", "It failed.")));
            v.applyStart(addr("terraform_data.d"), Action.CREATE, null, null);
            assertThat(v.confirm("[question] ")).isTrue();
            v.applyComplete(addr("terraform_data.d"), Action.CREATE, "d-1", Duration.ZERO);
            v.summary(new ApplyResult(null, 4, 0, 0, List.of(), List.of(), List.of(), false, Diagnostics.NONE), false);
            String text = written();
            assertThat(text.indexOf("terraform_data.a: Creating...")).isLessThan(text.indexOf("[out]"));
            assertThat(text.indexOf("[out]")).isLessThan(text.indexOf("terraform_data.b: Creating..."));
            assertThat(text.indexOf("terraform_data.b: Creating...")).isLessThan(text.indexOf("[err]"));
            assertThat(text.indexOf("[err]")).isLessThan(text.indexOf("terraform_data.c: Creating..."));
            assertThat(text.indexOf("terraform_data.c: Creating...")).isLessThan(text.indexOf("Boom"));
            assertThat(text.indexOf("Boom")).isLessThan(text.indexOf("terraform_data.d: Creating..."));
            assertThat(text.indexOf("terraform_data.d: Creating...")).isLessThan(text.indexOf("[question]"));
            assertThat(text.indexOf("[question]"))
                    .isLessThan(text.indexOf("terraform_data.d: Creation complete after 0s [id=d-1]"));
            assertThat(text.indexOf("terraform_data.d: Creation complete"))
                    .isLessThan(text.indexOf("Apply complete! Resources: 4 added"));
        }
    }

    @Test
    void flushWritesThePendingLinesNowAndCloseWritesTheRest() {
        ApplyView v = new ApplyView(context(), System::nanoTime, false);
        v.applyStart(addr("terraform_data.a"), Action.CREATE, null, null);
        v.flush();
        assertThat(written()).isEqualTo("terraform_data.a: Creating...\n");
        v.applyComplete(addr("terraform_data.a"), Action.CREATE, "a-1", Duration.ofSeconds(2));
        v.close();
        assertThat(written())
                .isEqualTo("terraform_data.a: Creating...\nterraform_data.a: Creation complete after 2s [id=a-1]\n");
        // An event after the close (a straggler) is written at once: nothing would write it later.
        v.applyStart(addr("terraform_data.b"), Action.DELETE, null, "b-1");
        assertThat(written()).endsWith("terraform_data.b: Destroying... [id=b-1]\n");
    }

    @Test
    void everyLineOfManyThreadsIsWrittenOnceAndEachThreadsInItsOrder() throws Exception {
        int n = 1000;
        try (ApplyView v = new ApplyView(context());
                var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                AbsResourceInstance a = addr("terraform_data.x[" + i + "]");
                String id = "x-" + i;
                threads.submit(() -> {
                    v.applyStart(a, Action.CREATE, null, null);
                    Thread.yield();
                    v.applyComplete(a, Action.CREATE, id, Duration.ZERO);
                    done.countDown();
                });
            }
            assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        }
        List<String> lines = List.of(written().split("\n"));
        assertThat(lines).hasSize(2 * n);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String start = "terraform_data.x[" + i + "]: Creating...";
            String complete = "terraform_data.x[" + i + "]: Creation complete after 0s [id=x-" + i + "]";
            assertThat(lines.indexOf(start)).isNotNegative().isLessThan(lines.indexOf(complete));
            expected.add(start);
            expected.add(complete);
        }
        assertThat(lines).containsExactlyInAnyOrderElementsOf(expected);
    }
}
