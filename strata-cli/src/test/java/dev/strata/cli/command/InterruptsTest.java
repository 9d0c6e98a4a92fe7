package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.state.Backend;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The signal handling every long-running command shares, driven without OS signals. */
class InterruptsTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AtomicInteger exits = new AtomicInteger();
    private final Interrupts signals =
            Interrupts.forTest(new PrintStream(err, true, StandardCharsets.UTF_8), exits::incrementAndGet);

    @TempDir
    Path dir;

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everySignalIsTheFirstCtrlCThenTheSecond() {
        assertThat(Interrupts.SIGNALS).containsExactly("INT", "TERM", "HUP");
        AtomicInteger stops = new AtomicInteger();
        try (var r = signals.onStop(stops::incrementAndGet)) {
            assertThat(signals.interrupted()).isFalse();
            signals.deliver("TERM");
            assertThat(signals.interrupted()).isTrue();
            assertThat(stops).hasValue(1);
            assertThat(exits).hasValue(0);
            assertThat(err()).contains("Interrupt received.").contains("Gracefully shutting down...");
            signals.deliver("HUP");
            assertThat(exits).hasValue(1);
            assertThat(err()).contains("Two interrupts received. Exiting immediately.");
            assertThat(stops).hasValue(1);
        }
    }

    @Test
    void aStopRegisteredAfterTheSignalRunsAtOnceAndAClosedOneNever() {
        AtomicInteger before = new AtomicInteger();
        signals.onStop(before::incrementAndGet).close();
        signals.deliver("INT");
        assertThat(before).hasValue(0);
        AtomicInteger after = new AtomicInteger();
        signals.onStop(after::incrementAndGet);
        assertThat(after).hasValue(1);
    }

    @Test
    void outputHeldBackIsWrittenBeforeEachNoticeUntilTheRegistrationCloses() {
        StringBuilder order = new StringBuilder();
        Interrupts recording = Interrupts.forTest(
                new PrintStream(
                        new java.io.OutputStream() {
                            @Override
                            public void write(int b) {
                                if (order.isEmpty() || order.charAt(order.length() - 1) != 'N') {
                                    order.append('N');
                                }
                            }
                        },
                        true,
                        StandardCharsets.UTF_8),
                exits::incrementAndGet);
        try (var r = recording.beforeNotice(() -> order.append('F'))) {
            recording.deliver("INT");
            assertThat(order).hasToString("FN");
            recording.deliver("INT");
            assertThat(order).hasToString("FNFN");
            assertThat(exits).hasValue(1);
        }
        AtomicInteger flushes = new AtomicInteger();
        signals.beforeNotice(flushes::incrementAndGet).close();
        signals.deliver("INT");
        assertThat(flushes).hasValue(0);
    }

    @Test
    void theSecondSignalReleasesTheLocksHeld() throws Exception {
        Backend backend = signals.tracking(dev.strata.state.LocalBackend.in(dir, "test"));
        StateManager m = backend.open("default", LockRequest.of("OperationTypeApply", java.time.Duration.ZERO))
                .value();
        assertThat(m).isNotNull();
        assertThat(Files.exists(dir.resolve(".terraform.tfstate.lock.info"))).isTrue();
        signals.deliver("INT");
        assertThat(Files.exists(dir.resolve(".terraform.tfstate.lock.info"))).isTrue();
        signals.deliver("TERM");
        assertThat(exits).hasValue(1);
        assertThat(Files.exists(dir.resolve(".terraform.tfstate.lock.info"))).isFalse();
    }

    /**
     * As apply -json runs: the stream's messages wait with the progress view's lines, which the command
     * flushes before each notice, so that on a terminal the notices follow every message before them.
     */
    @Test
    void theJsonMessagesHeldBackComeBeforeEachNotice() {
        ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(terminal, true, StandardCharsets.UTF_8);
        CommandContext context = new CommandContext(
                dir, new java.io.ByteArrayInputStream(new byte[0]), both, both, false, 80, java.util.Map.of(), "test");
        Interrupts onTerminal = Interrupts.forTest(both, exits::incrementAndGet);
        var json = dev.strata.cli.view.OperationView.of(context, true, null);
        try (var progress = new dev.strata.cli.view.ApplyView(context);
                var flushing = onTerminal.beforeNotice(progress::flush)) {
            var events = json.events(progress);
            for (String signal : java.util.List.of("INT", "TERM")) {
                String addr = signal.equals("INT") ? "terraform_data.a" : "terraform_data.b";
                events.applyStart(
                        dev.strata.addr.Addrs.parseAbsResourceInstance(addr).value(),
                        dev.strata.engine.Action.CREATE,
                        null,
                        null);
                onTerminal.deliver(signal);
            }
        }
        String text;
        synchronized (both) {
            text = terminal.toString(StandardCharsets.UTF_8);
        }
        assertThat(text.indexOf("terraform_data.a: Creating...")).isNotNegative();
        assertThat(text.indexOf("terraform_data.a: Creating...")).isLessThan(text.indexOf("Interrupt received."));
        assertThat(text.indexOf("Interrupt received.")).isLessThan(text.indexOf("terraform_data.b: Creating..."));
        assertThat(text.indexOf("terraform_data.b: Creating...")).isLessThan(text.indexOf("Two interrupts received."));
        assertThat(exits).hasValue(1);
    }
}
