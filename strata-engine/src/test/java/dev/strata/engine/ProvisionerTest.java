package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.config.ConfigTree;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.state.ObjectStatus;
import dev.strata.state.ResourceInstanceObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Provisioners during apply: when they run, with what in scope, and what their failure does to the object. */
class ProvisionerTest {
    @TempDir
    Path dir;

    private final FakeProvider fake = new FakeProvider();
    private EngineHarness h;

    /** What the engine reported about provisioners, as "addr (type): line" strings. */
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    private final EngineEvents recorder = new EngineEvents() {
        @Override
        public void applyStart(AbsResourceInstance addr, Action action, String deposed) {
            events.add(addr + ": start " + action);
        }

        @Override
        public void applyComplete(AbsResourceInstance addr, Action action, String id, Duration elapsed) {
            events.add(addr + ": complete " + action);
        }

        @Override
        public void provisionStart(AbsResourceInstance addr, String type) {
            events.add(addr + ": Provisioning with '" + type + "'...");
        }

        @Override
        public void provisionOutput(AbsResourceInstance addr, String type, String line) {
            events.add(addr + " (" + type + "): " + line);
        }
    };

    @BeforeEach
    void harness() {
        h = new EngineHarness(dir, fake);
    }

    private Result<ApplyResult> apply(ConfigTree tree) {
        return h.planAndApply(tree, h.options(), recorder);
    }

    private Result<ApplyResult> destroy(ConfigTree tree) {
        PlanOptions o = h.options(PlanMode.DESTROY, List.of(), List.of());
        return h.planAndApply(tree, o, recorder);
    }

    private ResourceInstanceObject object(String addr) {
        return h.state().resources().stream()
                .filter(r -> r.addr().toString().equals(addr.replaceAll("\\[.*", "")))
                .flatMap(r -> r.instances().stream())
                .filter(o -> o.deposed() == null)
                .findFirst()
                .orElse(null);
    }

    @Test
    void creationTimeProvisionersRunAfterCreateWithSelfAndCountInScope() throws Exception {
        ConfigTree tree = h.config("""
                resource "fake_thing" "a" {
                  count = 1
                  value = "v"
                  provisioner "local-exec" {
                    command = "echo created ${self.id} ${self.value} ${count.index} > made.txt; echo done"
                  }
                }
                """);
        Result<ApplyResult> r = apply(tree);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        String id = ((dev.strata.state.JsonValue.StringValue) ((dev.strata.state.JsonValue.ObjectValue)
                                object("fake_thing.a[0]").attributes())
                        .members()
                        .get("id"))
                .value();
        assertThat(Files.readString(dir.resolve("made.txt"))).isEqualTo("created " + id + " v 0\n");
        assertThat(events)
                .containsExactly(
                        "fake_thing.a[0]: start CREATE",
                        "fake_thing.a[0]: Provisioning with 'local-exec'...",
                        "fake_thing.a[0] (local-exec): Executing: [\"/bin/sh\" \"-c\" \"echo created " + id
                                + " v 0 > made.txt; echo done\"]",
                        "fake_thing.a[0] (local-exec): done",
                        "fake_thing.a[0]: complete CREATE");
        // Recorded tainted while the provisioners ran, ready once they all succeeded.
        assertThat(object("fake_thing.a[0]").status()).isEqualTo(ObjectStatus.READY);
        // An update does not run creation-time provisioners again.
        events.clear();
        Files.delete(dir.resolve("made.txt"));
        Result<ApplyResult> update =
                apply(h.config(Files.readString(dir.resolve("main.tf")).replace("\"v\"", "\"w\"")));
        assertThat(update.diagnostics().hasErrors())
                .as(update.diagnostics().toString())
                .isFalse();
        assertThat(update.value().changed()).isEqualTo(1);
        assertThat(events).noneMatch(e -> e.contains("Provisioning"));
        assertThat(dir.resolve("made.txt")).doesNotExist();
    }

