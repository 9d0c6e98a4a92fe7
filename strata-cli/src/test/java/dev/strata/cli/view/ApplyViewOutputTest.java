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
 * The apply's progress lines, and the {@code -json} stream's messages during an engine call, are held
 * back for at most {@link ApplyView#FLUSH_DELAY_MS} and written in batches: these are the guarantees
 * that keep that invisible (every line written, in order, before anything else the view or the command
 * writes, and by the time the view is closed).
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

    /** Each of {@code n} virtual threads creates {@code terraform_data.x[i]}: its start, then its end. */
    private static void createFromManyThreads(dev.strata.engine.EngineEvents events, int n)
            throws InterruptedException {
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                AbsResourceInstance a = addr("terraform_data.x[" + i + "]");
                String id = "x-" + i;
                threads.submit(() -> {
                    events.applyStart(a, Action.CREATE, null, null);
                    Thread.yield();
                    events.applyComplete(a, Action.CREATE, id, Duration.ZERO);
                    done.countDown();
                });
            }
            assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** Waits for {@code text} to be written; the bound only makes a broken flush fail instead of hang. */
    private void awaitWritten(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!written().contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    /** Each line's {@code type} and {@code @message}, in the order written (timestamps vary). */
    private List<String> jsonMessages() throws Exception {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        List<String> result = new ArrayList<>();
        for (String line : written().lines().toList()) {
            if (line.startsWith("{")) {
                var n = mapper.readTree(line);
                result.add(n.path("type").asText() + " | " + n.path("@message").asText());
            } else {
                result.add(line);
            }
        }
        return result;
    }

    @Test
    void aProgressLineIsWrittenWithoutAnythingElseHappening() throws Exception {
        try (ApplyView v = new ApplyView(context(), System::nanoTime, false)) {
            v.applyStart(addr("terraform_data.a"), Action.CREATE, null, null);
            // The view's own thread writes it (within FLUSH_DELAY_MS when it gets a core).
            awaitWritten("terraform_data.a: Creating...");
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
            v.summary(
                    new ApplyResult(null, 4, 0, 0, List.of(), List.of(), List.of(), false, Diagnostics.NONE),
                    OperationView.Closing.APPLY);
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
        try (ApplyView v = new ApplyView(context())) {
            createFromManyThreads(v, n);
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

    @Test
    void aJsonMessageOfAnEngineCallIsWrittenByTheProgressViewsThread() throws Exception {
        OperationView json = OperationView.of(context(), true, null);
        try (ApplyView progress = new ApplyView(context(), System::nanoTime, false)) {
            json.events(progress).applyStart(addr("terraform_data.a"), Action.CREATE, null, null);
            awaitWritten("terraform_data.a: Creating...");
            assertThat(jsonMessages())
                    .containsExactly(
                            "version | Strata " + dev.strata.cli.version.Version.current(),
                            "apply_start | terraform_data.a: Creating...");
        }
    }

    @Test
    void jsonMessagesComeBeforeWhateverIsWrittenNextOnEitherStreamAndTheCloseWritesTheRest() throws Exception {
        OperationView json = OperationView.of(context(), true, null);
        ApplyView progress = new ApplyView(context(), System::nanoTime, false);
        var events = json.events(progress);
        events.refreshStart(addr("terraform_data.a"), "a-1");
        json.view().diagnosticOnStderr(CliDiagnostic.warning("Stderr warning", "On stderr."));
        events.refreshComplete(addr("terraform_data.a"), "a-1");
        json.diagnostics(List.of(CliDiagnostic.error("Boom", "It failed.")));
        events.applyStart(addr("terraform_data.b"), Action.CREATE, null, null);
        json.view().err().println("[err]");
        events.applyStart(addr("terraform_data.c"), Action.CREATE, null, null);
        events.applyComplete(addr("terraform_data.c"), Action.CREATE, "c-1", Duration.ofSeconds(1));
        json.applied(
                progress,
                Diagnostics.NONE,
                java.util.Optional.of(
                        new ApplyResult(null, 0, 0, 1, List.of(), List.of(), List.of(), false, Diagnostics.NONE)),
                null,
                OperationView.Closing.DESTROY);
        events.applyStart(addr("terraform_data.d"), Action.CREATE, null, null);
        progress.close();
        // After the close (a straggler of the engine call, or a message after it) each is written at once.
        events.applyComplete(addr("terraform_data.d"), Action.CREATE, "d-1", Duration.ZERO);
        assertThat(written().lines().toList().getLast()).contains("terraform_data.d: Creation complete after 0s");
        assertThat(jsonMessages())
                .containsExactly(
                        "version | Strata " + dev.strata.cli.version.Version.current(),
                        "refresh_start | terraform_data.a: Refreshing state... [id=a-1]",
                        "",
                        "Warning: Stderr warning",
                        "",
                        "On stderr.",
                        "refresh_complete | terraform_data.a: Refresh complete [id=a-1]",
                        "diagnostic | Error: Boom",
                        "apply_start | terraform_data.b: Creating...",
                        "[err]",
                        "apply_start | terraform_data.c: Creating...",
                        "apply_complete | terraform_data.c: Creation complete after 1s [id=c-1]",
                        "change_summary | Destroy complete! Resources: 1 destroyed.",
                        "apply_start | terraform_data.d: Creating...",
                        "apply_complete | terraform_data.d: Creation complete after 0s [id=d-1]");
    }

    @Test
    void everyJsonMessageOfManyThreadsIsWrittenOnceAndEachThreadsInItsOrder() throws Exception {
        int n = 500;
        OperationView json = OperationView.of(context(), true, null);
        try (ApplyView progress = new ApplyView(context())) {
            createFromManyThreads(json.events(progress), n);
        }
        List<String> lines = jsonMessages();
        assertThat(lines).hasSize(1 + 2 * n);
        for (int i = 0; i < n; i++) {
            String start = "apply_start | terraform_data.x[" + i + "]: Creating...";
            String complete =
                    "apply_complete | terraform_data.x[" + i + "]: Creation complete after 0s [id=x-" + i + "]";
            assertThat(lines.indexOf(start)).isPositive().isLessThan(lines.indexOf(complete));
        }
    }
}
