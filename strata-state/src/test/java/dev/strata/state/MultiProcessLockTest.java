package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Locks and writes across real processes, including ones killed with SIGKILL. */
class MultiProcessLockTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void lockOfAKilledHolderIsRecognisedAsStaleAndTakenOver() throws Exception {
        Process holder = StateProcess.start("hold", dir.toString());
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).startsWith("LOCKED ");
            String id = line.substring("LOCKED ".length());

            LocalBackend b = LocalBackend.in(dir, "0.1.0");
            Result<StateManager> busy = b.open("default", LockRequest.of("OperationTypePlan", Duration.ZERO));
            assertThat(busy.value()).isNull();
            assertThat(busy.diagnostics().asList().get(0).detail())
                    .contains("ID:        " + id).contains("pid " + holder.pid()).contains("OperationTypeApply");
            // force-unlock refuses while the holder runs: removing the info would not free the OS lock.
            assertThat(b.forceUnlock("default", id).diagnostics().asList().get(0).detail()).contains("held by a running process");

            StateProcess.killHard(holder);

            Result<StateManager> taken = b.open("default", LockRequest.of("OperationTypeApply", Duration.ZERO));
            assertThat(taken.value()).isNotNull();
            Diagnostic warning = taken.diagnostics().asList().get(0);
            assertThat(warning.summary()).isEqualTo("Took over a stale state lock");
            assertThat(warning.detail()).contains(id).contains("pid " + holder.pid()).contains("no longer running");
            taken.value().close();
        } finally {
            holder.destroyForcibly();
        }
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void concurrentReadModifyWriteLosesNoUpdate() throws Exception {
        int processes = 8;
        int cycles = 25;
        List<Process> ps = new ArrayList<>();
        try {
            for (int i = 0; i < processes; i++) {
                ps.add(StateProcess.start("rmw", dir.toString(), Integer.toString(cycles)));
            }
            for (Process p : ps) {
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(240, TimeUnit.SECONDS)).isTrue();
                assertThat(out).as("exit %d: %s", p.exitValue(), out).contains("DONE");
            }
        } finally {
            ps.forEach(Process::destroyForcibly);
        }
        StateSnapshot s = StateCodec.read(Files.readAllBytes(dir.resolve("terraform.tfstate")), "f", "").value();
        assertThat(StateProcess.counter(s)).isEqualTo(processes * cycles);
        assertThat(s.serial()).isEqualTo(processes * cycles);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void killingAWriterAtRandomMomentsLeavesTheOldOrTheNewSnapshot() throws Exception {
        Random random = new Random(42);
        Path state = dir.resolve("terraform.tfstate");
        int kills = 0;
        for (int round = 0; round < 12; round++) {
            Process writer = StateProcess.start("write", dir.toString(), "200");
            long lastDone = -1;
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
                // Kill after a random number of completed writes: the next one is then in flight.
                int after = random.nextInt(30);
                String line;
                int seen = 0;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("WROTE ")) {
                        lastDone = Long.parseLong(line.substring(6));
                        if (++seen > after) {
                            break;
                        }
                    }
                }
                StateProcess.killHard(writer);
                kills++;
            } finally {
                writer.destroyForcibly();
            }
            Result<StateSnapshot> r = StateCodec.read(Files.readAllBytes(state), "terraform.tfstate", "");
            assertThat(r.diagnostics().asList()).as("round %d", round).isEmpty();
            StateSnapshot s = r.value();
            assertThat(s.serial()).as("the last acknowledged write or the one in flight").isBetween(lastDone, lastDone + 1);
            assertThat(s.sameContentAs(StateProcess.contentFor(s, s.serial()))).isTrue();
        }
        assertThat(kills).isEqualTo(12);
        // The next opener takes over the killed writer's lock and can write.
        Result<StateManager> m = LocalBackend.in(dir, "0.1.0").open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(m.value()).isNotNull();
        assertThat(m.value().persist(StateProcess.contentFor(m.value().state(), 999)).hasErrors()).isFalse();
        m.value().close();
    }
}
