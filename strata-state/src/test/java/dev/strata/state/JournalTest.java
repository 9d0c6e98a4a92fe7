package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import dev.strata.hcl.Result;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The apply journal: durable appends, replay on open, compaction, and what crashes leave behind. */
class JournalTest {
    static final AbsResource THING = ModuleInstance.ROOT.resource(Resource.managed("test_thing", "t"));
    static final AbsProviderConfig PROVIDER = AbsProviderConfig.parse(
                    "provider[\"registry.terraform.io/hashicorp/test\"]")
            .value();

    @TempDir
    Path dir;

    static JournalEntry set(int i) {
        return new JournalEntry.SetObject(
                THING,
                PROVIDER,
                ResourceInstanceObject.current(
                        InstanceKey.of(i),
                        0,
                        new JsonValue.ObjectValue(Map.of("id", JsonValue.of("obj-" + i))),
                        List.of(),
                        List.of()));
    }

    LocalBackend backend() {
        return LocalBackend.in(dir, "0.1.0");
    }

    StateManager open() {
        Result<StateManager> r = backend().open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(r.hasErrors()).as(r.diagnostics().toString()).isFalse();
        return r.value();
    }

    @Test
    void appendsAreReplayedOnOpenAndCompactionFoldsThemIn() throws Exception {
        try (StateManager m = open()) {
            m.append(set(0));
            m.append(set(1));
            m.append(new JournalEntry.SetOutput(
                    "ip", new OutputValue(JsonValue.of("10.0.0.1"), JsonValue.of("string"), false)));
            m.append(new JournalEntry.RemoveObject(THING.instance(InstanceKey.of(0)), null));
            assertThat(m.journalSize()).isEqualTo(4);
            assertThat(m.state().instanceAddresses())
                    .extracting(Object::toString)
                    .containsExactly("test_thing.t[1]");
        }
        // The snapshot on disk is the empty one written before the first append, at serial 0 so that the
        // first compaction writes serial 1 as Terraform's first write does; the journal has the rest.
        assertThat(StateCodec.read(Files.readAllBytes(dir.resolve("terraform.tfstate")), "f", "")
                        .value()
                        .serial())
                .isEqualTo(0);
        assertThat(Files.readAllLines(dir.resolve("terraform.tfstate.journal"))).hasSize(4);
        try (StateManager m = open()) {
            assertThat(m.journalSize()).isEqualTo(4);
            assertThat(m.state().instanceAddresses())
                    .extracting(Object::toString)
                    .containsExactly("test_thing.t[1]");
            assertThat(m.state().outputs()).containsKey("ip");
            StateSnapshot compacted = m.compact().value();
            assertThat(compacted.serial()).isEqualTo(1);
            assertThat(m.journalSize()).isZero();
        }
        assertThat(dir.resolve("terraform.tfstate.journal")).doesNotExist();
        StateSnapshot onDisk = StateCodec.read(Files.readAllBytes(dir.resolve("terraform.tfstate")), "f", "")
                .value();
        assertThat(onDisk.instanceAddresses()).extracting(Object::toString).containsExactly("test_thing.t[1]");
    }

