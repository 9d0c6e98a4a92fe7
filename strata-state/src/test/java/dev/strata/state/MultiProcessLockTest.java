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
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).startsWith("LOCKED ");
            String id = line.substring("LOCKED ".length());

            LocalBackend b = LocalBackend.in(dir, "0.1.0");
            Result<StateManager> busy = b.open("default", LockRequest.of("OperationTypePlan", Duration.ZERO));
            assertThat(busy.value()).isNull();
            assertThat(busy.diagnostics().asList().get(0).detail())
                    .contains("ID:        " + id)
                    .contains("pid " + holder.pid())
                    .contains("OperationTypeApply");
            // force-unlock refuses while the holder runs: removing the info would not free the OS lock.
            assertThat(b.forceUnlock("default", id)
                            .diagnostics()
                            .asList()
                            .get(0)
                            .detail())
                    .contains("held by a running process");

            StateProcess.killHard(holder);

            Result<StateManager> taken = b.open("default", LockRequest.of("OperationTypeApply", Duration.ZERO));
            assertThat(taken.value()).isNotNull();
            Diagnostic warning = taken.diagnostics().asList().get(0);
            assertThat(warning.summary()).isEqualTo("Took over a stale state lock");
            assertThat(warning.detail())
                    .contains(id)
                    .contains("pid " + holder.pid())
                    .contains("no longer running");
            taken.value().close();
        } finally {
            holder.destroyForcibly();
        }
    }

    private String probe() throws Exception {
        Process p = StateProcess.start("probe", dir.toString());
        String line = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor(60, TimeUnit.SECONDS);
        return line;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theStateFileItselfIsLockedWhileHeldEvenAcrossAtomicReplacements() throws Exception {
        LocalBackend b = LocalBackend.in(dir, "0.1.0");
        Path state = dir.resolve("terraform.tfstate");
        try (StateManager m = b.open("default", LockRequest.of("OperationTypeApply", Duration.ZERO))
                .value()) {
            assertThat(probe())
                    .as("a missing state file is created to be locked, as Terraform does")
                    .isEqualTo("LOCKED");
            Object before = java.nio.file.Files.readAttributes(state, java.nio.file.attribute.BasicFileAttributes.class)
                    .fileKey();
            m.persist(StateProcess.withCounter(m.state(), 1));
            m.persist(StateProcess.withCounter(m.state(), 2));
            Object after = java.nio.file.Files.readAttributes(state, java.nio.file.attribute.BasicFileAttributes.class)
                    .fileKey();
            assertThat(after).as("the write replaced the file").isNotEqualTo(before);
            assertThat(probe()).as("the file now at the path is locked too").isEqualTo("LOCKED");
            // A reader in this process (terraform_remote_state) must not drop the lock by closing its own descriptor.
            assertThat(StateCodec.read(LocalBackend.readStateFile(state), "f", "")
                            .value()
                            .serial())
                    .isEqualTo(2);
            assertThat(probe()).as("still locked after an in-process read").isEqualTo("LOCKED");
            assertThat(m.checkWritable().hasErrors()).isFalse();
            assertThat(probe())
                    .as("still locked after the pre-flight write check")
                    .isEqualTo("LOCKED");
        }
        assertThat(probe()).as("released").isEqualTo("FREE");
        try (StateManager m = b.open("default", LockRequest.of("OperationTypePlan", Duration.ZERO))
                .value()) {
            assertThat(StateProcess.counter(m.state())).isEqualTo(2);
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
        StateSnapshot s = StateCodec.read(Files.readAllBytes(dir.resolve("terraform.tfstate")), "f", "")
                .value();
        assertThat(StateProcess.counter(s)).isEqualTo(processes * cycles);
        assertThat(s.serial()).isEqualTo(processes * cycles);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void killingAWriterAtRandomMomentsLeavesTheOldOrTheNewSnapshot() throws Exception {
        Random random = new Random(42);
        Path state = dir.resolve("terraform.tfstate");
        int kills = 0;
        long written = 0;
        // 200 writes in all, by writers killed with SIGKILL after a random number of writes plus a random
        // fraction of the next one (so kills land in the temp write, the fsync, the rename or the backup).
        while (written < 200) {
            Process writer = StateProcess.start("write", dir.toString(), "200");
            long lastDone = written;
            try {
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
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
                java.util.concurrent.locks.LockSupport.parkNanos(random.nextInt(3_000_000));
                StateProcess.killHard(writer);
                kills++;
            } finally {
                writer.destroyForcibly();
            }
            Result<StateSnapshot> r = StateCodec.read(Files.readAllBytes(state), "terraform.tfstate", "");
            assertThat(r.diagnostics().asList()).as("kill %d", kills).isEmpty();
            StateSnapshot s = r.value();
            // The writer may have finished writes it had not reported yet; what is on disk is never older
            // than the last acknowledged write, and is exactly one whole snapshot: the one before the write
            // in flight, or that write's.
            assertThat(s.serial())
                    .as("never older than the last acknowledged write")
                    .isGreaterThanOrEqualTo(lastDone);
            assertThat(s.sameContentAs(StateProcess.contentFor(s, s.serial())))
                    .as("a whole snapshot")
                    .isTrue();
            Path backup = dir.resolve("terraform.tfstate.backup");
            if (Files.exists(backup)) {
                assertThat(StateCodec.read(Files.readAllBytes(backup), "backup", "")
                                .hasErrors())
                        .as("the backup parses")
                        .isFalse();
            }
            written = s.serial();
        }
        assertThat(kills).isGreaterThan(5);
        // The next opener takes over the killed writer's lock and can write.
        Result<StateManager> m = LocalBackend.in(dir, "0.1.0").open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(m.value()).isNotNull();
        assertThat(m.value()
                        .persist(StateProcess.contentFor(m.value().state(), 999))
                        .hasErrors())
                .isFalse();
        m.value().close();
    }
}
