package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The write refusals every state manager shares (WriteChecks) and the open-intent bookkeeping (OpenIntents). */
class WriteChecksTest {
    private static final StateSnapshot STORED =
            StateSnapshot.empty("1.11.0").withLineage("lineage-a").withSerial(7);

    private static Diagnostic only(Result<StateSnapshot> r) {
        assertThat(r).isNotNull();
        assertThat(r.value()).isNull();
        assertThat(r.diagnostics().asList()).hasSize(1);
        Diagnostic d = r.diagnostics().asList().get(0);
        assertThat(d.isError()).isTrue();
        return d;
    }

    @Test
    void serialIsOnePastTheStoredOneOrTheHigherNextOne() {
        assertThat(WriteChecks.serial(true, false, false, STORED.withSerial(3), STORED))
                .isEqualTo(8);
        assertThat(WriteChecks.serial(true, true, false, STORED.withSerial(20), STORED))
                .isEqualTo(20);
        assertThat(WriteChecks.serial(false, true, false, STORED.withSerial(0), STORED))
                .isEqualTo(1);
        assertThat(WriteChecks.serial(false, false, true, STORED.withSerial(0), STORED))
                .isZero();
    }

    @Test
    void persistRefusesAnotherLineageOnlyOverAnExistingState() {
        StateSnapshot other = STORED.withLineage("lineage-b");
        assertThat(WriteChecks.persist(true, STORED, STORED.withSerial(8), "s3://b/k"))
                .isNull();
        assertThat(WriteChecks.persist(false, STORED, other, "s3://b/k")).isNull();
        Diagnostic d = only(WriteChecks.persist(true, STORED, other, "s3://b/k"));
        assertThat(d.summary()).isEqualTo("Refusing to write a state of another lineage");
        assertThat(d.detail())
                .isEqualTo("The state to write has lineage \"lineage-b\", but s3://b/k has lineage \"lineage-a\":"
                        + " it belongs to a different history, and writing it would lose the stored one.");
    }

    @Test
    void replaceRefusesAnotherLineageOrAnOlderSerialWithoutForce() {
        assertThat(WriteChecks.replace(true, STORED, STORED.withLineage("x"), true))
                .isNull();
        assertThat(WriteChecks.replace(false, STORED, STORED.withSerial(1), false))
                .isNull();
        assertThat(WriteChecks.replace(true, STORED, STORED.withSerial(7), false))
                .isNull();
        assertThat(only(WriteChecks.replace(true, STORED, STORED.withLineage("x"), false))
                        .detail())
                .isEqualTo("cannot import state with lineage \"x\" over unrelated state with lineage \"lineage-a\"."
                        + " Use -force to overwrite it anyway.");
        Diagnostic older = only(WriteChecks.replace(true, STORED, STORED.withSerial(6), false));
        assertThat(older.summary()).isEqualTo("Failed to write state");
        assertThat(older.detail())
                .isEqualTo("cannot import state with serial 6 over newer state with serial 7."
                        + " Use -force to overwrite it anyway.");
    }

    @Test
    void lockLostSaysHowAndThatNothingWasWritten() {
        Diagnostic d =
                only(WriteChecks.lockLost(WriteChecks.notHeld("terraform.tfstate", "the lock file was removed")));
        assertThat(d.summary()).isEqualTo("State lock lost");
        assertThat(d.detail())
                .isEqualTo("Strata no longer holds the lock of terraform.tfstate: the lock file was removed."
                        + " The state was not written, so that another writer's changes are not overwritten.");
    }

    @Test
    void changedSinceReadNamesTheOtherWriterAndHowItCouldHappen() {
        Diagnostic d = only(WriteChecks.changedSinceRead("s3://b/k", "client", " (locking is off)"));
        assertThat(d.summary()).isEqualTo("The state changed since it was read");
        assertThat(d.detail())
                .isEqualTo("s3://b/k was changed by another client after Strata read it (locking is off)."
                        + " The state was not written, so that the other change is not lost; run the command again.");
    }

    @Test
    void journalNeedsLockSaysHowToTurnLockingOn() {
        Diagnostic d = only(WriteChecks.journalNeedsLock("s3://b/k", " (use_lockfile = true)"));
        assertThat(d.summary()).isEqualTo("The journal needs the state lock");
        assertThat(d.detail())
                .isEqualTo("Appending to the journal of s3://b/k without holding its lock could interleave with"
                        + " another writer; open the state with locking on (use_lockfile = true).");
        assertThat(only(WriteChecks.journalNeedsLock("workspace \"w\"", "")).detail())
                .endsWith("open the state with locking on.");
    }

    @Test
    void openIntentsKeepStartedOperationsUntilCompletedAndReappendThem() {
        AbsResourceInstance thing = JournalTest.THING.instance(InstanceKey.NONE);
        OpenIntents open = new OpenIntents();
        open.track(new JournalEntry.Intent("op-2", thing, "create"));
        open.track(new JournalEntry.Intent("op-1", thing, "delete"));
        open.track(new JournalEntry.RemoveOutput("o"));
        open.track(new JournalEntry.Completed("op-2"));
        assertThat(open.list()).extracting(JournalEntry.Intent::operationId).containsExactly("op-1");

        List<JournalEntry> appended = new ArrayList<>();
        assertThat(open.reappend(e -> {
                    appended.add(e);
                    open.track(e);
                    return Result.of(STORED);
                }))
                .isNull();
        assertThat(appended)
                .extracting(e -> ((JournalEntry.Intent) e).operationId())
                .containsExactly("op-1");
        assertThat(open.list()).hasSize(1);

        Result<StateSnapshot> failed = WriteChecks.error("Failed to append to the state journal", "disk full");
        assertThat(open.reappend(e -> failed)).isSameAs(failed);
    }
}