    @Test
    void aFailedProvisionerTaintsTheNewObjectAndTheNextPlanReplacesIt() throws Exception {
        ConfigTree tree = h.config("""
                resource "fake_thing" "a" {
                  provisioner "local-exec" {
                    command = "echo half; exit 4"
                  }
                  provisioner "local-exec" {
                    command = "touch never.txt"
                  }
                }
                resource "fake_thing" "b" {
                  value = fake_thing.a.id
                }
                """);
        Result<ApplyResult> r = apply(tree);
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::summary, Diagnostic::detail)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "local-exec provisioner error",
                        "Error running command 'echo half; exit 4': exit status 4. Output: half\n"));
        // At the failed provisioner's block.
        List<String> lines = Files.readAllLines(dir.resolve("main.tf"));
        assertThat(r.diagnostics().asList().getFirst().subject().start().line())
                .isEqualTo(lines.indexOf("  provisioner \"local-exec\" {") + 1);
        assertThat(r.value().failed()).extracting(Object::toString).containsExactly("fake_thing.a");
        // The object was made and is recorded, tainted; what depends on it was not started.
        assertThat(object("fake_thing.a").status()).isEqualTo(ObjectStatus.TAINTED);
        assertThat(object("fake_thing.b")).isNull();
        assertThat(dir.resolve("never.txt")).doesNotExist();
        assertThat(EngineHarness.actions(h.planned(tree)))
                .contains("fake_thing.a delete_then_create (replace_because_tainted)");
    }

    @Test
    void theNewObjectIsJournaledTaintedWhileItsProvisionersRun() throws Exception {
        // The command looks at the state journal as a crash would leave it: the object is there, tainted.
        ConfigTree tree = h.config("""
                resource "fake_thing" "a" {
                  provisioner "local-exec" {
                    command = "cat terraform.tfstate.journal | grep -c tainted > seen.txt; true"
                  }
                }
                """);
        Result<ApplyResult> r = apply(tree);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(Files.readString(dir.resolve("seen.txt")).strip()).isEqualTo("1");
        assertThat(object("fake_thing.a").status()).isEqualTo(ObjectStatus.READY);
        assertThat(EngineHarness.actions(h.planned(tree))).isEmpty();
    }

    @Test
    void onFailureContinueKeepsTheObjectReadyAndRunsTheRest() throws Exception {
        ConfigTree tree = h.config("""
                resource "fake_thing" "a" {
                  provisioner "local-exec" {
                    command    = "exit 1"
                    on_failure = continue
                  }
                  provisioner "local-exec" {
                    command = "touch after.txt"
                  }
                }
                """);
        Result<ApplyResult> r = apply(tree);
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(object("fake_thing.a").status()).isEqualTo(ObjectStatus.READY);
        assertThat(EngineHarness.actions(h.planned(tree))).isEmpty();
        assertThat(dir.resolve("after.txt")).exists();
    }

    @Test
    void destroyTimeProvisionersRunBeforeDestroyAndAFailureKeepsTheObject() throws Exception {
        String tf = """
                resource "fake_thing" "a" {
                  for_each = toset(["k"])
                  value    = "v"
                  provisioner "local-exec" {
                    when    = destroy
                    command = "echo bye ${self.value} ${each.key} >> bye.txt; exit $(cat code)"
                  }
                }
                """;
        ConfigTree tree = h.config(tf);
        Files.writeString(dir.resolve("code"), "3");
        assertThat(apply(tree).diagnostics().hasErrors()).isFalse();
        assertThat(dir.resolve("bye.txt")).doesNotExist();
        events.clear();
        Result<ApplyResult> failed = destroy(tree);
        assertThat(failed.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("local-exec provisioner error");
        assertThat(h.stateAddresses()).containsExactly("fake_thing.a[\"k\"]");
        Files.writeString(dir.resolve("code"), "0");
        events.clear();
        Result<ApplyResult> ok = destroy(tree);
        assertThat(ok.diagnostics().hasErrors()).as(ok.diagnostics().toString()).isFalse();
        assertThat(h.stateAddresses()).isEmpty();
        assertThat(Files.readString(dir.resolve("bye.txt"))).isEqualTo("bye v k\nbye v k\n");
        assertThat(events.getFirst()).isEqualTo("fake_thing.a[\"k\"]: start DELETE");
        assertThat(events.get(1)).isEqualTo("fake_thing.a[\"k\"]: Provisioning with 'local-exec'...");
        assertThat(events.getLast()).isEqualTo("fake_thing.a[\"k\"]: complete DELETE");
    }

    @Test
    void aRemovedBlocksProvisionersRunBeforeEachObjectGoes() throws Exception {
        assertThat(apply(h.config("""
                                resource "fake_thing" "a" {
                                  count = 2
                                  value = "v${count.index}"
                                }
                                """)).diagnostics().hasErrors()).isFalse();
        events.clear();
        Result<ApplyResult> r = apply(h.config("""
                removed {
                  from = fake_thing.a
                  provisioner "local-exec" {
                    when    = destroy
                    command = "echo bye ${self.value} ${count.index} >> bye-${count.index}.txt"
                  }
                }
                """));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(h.stateAddresses()).isEmpty();
        assertThat(Files.readString(dir.resolve("bye-0.txt"))).isEqualTo("bye v0 0\n");
        assertThat(Files.readString(dir.resolve("bye-1.txt"))).isEqualTo("bye v1 1\n");
        assertThat(events)
                .containsSubsequence(
                        "fake_thing.a[1]: start DELETE",
                        "fake_thing.a[1]: Provisioning with 'local-exec'...",
                        "fake_thing.a[1]: complete DELETE");
    }

    @Test
    void sensitiveArgumentsSuppressEveryLine() throws Exception {
        ConfigTree tree = h.config("""
                variable "pw" {
                  default   = "hunter2"
                  sensitive = true
                }
                resource "fake_thing" "a" {
                  provisioner "local-exec" {
                    command = "echo one; echo $PW"
                    environment = { PW = var.pw }
                  }
                }
                """);
        Result<ApplyResult> r = apply(tree);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(events)
                .filteredOn(e -> e.contains("(local-exec)"))
                .containsExactly(
                        "fake_thing.a (local-exec): (output suppressed due to sensitive value in config)",
                        "fake_thing.a (local-exec): (output suppressed due to sensitive value in config)",
                        "fake_thing.a (local-exec): (output suppressed due to sensitive value in config)");
        assertThat(String.join("\n", events)).doesNotContain("hunter2");
    }

    @Test
    void stoppingTheRunEndsARunningCommand() throws Exception {
        ConfigTree tree = h.config("""
                resource "fake_thing" "a" {
                  provisioner "local-exec" {
                    command = "echo started; sleep 60"
                  }
                }
                """);
        Thread stopper = Thread.ofVirtual().start(() -> {
            try {
                while (!events.contains("fake_thing.a (local-exec): started")) {
                    Thread.sleep(20);
                }
                h.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long t0 = System.nanoTime();
        Result<ApplyResult> r = apply(tree);
        stopper.join();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::detail)
                .containsExactly(
                        "Error running command 'echo started; sleep 60': stopped because the run was " + "interrupted");
        assertThat(object("fake_thing.a").status()).isEqualTo(ObjectStatus.TAINTED);
    }
}
