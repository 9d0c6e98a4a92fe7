package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalBackendTest {
    @TempDir
    Path dir;

    LocalBackend backend() {
        return LocalBackend.in(dir, "0.1.0");
    }

    StateManager open(LocalBackend b, String ws) {
        Result<StateManager> r = b.open(ws, LockRequest.of("OperationTypeApply", Duration.ZERO));
        assertThat(r.diagnostics().asList()).isEmpty();
        return r.value();
    }

    static StateSnapshot counter(StateSnapshot s, long n) {
        return StateProcess.withCounter(s, n);
    }

    @Test
    void pathAndWorkspaceDirMoveTheStatesAsTerraformDoes() throws Exception {
        LocalBackend b = backend().withPaths("states/main.tfstate", "envs");
        assertThat(b.statePath("default")).isEqualTo(dir.resolve("states/main.tfstate"));
        assertThat(b.statePath("prod")).isEqualTo(dir.resolve("envs/prod/terraform.tfstate"));
        assertThat(b.backupPath("default")).isEqualTo(dir.resolve("states/main.tfstate.backup"));
        try (StateManager m = open(b, "default")) {
            m.persist(counter(m.state(), 1));
        }
        assertThat(b.createWorkspace("prod").diagnostics().asList()).isEmpty();
        try (StateManager m = open(b, "prod")) {
            m.persist(counter(m.state(), 7));
        }
        assertThat(Files.exists(dir.resolve("states/main.tfstate"))).isTrue();
        assertThat(Files.exists(dir.resolve("envs/prod/terraform.tfstate"))).isTrue();
        assertThat(Files.exists(dir.resolve("terraform.tfstate"))).isFalse();
        assertThat(b.workspaces().value()).containsExactly("default", "prod");
        assertThat(backend().workspaces().value())
                .as("the default layout sees none of it")
                .containsExactly("default");
        try (StateManager m =
                open(backend().withPaths(dir.resolve("states/main.tfstate").toString(), null), "default")) {
            assertThat(StateProcess.counter(m.state()))
                    .as("absolute paths work too")
                    .isEqualTo(1);
        }
        assertThat(b.deleteWorkspace("prod").diagnostics().asList()).isEmpty();
        assertThat(Files.exists(dir.resolve("envs/prod"))).isFalse();
    }

    @Test
    void legacyStateOutWritesElsewhereAndBacksUpWhatItOverwrites() throws Exception {
        try (StateManager m = open(backend().withPaths("s.tfstate", null), "default")) {
            m.persist(counter(m.state(), 1));
        }
        LocalBackend out = backend().withLegacyPaths("s.tfstate", "o.tfstate", null);
        assertThat(out.backupPath("default")).isEqualTo(dir.resolve("o.tfstate.backup"));
        try (StateManager m = open(out, "default")) {
            assertThat(StateProcess.counter(m.state())).isEqualTo(1);
            m.persist(counter(m.state(), 2));
            m.persist(counter(m.state(), 3));
        }
        assertThat(StateProcess.counter(StateCodec.read(Files.readAllBytes(dir.resolve("s.tfstate")), "f", "")
                        .value()))
                .as("the source is left as it was")
                .isEqualTo(1);
        assertThat(StateProcess.counter(StateCodec.read(Files.readAllBytes(dir.resolve("o.tfstate")), "f", "")
                        .value()))
                .isEqualTo(3);
        assertThat(dir.resolve("o.tfstate.backup"))
                .as("nothing was overwritten")
                .doesNotExist();

        // Over an existing file, with an explicit backup path, and with none.
        try (StateManager m = open(backend().withLegacyPaths("s.tfstate", "o.tfstate", "b.tfstate"), "default")) {
            m.persist(counter(m.state(), 4));
        }
        assertThat(StateProcess.counter(StateCodec.read(Files.readAllBytes(dir.resolve("b.tfstate")), "f", "")
                        .value()))
                .isEqualTo(3);
        LocalBackend none = backend().withLegacyPaths("s.tfstate", null, "-");
        assertThat(none.backupPath("default")).isNull();
        try (StateManager m = open(none, "default")) {
            m.persist(counter(m.state(), 5));
        }
        assertThat(dir.resolve("s.tfstate.backup")).doesNotExist();
        assertThat(dir.resolve("terraform.tfstate")).doesNotExist();
    }

    @Test
    void firstWriteStartsAtSerialOneAndEveryChangeIncrements() throws Exception {
        try (StateManager m = open(backend(), "default")) {
            assertThat(m.exists()).isFalse();
            assertThat(m.state().serial()).isZero();
            StateSnapshot w1 = m.persist(counter(m.state(), 1)).value();
            assertThat(w1.serial()).isEqualTo(1);
            assertThat(w1.terraformVersion()).isEqualTo("0.1.0");
            StateSnapshot w2 = m.persist(counter(m.state(), 2)).value();
            assertThat(w2.serial()).isEqualTo(2);
            // No change, no new serial and no write.
            assertThat(m.persist(counter(m.state(), 2)).value().serial()).isEqualTo(2);
            // A caller passing an old serial cannot move it backwards.
            assertThat(m.persist(counter(m.state(), 3).withSerial(0)).value().serial())
                    .isEqualTo(3);
        }
        StateSnapshot onDisk = StateCodec.read(Files.readAllBytes(dir.resolve("terraform.tfstate")), "f", "")
                .value();
        assertThat(onDisk.serial()).isEqualTo(3);
        assertThat(StateProcess.counter(onDisk)).isEqualTo(3);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("no temp files, lock info removed, no backup since there was no state to back up")
                    .containsExactlyInAnyOrder("terraform.tfstate");
        }
    }

    @Test
    void backupHoldsTheStateAsThisSessionFoundIt() throws Exception {
        try (StateManager m = open(backend(), "default")) {
            m.persist(counter(m.state(), 1));
        }
        byte[] before = Files.readAllBytes(dir.resolve("terraform.tfstate"));
        try (StateManager m = open(backend(), "default")) {
            m.persist(counter(m.state(), 2));
            m.persist(counter(m.state(), 3));
        }
        assertThat(Files.readAllBytes(dir.resolve("terraform.tfstate.backup"))).isEqualTo(before);
    }

    @Test
    void refusesAnotherLineage() {
        try (StateManager m = open(backend(), "default")) {
            m.persist(counter(m.state(), 1));
            Result<StateSnapshot> r = m.persist(counter(m.state(), 2).withLineage("other"));
            assertThat(r.hasErrors()).isTrue();
            assertThat(r.diagnostics().asList().get(0).detail())
                    .contains("lineage \"other\"")
                    .contains("different history");
        }
    }

    @Test
    void replaceChecksLineageAndSerialUnlessForced() {
        try (StateManager m = open(backend(), "default")) {
            StateSnapshot cur = m.persist(counter(m.state(), 1)).value();
            m.persist(counter(m.state(), 2));
            m.persist(counter(m.state(), 3)); // serial 3
            Diagnostic older =
                    m.replace(counter(cur, 9), false).diagnostics().asList().get(0);
            assertThat(older.detail()).startsWith("cannot import state with serial 1 over newer state with serial 3");
            Diagnostic unrelated = m.replace(counter(cur, 9).withLineage("x").withSerial(10), false)
                    .diagnostics()
                    .asList()
                    .get(0);
            assertThat(unrelated.detail()).contains("over unrelated state with lineage");
            StateSnapshot forced =
                    m.replace(counter(cur, 9).withLineage("x"), true).value();
            assertThat(forced.lineage()).isEqualTo("x");
            assertThat(forced.serial()).as("never backwards").isEqualTo(4);
            assertThat(m.replace(counter(forced, 10).withSerial(20), false)
                            .value()
                            .serial())
                    .isEqualTo(20);
        }
    }

    @Test
    void writerThatIgnoredTheLockIsNoticed() throws Exception {
        LocalBackend b = backend();
        try (StateManager m = b.open("default", LockRequest.none()).value()) {
            m.persist(counter(m.state(), 1));
        }
        StateManager a = b.open("default", LockRequest.none()).value();
        StateManager c = b.open("default", LockRequest.none()).value();
        assertThat(a.persist(counter(a.state(), 2)).hasErrors()).isFalse();
        Result<StateSnapshot> lost = c.persist(counter(c.state(), 5));
        assertThat(lost.diagnostics().asList().get(0).summary()).isEqualTo("The state changed since it was read");
        assertThat(lost.diagnostics().asList().get(0).detail()).contains("-lock=false");
        a.close();
        c.close();
    }

    @Test
    void secondOpenWaitsThenFailsNamingTheHolder() {
        LocalBackend b = backend();
        try (StateManager holder = open(b, "default")) {
            Result<StateManager> r = b.open("default", LockRequest.of("OperationTypePlan", Duration.ofMillis(200)));
            assertThat(r.value()).isNull();
            Diagnostic d = r.diagnostics().asList().get(0);
            assertThat(d.summary()).isEqualTo("Error acquiring the state lock");
            assertThat(d.detail())
                    .contains("ID:        " + holder.lock().id())
                    .contains("Operation: OperationTypeApply")
                    .contains("pid " + ProcessHandle.current().pid())
                    .contains("Gave up after waiting")
                    .contains("-lock=false");
        }
        try (StateManager again = open(b, "default")) {
            assertThat(again.lock()).isNotNull();
        }
    }

    @Test
    void threadsOfOneProcessTakeTurns() throws Exception {
        LocalBackend b = backend()
                .withTiming(new LockTiming(
                        Duration.ofMillis(50),
                        Duration.ofMinutes(2),
                        Duration.ofMillis(1),
                        Duration.ofMillis(20),
                        Clock.systemUTC()));
        int threads = 6;
        int cycles = 20;
        java.util.List<Thread> ts = new java.util.ArrayList<>();
        java.util.Queue<String> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int t = 0; t < threads; t++) {
            ts.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < cycles; i++) {
                    Result<StateManager> r = b.open("default", LockRequest.of("rmw", Duration.ofSeconds(60)));
                    if (r.hasErrors()) {
                        failures.add(r.diagnostics().toString());
                        return;
                    }
                    try (StateManager m = r.value()) {
                        Result<StateSnapshot> w = m.persist(counter(m.state(), StateProcess.counter(m.state()) + 1));
                        if (w.hasErrors()) {
                            failures.add(w.diagnostics().toString());
                        }
                    }
                }
            }));
        }
        for (Thread t : ts) {
            t.join(120_000);
        }
        assertThat(failures).isEmpty();
        try (StateManager m = open(b, "default")) {
            assertThat(StateProcess.counter(m.state())).isEqualTo(threads * cycles);
            assertThat(m.state().serial()).isEqualTo(threads * cycles);
        }
    }

    @Test
    void staleLockFromAnotherHostIsTakenOverOnlyAfterTheHeartbeatGoesQuiet() throws Exception {
        Instant now = Instant.parse("2026-11-25T12:00:00Z");
        LockInfo foreign = new LockInfo(
                "abc",
                "OperationTypeApply",
                "",
                "ann@build-7",
                "0.1.0",
                now.minusSeconds(600),
                "terraform.tfstate",
                "build-7",
                4242,
                null,
                now.minusSeconds(30));
        Files.write(dir.resolve(".terraform.tfstate.lock.info"), foreign.toJson());
        LockTiming timing = LockTiming.DEFAULT.withClock(Clock.fixed(now, ZoneOffset.UTC));
        Result<StateManager> fresh =
                backend().withTiming(timing).open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(fresh.value()).as("heartbeat 30s old: still held").isNull();
        assertThat(fresh.diagnostics().asList().get(0).detail())
                .contains("ann@build-7")
                .contains("held for 10m");

        LockTiming later = timing.withClock(Clock.fixed(now.plusSeconds(300), ZoneOffset.UTC));
        Result<StateManager> stale =
                backend().withTiming(later).open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(stale.value()).isNotNull();
        Diagnostic w = stale.diagnostics().asList().get(0);
        assertThat(w.summary()).isEqualTo("Took over a stale state lock");
        assertThat(w.detail())
                .contains("abc of ann@build-7 (pid 4242)")
                .contains("has not renewed its heartbeat for 5m30s");
        stale.value().close();
    }

    @Test
    void terraformLockInfoWithoutTheOsLockIsALeftoverAndTakenOver() throws Exception {
        // What a killed terraform leaves: its lock info (no host, no pid, no heartbeat), and no OS lock.
        Files.writeString(
                dir.resolve(".terraform.tfstate.lock.info"),
                "{\"ID\":\"tf-1\",\"Operation\":\"OperationTypeApply\","
                        + "\"Info\":\"\",\"Who\":\"ann@ci\",\"Version\":\"1.11.4\",\"Created\":\"" + Instant.now()
                        + "\",\"Path\":\"terraform.tfstate\"}");
        Result<StateManager> r = backend().open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(r.value()).as(r.diagnostics().toString()).isNotNull();
        Diagnostic w = r.diagnostics().asList().get(0);
        assertThat(w.summary()).isEqualTo("Took over a stale state lock");
        assertThat(w.detail()).contains("tf-1 of ann@ci").contains("no process holds the lock on the state file");
        r.value().close();
        assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
    }

    @Test
    void theEmptyStateFileCreatedToLockIsRemovedWhenNothingWasWritten() throws Exception {
        try (StateManager m = open(backend(), "default")) {
            assertThat(dir.resolve("terraform.tfstate"))
                    .as("created to be locked")
                    .exists();
            assertThat(m.exists()).isFalse();
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).as("a session that wrote nothing leaves nothing").isEmpty();
        }
    }

    @Test
    void leftoverLockOfADeadProcessOnThisHostIsStale() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        LockInfo dead = new LockInfo(
                "dead-1",
                "OperationTypeApply",
                "",
                Hosts.who(),
                "0.1.0",
                Instant.now(),
                "terraform.tfstate",
                Hosts.hostName(),
                p.pid(),
                null,
                Instant.now());
        Files.write(dir.resolve(".terraform.tfstate.lock.info"), dead.toJson());
        Result<StateManager> r = backend().open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(r.value()).isNotNull();
        assertThat(r.diagnostics().asList().get(0).detail()).contains("dead-1");
        r.value().close();
        assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
    }

    @Test
    void forceUnlockOfAHeldLockMakesTheHolderRefuseToWrite() throws Exception {
        LocalBackend b = backend()
                .withTiming(new LockTiming(
                        Duration.ofMillis(20),
                        Duration.ofMinutes(2),
                        Duration.ofMillis(10),
                        Duration.ofMillis(50),
                        Clock.systemUTC()));
        StateManager m = open(b, "default");
        m.persist(counter(m.state(), 1));
        assertThat(b.forceUnlock("default", "wrong")
                        .diagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .contains("does not match the existing lock ID");
        assertThat(b.forceUnlock("default", m.lock().id()).hasErrors()).isFalse();
        Result<StateSnapshot> r = m.persist(counter(m.state(), 2));
        assertThat(r.diagnostics().asList().get(0).summary()).isEqualTo("State lock lost");
        m.close();
        assertThat(b.forceUnlock("default", "x").diagnostics().asList().get(0).detail())
                .contains("is not locked");
    }

    @Test
    void heartbeatNoticesALockInfoRemovedBehindItsBack() throws Exception {
        LocalBackend b = backend()
                .withTiming(new LockTiming(
                        Duration.ofMillis(10),
                        Duration.ofMinutes(2),
                        Duration.ofMillis(10),
                        Duration.ofMillis(50),
                        Clock.systemUTC()));
        try (StateManager m = open(b, "default")) {
            Files.delete(dir.resolve(".terraform.tfstate.lock.info"));
            Result<StateSnapshot> r = null;
            for (int i = 0; i < 500; i++) { // bounded wait for the heartbeat thread, not a timing assertion
                r = m.persist(counter(m.state(), i + 1));
                if (r.hasErrors()) {
                    break;
                }
                Thread.sleep(10);
            }
            assertThat(r.diagnostics().asList().get(0).detail()).contains("was removed");
        }
    }

    @Test
    void corruptStateNamesThePlaceAndTheBackupAndReleasesTheLock() throws Exception {
        try (StateManager m = open(backend(), "default")) {
            m.persist(counter(m.state(), 1));
            m.persist(counter(m.state(), 2));
        }
        try (StateManager m = open(backend(), "default")) {
            m.persist(counter(m.state(), 3)); // creates the backup
        }
        Path f = dir.resolve("terraform.tfstate");
        byte[] full = Files.readAllBytes(f);
        Files.write(f, java.util.Arrays.copyOf(full, full.length / 2));
        Result<StateManager> r = backend().open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(r.value()).isNull();
        Diagnostic d = r.diagnostics().asList().get(0);
        assertThat(d.subject().filename()).isEqualTo("terraform.tfstate");
        assertThat(d.detail())
                .contains("not valid JSON at line")
                .contains("truncated")
                .contains("terraform.tfstate.backup")
                .contains("strata state push terraform.tfstate.backup");
        assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
    }

    @Test
    void emptyStateFileMeansNoState() throws Exception {
        Files.write(dir.resolve("terraform.tfstate"), new byte[0]);
        try (StateManager m = open(backend(), "default")) {
            assertThat(m.exists()).isFalse();
        }
    }

    @Test
    void workspacesLiveUnderTerraformTfstateD() throws Exception {
        LocalBackend b = backend();
        assertThat(b.workspaces().value()).containsExactly("default");
        assertThat(b.createWorkspace("prod").hasErrors()).isFalse();
        assertThat(b.createWorkspace("dev").hasErrors()).isFalse();
        assertThat(b.createWorkspace("dev").diagnostics().asList().get(0).detail())
                .contains("already exists");
        assertThat(b.createWorkspace("a/b").diagnostics().asList().get(0).detail())
                .contains("not allowed");
        assertThat(b.workspaces().value()).containsExactly("default", "dev", "prod");
        try (StateManager m = open(b, "dev")) {
            m.persist(counter(m.state(), 1));
        }
        assertThat(dir.resolve("terraform.tfstate.d/dev/terraform.tfstate")).exists();
        assertThat(b.open("nope", LockRequest.none())
                        .diagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .contains("doesn't exist");
        assertThat(b.deleteWorkspace("default").hasErrors()).isTrue();
        assertThat(b.deleteWorkspace("dev").hasErrors()).isFalse();
        assertThat(b.workspaces().value()).containsExactly("default", "prod");
    }

    @Test
    void selectedWorkspaceComesFromEnvironmentFileOrTfWorkspace() {
        assertThat(Workspaces.current(dir, java.util.Map.of()).value()).isEqualTo("default");
        Workspaces.select(dir, java.util.Map.of(), "dev");
        assertThat(dir.resolve(".terraform/environment")).hasContent("dev");
        assertThat(Workspaces.current(dir, java.util.Map.of()).value()).isEqualTo("dev");
        assertThat(Workspaces.current(dir, java.util.Map.of("TF_WORKSPACE", "ci"))
                        .value())
                .isEqualTo("ci");
        assertThat(Workspaces.current(dir, java.util.Map.of("TF_WORKSPACE", "a/b"))
                        .hasErrors())
                .isTrue();
    }

    @Test
    void lockInfoIsReadableByTerraformNamesAndTimes() {
        LockInfo i = new LockInfo(
                "id",
                "op",
                "",
                "u@h",
                "0.1.0",
                Instant.parse("2026-01-02T03:04:05.120Z"),
                "terraform.tfstate",
                "h",
                7,
                null,
                Instant.parse("2026-01-02T03:04:05Z"));
        String json = new String(i.toJson(), StandardCharsets.UTF_8);
        assertThat(json)
                .startsWith("{\"ID\":\"id\",\"Operation\":\"op\",\"Info\":\"\",\"Who\":\"u@h\",\"Version\":\"0.1.0\","
                        + "\"Created\":\"2026-01-02T03:04:05.12Z\",\"Path\":\"terraform.tfstate\"");
        assertThat(LockInfo.parse(i.toJson(), "f").value()).isEqualTo(i);
        // Terraform's own lock info: no pid, no heartbeat, local offset.
        LockInfo tf = LockInfo.parse(
                        ("{\"ID\":\"t\",\"Operation\":\"OperationTypeApply\",\"Info\":\"\",\"Who\":\"root@x\","
                                        + "\"Version\":\"1.11.4\",\"Created\":\"2026-11-25T23:40:34.5+01:00\",\"Path\":\"terraform.tfstate\"}")
                                .getBytes(StandardCharsets.UTF_8),
                        "f")
                .value();
        assertThat(tf.created()).isEqualTo(Instant.parse("2026-11-25T22:40:34.5Z"));
        assertThat(tf.pid()).isZero();
        assertThat(List.of(tf.who(), tf.version())).containsExactly("root@x", "1.11.4");
    }
}