    @Test
    void entriesAppendedAsOneStepAreWrittenInOrderAndMadeDurableByOneSync() throws Exception {
        JournalEntry.Intent intent = new JournalEntry.Intent("op-1", THING.instance(InstanceKey.of(1)), "create");
        try (StateManager m = open()) {
            LocalStateManager local = (LocalStateManager) m;
            m.append(intent);
            long before = local.syncs();
            Result<StateSnapshot> r = m.appendAll(List.of(set(1), new JournalEntry.Completed("op-1")));
            assertThat(r.hasErrors()).as(r.diagnostics().toString()).isFalse();
            assertThat(local.syncs() - before).as("one sync for both entries").isEqualTo(1);
            assertThat(r.value().instanceAddresses())
                    .extracting(Object::toString)
                    .containsExactly("test_thing.t[1]");
            assertThat(m.openIntents()).isEmpty();
            assertThat(m.journalSize()).isEqualTo(3);
            // One entry alone is an ordinary append.
            before = local.syncs();
            m.appendAll(List.of(set(2)));
            assertThat(local.syncs() - before).isEqualTo(1);
        }
        // On disk: the lines separate appends would have written, numbered in order.
        List<String> lines = Files.readAllLines(dir.resolve("terraform.tfstate.journal"));
        assertThat(lines).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(lines.get(i)).startsWith("{\"seq\":" + (i + 1) + ",");
        }
        try (StateManager m = open()) {
            assertThat(m.openIntents()).isEmpty();
            assertThat(m.state().instanceAddresses())
                    .extracting(Object::toString)
                    .containsExactly("test_thing.t[1]", "test_thing.t[2]");
        }
    }

    @Test
    void concurrentAppendsShareSyncsAndAllReturnWithTheirEntryRecorded() throws Exception {
        int n = 200;
        try (StateManager m = open()) {
            java.util.Queue<String> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
            List<Thread> threads = new java.util.ArrayList<>();
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            for (int i = 0; i < n; i++) {
                int k = i;
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    Result<StateSnapshot> r = m.append(set(k));
                    if (r.hasErrors()) {
                        failures.add(r.diagnostics().toString());
                    } else if (!r.value().instanceAddresses().stream()
                            .map(Object::toString)
                            .toList()
                            .contains("test_thing.t[" + k + "]")) {
                        failures.add("append " + k + " returned a state without its entry");
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads) {
                t.join(60_000);
            }
            assertThat(failures).isEmpty();
        }
        try (StateManager m = open()) {
            assertThat(m.journalSize()).isEqualTo(n);
            assertThat(m.state().instanceAddresses()).hasSize(n);
        }
        // Entries are encoded before the manager's lock, their headers under it: the lines on disk still
        // number 1 to n in the order they were written.
        List<String> lines = Files.readAllLines(dir.resolve("terraform.tfstate.journal"));
        assertThat(lines).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(lines.get(i)).startsWith("{\"seq\":" + (i + 1) + ",\"lineage\":\"");
        }
    }

    @Test
    void aLineIsItsHeaderThenTheEntryEncodedApart() {
        JournalEntry e = new JournalEntry.Intent("op-1", THING.instance(InstanceKey.of("k1")), "create");
        assertThat(new String(Journal.line(e, "lin\"eage", 4, 7), StandardCharsets.UTF_8))
                .isEqualTo("{\"seq\":7,\"lineage\":\"lin\\\"eage\",\"base_serial\":4,\"entry\":\"intent\","
                        + "\"operation\":\"op-1\",\"address\":\"test_thing.t[\\\"k1\\\"]\",\"action\":\"create\"}\n");
    }

    /**
     * Entries are encoded member by member; the bytes must be those of the JSON object of the same members
     * written by {@link GoJsonWriter#compact} (what the journal wrote before, and what replay parses), with
     * values that need escaping in every string position.
     */
    @Test
    void eachKindOfEntryIsEncodedAsTheCompactJsonObjectOfItsMembers() {
        AbsResource odd =
                ModuleInstance.ROOT.child("m", InstanceKey.of("k<&>")).resource(Resource.managed("test_thing", "t"));
        ResourceInstanceObject obj = new ResourceInstanceObject(
                InstanceKey.of("é\n"),
                ObjectStatus.TAINTED,
                "0a1b2c3d",
                3,
                new JsonValue.ObjectValue(Map.of("id", JsonValue.of("<x>"))),
                null,
                List.of(),
                0,
                null,
                null,
                List.of(),
                false,
                null);
        OutputValue out = new OutputValue(JsonValue.of("a\u0001b"), JsonValue.of("string"), true);
        List<JournalEntry> entries = List.of(
                new JournalEntry.SetObject(odd, PROVIDER, obj),
                new JournalEntry.SetObject(THING, PROVIDER, ((JournalEntry.SetObject) set(7)).object()),
                new JournalEntry.RemoveObject(odd.instance(InstanceKey.of("q\\")), "0a1b2c3d"),
                new JournalEntry.RemoveObject(THING.instance(InstanceKey.of(12)), null),
                new JournalEntry.RemoveObject(THING.instance(InstanceKey.NONE), null),
                new JournalEntry.SetOutput("o\"ut", out),
                new JournalEntry.RemoveOutput("o\"ut"),
                new JournalEntry.Intent("op\"1", odd.instance(InstanceKey.of("k")), "create"),
                new JournalEntry.Completed("op\"1"));
        for (JournalEntry e : entries) {
            assertThat(new String(Journal.body(e), StandardCharsets.UTF_8))
                    .as(Journal.describe(e))
                    .isEqualTo("{" + members(e).substring(1) + "\n");
            // Each line replays to the entry it was made of.
            StateSnapshot base = StateSnapshot.empty("0.1.0");
            byte[] line = Journal.line(e, base.lineage(), base.serial(), 1);
            Result<Journal.Replay> r = Journal.replay(base, line, "j");
            assertThat(r.hasErrors()).as(r.diagnostics().toString()).isFalse();
            assertThat(r.value().applied()).isEqualTo(1);
        }
        assertThat(new String(Journal.header("lin\"eage", 4, 17), StandardCharsets.UTF_8))
                .isEqualTo("{\"seq\":17,\"lineage\":\"lin\\\"eage\",\"base_serial\":4,");
    }

    /** The entry as a JSON object of members, written by the generic writer. */
    private static String members(JournalEntry e) {
        Map<String, JsonValue> m = new java.util.LinkedHashMap<>();
        switch (e) {
            case JournalEntry.SetObject s -> {
                m.put("entry", JsonValue.of("set_object"));
                resource(m, s.resource());
                m.put("provider", JsonValue.of(s.provider().toString()));
                m.put("object", StateCodec.instanceToJson(s.object()));
            }
            case JournalEntry.RemoveObject r -> {
                m.put("entry", JsonValue.of("remove_object"));
                resource(m, r.instance().containingResource());
                switch (r.instance().resource().key()) {
                    case InstanceKey.NoKey n -> {}
                    case InstanceKey.IntKey i -> m.put("index_key", JsonValue.NumberValue.of(i.index()));
                    case InstanceKey.StringKey s -> m.put("index_key", JsonValue.of(s.key()));
                }
                if (r.deposed() != null) {
                    m.put("deposed", JsonValue.of(r.deposed()));
                }
            }
            case JournalEntry.SetOutput o -> {
                m.put("entry", JsonValue.of("set_output"));
                m.put("name", JsonValue.of(o.name()));
                m.put("output", StateCodec.outputToJson(o.value()));
            }
            case JournalEntry.RemoveOutput o -> {
                m.put("entry", JsonValue.of("remove_output"));
                m.put("name", JsonValue.of(o.name()));
            }
            case JournalEntry.Intent i -> {
                m.put("entry", JsonValue.of("intent"));
                m.put("operation", JsonValue.of(i.operationId()));
                m.put("address", JsonValue.of(i.instance().toString()));
                m.put("action", JsonValue.of(i.action()));
            }
            case JournalEntry.Completed c -> {
                m.put("entry", JsonValue.of("completed"));
                m.put("operation", JsonValue.of(c.operationId()));
            }
        }
        GoJsonWriter w = new GoJsonWriter(16);
        w.compact(new JsonValue.ObjectValue(m));
        return w.toString();
    }

    private static void resource(Map<String, JsonValue> m, AbsResource r) {
        m.put("module", JsonValue.of(r.module().toString()));
        m.put("mode", JsonValue.of(r.resource().mode().jsonName()));
        m.put("type", JsonValue.of(r.resource().type()));
        m.put("name", JsonValue.of(r.resource().name()));
    }

    /**
     * Objects set in any order end up in the state's instance order (key, then deposed key after the current
     * object), each replacing the one of its key and deposed key: as placed one at a time by binary search.
     */
    @Test
    void objectsSetInAnyOrderAreKeptInInstanceOrder() {
        java.util.Random rnd = new java.util.Random(7);
        List<Integer> keys = new java.util.ArrayList<>();
        for (int i = 0; i < 60; i++) {
            keys.add(i % 40);
        }
        java.util.Collections.shuffle(keys, rnd);
        StateSnapshot s = StateSnapshot.empty("0.1.0");
        java.util.Map<String, String> expected = new java.util.TreeMap<>();
        for (int n = 0; n < keys.size(); n++) {
            int k = keys.get(n);
            String deposed = n % 7 == 0 ? "d" + (n % 3) : null;
            ResourceInstanceObject o = new ResourceInstanceObject(
                    InstanceKey.of(k),
                    ObjectStatus.READY,
                    deposed,
                    0,
                    new JsonValue.ObjectValue(Map.of("id", JsonValue.of("v" + n))),
                    null,
                    List.of(),
                    0,
                    null,
                    null,
                    List.of(),
                    false,
                    null);
            s = Journal.apply(s, new JournalEntry.SetObject(THING, PROVIDER, o));
            expected.put(String.format("%03d/%s", k, deposed == null ? "" : deposed), "v" + n);
        }
        List<ResourceInstanceObject> got = s.resource(THING).orElseThrow().instances();
        List<String> order = got.stream()
                .map(o -> String.format(
                        "%03d/%s", ((InstanceKey.IntKey) o.key()).index(), o.deposed() == null ? "" : o.deposed()))
                .toList();
        assertThat(order).containsExactlyElementsOf(expected.keySet());
        assertThat(got.stream()
                        .map(o -> ((JsonValue.StringValue) ((JsonValue.ObjectValue) o.attributes()).get("id")).value())
                        .toList())
                .containsExactlyElementsOf(expected.values());
        // The same objects given to a ResourceState in one list come out in the same order.
        assertThat(new ResourceState(THING, null, PROVIDER, List.copyOf(got).reversed(), null).instances())
                .isEqualTo(got);
    }

    @Test
    void aLargeEntryIsWrittenBesideItsHeaderAndReplaysWhole() throws Exception {
        String big = "x".repeat(200_000);
        try (StateManager m = open()) {
            m.append(set(0));
            m.append(new JournalEntry.SetObject(
                    THING,
                    PROVIDER,
                    ResourceInstanceObject.current(
                            InstanceKey.of(1),
                            0,
                            new JsonValue.ObjectValue(Map.of("id", JsonValue.of("obj-1"), "blob", JsonValue.of(big))),
                            List.of(),
                            List.of())));
            m.append(set(2));
        }
        List<String> lines = Files.readAllLines(dir.resolve("terraform.tfstate.journal"));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).startsWith("{\"seq\":2,").contains("\"blob\":\"" + big + "\"");
        try (StateManager m = open()) {
            assertThat(m.journalSize()).isEqualTo(3);
            assertThat(m.state().instanceAddresses())
                    .extracting(Object::toString)
                    .containsExactly("test_thing.t[0]", "test_thing.t[1]", "test_thing.t[2]");
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentAppendsShareSyncsAndAllSurviveWithCompactionsBetween() throws Exception {
        int threads = 16;
        int each = 25;
        try (StateManager m = open()) {
            List<Throwable> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            try (var ex = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                for (int t = 0; t < threads; t++) {
                    int first = t * each;
                    ex.submit(() -> {
                        for (int i = first; i < first + each; i++) {
                            Result<StateSnapshot> r = m.append(set(i));
                            if (r.hasErrors()) {
                                failures.add(new AssertionError(r.diagnostics().toString()));
                            }
                            if (i % 97 == 0) {
                                m.compact();
                            }
                        }
                    });
                }
            }
            assertThat(failures).isEmpty();
            assertThat(m.state().instanceAddresses()).hasSize(threads * each);
        }
        try (StateManager m = open()) {
            assertThat(m.state().instanceAddresses()).hasSize(threads * each);
        }
    }

    @Test
    void openIntentsSurviveReopenAndCompaction() {
        AbsResourceInstance a = THING.instance(InstanceKey.of(7));
        try (StateManager m = open()) {
            m.append(new JournalEntry.Intent("op-1", a, "create"));
            m.append(new JournalEntry.Intent("op-2", THING.instance(InstanceKey.of(8)), "create"));
            m.append(set(8));
            m.append(new JournalEntry.Completed("op-2"));
        }
        try (StateManager m = open()) {
            assertThat(m.openIntents()).containsExactly(new JournalEntry.Intent("op-1", a, "create"));
            m.compact();
            assertThat(m.journalSize()).as("the open intent is carried over").isEqualTo(1);
        }
        try (StateManager m = open()) {
            assertThat(m.openIntents())
                    .extracting(JournalEntry.Intent::operationId)
                    .containsExactly("op-1");
            assertThat(m.state().instanceAddresses())
                    .extracting(Object::toString)
                    .containsExactly("test_thing.t[8]");
        }
    }

    @Test
    void tornLastLineIsIgnoredWithAWarningAndCutOff() throws Exception {
        try (StateManager m = open()) {
            m.append(set(0));
            m.append(set(1));
        }
        Path j = dir.resolve("terraform.tfstate.journal");
        Files.writeString(j, "{\"seq\":3,\"lineage\":\"x\",\"base_ser", StandardOpenOption.APPEND);
        Result<StateManager> r = backend().open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(r.diagnostics().asList().get(0).summary()).isEqualTo("Incomplete journal entry ignored");
        try (StateManager m = r.value()) {
            assertThat(m.journalSize()).isEqualTo(2);
            m.append(set(2));
        }
        assertThat(Files.readAllLines(j)).hasSize(3);
        try (StateManager m = open()) {
            assertThat(m.state().instanceAddresses()).hasSize(3);
        }
    }

    @Test
    void journalLeftByACrashedCompactionIsRecognisedAsFoldedIn() throws Exception {
        try (StateManager m = open()) {
            m.append(set(0));
        }
        Path j = dir.resolve("terraform.tfstate.journal");
        byte[] before = Files.readAllBytes(j);
        try (StateManager m = open()) {
            m.compact();
        }
        Files.write(j, before); // as if the process died after writing the snapshot, before removing the journal
        try (StateManager m = open()) {
            assertThat(m.journalSize()).isZero();
            assertThat(m.state().serial()).isEqualTo(1);
            assertThat(m.state().instanceAddresses()).hasSize(1);
        }
        assertThat(j).doesNotExist();
    }

    @Test
    void corruptMiddleEntryIsAnError() throws Exception {
        try (StateManager m = open()) {
            m.append(set(0));
        }
        Path j = dir.resolve("terraform.tfstate.journal");
        Files.writeString(j, "garbage\n" + Files.readString(j));
        Result<StateManager> r = backend().open("default", LockRequest.of("apply", Duration.ZERO));
        assertThat(r.value()).isNull();
        assertThat(r.diagnostics().asList().get(0).detail()).contains("terraform.tfstate.journal line 1");
        assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
    }

    @Test
    void appendNeedsTheLock() {
        try (StateManager m = backend().open("default", LockRequest.none()).value()) {
            assertThat(m.append(set(0)).diagnostics().asList().get(0).summary())
                    .isEqualTo("The journal needs the state lock");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyAcknowledgedAppendSurvivesKillNine() throws Exception {
        for (int round = 0; round < 3; round++) {
            Path d = dir.resolve("r" + round);
            Files.createDirectories(d);
            Process p = StateProcess.start("journal", d.toString(), "100000");
            int acknowledged = 0;
            try {
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                String line;
                int stopAfter = 20 + round * 37;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("APPENDED ")) {
                        acknowledged = Integer.parseInt(line.substring(9));
                        if (acknowledged >= stopAfter) {
                            break;
                        }
                    }
                }
                StateProcess.killHard(p);
            } finally {
                p.destroyForcibly();
            }
            Result<StateManager> r =
                    LocalBackend.in(d, "0.1.0").open("default", LockRequest.of("apply", Duration.ZERO));
            assertThat(r.value()).as(r.diagnostics().toString()).isNotNull();
            try (StateManager m = r.value()) {
                // The writer may have appended entries it had not reported before the kill landed: none of
                // the acknowledged ones is lost, and every entry on disk is whole (it replays).
                assertThat(m.journalSize()).isGreaterThanOrEqualTo(acknowledged);
                assertThat(m.state().instanceAddresses()).hasSize(m.journalSize());
            }
        }
    }

    @Test
    void afterAFailedAppendNothingMoreIsAppendedUntilTheStateIsWrittenWhole() throws Exception {
        try (StateManager m = open()) {
            assertThat(m.append(set(0)).hasErrors()).isFalse();
            java.lang.reflect.Field f = LocalStateManager.class.getDeclaredField("journal");
            f.setAccessible(true);
            // The journal's file fails the next write, as a full disk would.
            ((java.nio.channels.FileChannel) f.get(m)).close();
            Result<StateSnapshot> failed = m.append(set(1));
            assertThat(failed.hasErrors()).isTrue();
            // Even with a file that would take it, the next line is refused: it could follow a torn one.
            f.set(
                    m,
                    java.nio.channels.FileChannel.open(
                            dir.resolve("terraform.tfstate.journal"),
                            StandardOpenOption.WRITE,
                            StandardOpenOption.APPEND));
            Result<StateSnapshot> refused = m.append(set(2));
            assertThat(refused.hasErrors()).isTrue();
            assertThat(refused.diagnostics().asList().getFirst().detail())
                    .contains("an earlier append failed")
                    .contains("The entry is not recorded.");
            assertThat(Files.readAllLines(dir.resolve("terraform.tfstate.journal")))
                    .hasSize(1);
            // Once the snapshot holds everything recorded, the journal starts again.
            assertThat(m.compact().hasErrors()).isFalse();
            assertThat(m.append(set(3)).hasErrors()).isFalse();
        }
        try (StateManager m = open()) {
            assertThat(m.state().instanceAddresses())
                    .extracting(Object::toString)
                    .containsExactly("test_thing.t[0]", "test_thing.t[3]");
        }
    }
}
