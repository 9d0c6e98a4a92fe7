package dev.strata.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end through the real CLI with the built-in providers: the planning and applying behaviours of P6/P7. */
class PlanApplyTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private void write(String name, String text) throws IOException {
        Files.writeString(dir.resolve(name), text);
    }

    private CliRunner.Result run(String... args) {
        return CliRunner.in(dir).run(args);
    }

    private CliRunner.Result ok(String... args) {
        CliRunner.Result r = run(args);
        assertEquals(0, r.exitCode(), r::toString);
        return r;
    }

    private JsonNode state() throws IOException {
        return JSON.readTree(dir.resolve("terraform.tfstate").toFile());
    }

    private static String id(JsonNode state, String type, String name, int index) {
        for (JsonNode r : state.get("resources")) {
            if (r.get("type").asText().equals(type) && r.get("name").asText().equals(name)) {
                return r.get("instances").get(index).get("attributes").get("id").asText();
            }
        }
        throw new AssertionError("no " + type + "." + name + " in state");
    }

    @Test
    void createNoOpUpdateReplaceBothOrdersAndDestroy() throws IOException {
        write("main.tf", """
                resource "terraform_data" "a" {
                  input = "one"
                }
                resource "terraform_data" "b" {
                  input = terraform_data.a.output
                }
                output "a" { value = terraform_data.a.output }
                """);
        CliRunner.Result plan = run("plan", "-detailed-exitcode");
        assertEquals(2, plan.exitCode(), plan::toString);
        assertTrue(
                plan.stdout()
                        .contains("  # terraform_data.a will be created\n  + resource \"terraform_data\" \"a\" {\n"
                                + "      + id     = (known after apply)\n      + input  = \"one\"\n      + output = (known after apply)\n"
                                + "    }\n"),
                plan.stdout());
        assertTrue(plan.stdout().contains("Plan: 2 to add, 0 to change, 0 to destroy."), plan.stdout());
        CliRunner.Result apply = ok("apply", "-auto-approve");
        assertTrue(apply.stdout().contains("terraform_data.a: Creation complete after 0s [id="), apply.stdout());
        assertTrue(apply.stdout().contains("Apply complete! Resources: 2 added, 0 changed, 0 destroyed."));
        assertTrue(apply.stdout().contains("a = \"one\""), apply.stdout());
        String a1 = id(state(), "terraform_data", "a", 0);

        CliRunner.Result again = run("plan", "-detailed-exitcode");
        assertEquals(0, again.exitCode(), again::toString);
        assertTrue(again.stdout().contains("No changes. Your infrastructure matches the configuration."));

        // Update in place: the input changes, the output follows, b is updated with the new value in the same apply.
        write("main.tf", Files.readString(dir.resolve("main.tf")).replace("\"one\"", "\"two\""));
        CliRunner.Result upd = ok("apply", "-auto-approve");
        assertTrue(
                upd.stdout()
                        .contains(
                                "  # terraform_data.a will be updated in-place\n  ~ resource \"terraform_data\" \"a\" {\n"
                                        + "        id     = \"" + a1 + "\"\n      ~ input  = \"one\" -> \"two\"\n"
                                        + "      ~ output = \"one\" -> (known after apply)\n    }\n"),
                upd.stdout());
        assertTrue(upd.stdout().contains("Apply complete! Resources: 0 added, 2 changed, 0 destroyed."), upd.stdout());
        assertEquals(a1, id(state(), "terraform_data", "a", 0));
        assertEquals("two", state().at("/outputs/a/value").asText());

        // Replace (delete then create) through triggers_replace; the new id reaches b in the same apply.
        write(
                "main.tf",
                Files.readString(dir.resolve("main.tf"))
                        .replace("input = \"two\"", "input = \"two\"\n  triggers_replace = \"r1\""));
        CliRunner.Result rep = ok("apply", "-auto-approve");
        assertTrue(
                rep.stdout().contains("  # terraform_data.a must be replaced\n-/+ resource \"terraform_data\" \"a\" {"),
                rep.stdout());
        // Dynamically typed, so without "# forces replacement", as Terraform renders it.
        assertTrue(rep.stdout().contains("      + triggers_replace = \"r1\"\n"), rep.stdout());
        String a2 = id(state(), "terraform_data", "a", 0);
        assertFalse(a1.equals(a2));
        int destroyAt = rep.stdout().indexOf("terraform_data.a: Destroying...");
        int createAt = rep.stdout().indexOf("terraform_data.a: Creating...");
        assertTrue(destroyAt >= 0 && createAt > destroyAt, rep.stdout());

        // create_before_destroy swaps the order.
        write(
                "main.tf",
                Files.readString(dir.resolve("main.tf"))
                        .replace("\"r1\"", "\"r2\"\n  lifecycle {\n" + "    create_before_destroy = true\n  }"));
        CliRunner.Result cbd = ok("apply", "-auto-approve");
        assertTrue(cbd.stdout().contains("+/- resource \"terraform_data\" \"a\" {"), cbd.stdout());
        int created = cbd.stdout().indexOf("terraform_data.a: Creating...");
        int deposedDestroyed = cbd.stdout().indexOf("terraform_data.a (deposed object ");
        assertTrue(created >= 0 && deposedDestroyed > created, cbd.stdout());
        assertEquals(1, state().at("/resources/0/instances").size(), "the deposed object is gone");

        CliRunner.Result destroy = ok("destroy", "-auto-approve");
        assertTrue(destroy.stdout().contains("Destroy complete! Resources: 2 destroyed."), destroy.stdout());
        // b depended on a: destroyed first.
        assertTrue(
                destroy.stdout().indexOf("terraform_data.b: Destroying...")
                        < destroy.stdout().indexOf("terraform_data.a: Destroying..."),
                destroy.stdout());
        assertEquals(0, state().get("resources").size());
        assertFalse(state().get("outputs").has("a"));
    }

    @Test
    void dataSourcesReadWhilePlanningAreReportedAsTheyAreRead() throws IOException {
        write("greeting.txt", "hello");
        write("main.tf", """
                data "local_file" "greeting" {
                  filename = "${path.module}/greeting.txt"
                }
                resource "terraform_data" "a" {
                  input = data.local_file.greeting.content
                }
                """);
        CliRunner.Result plan = ok("plan");
        String out = plan.stdout();
        // As Terraform: the read's progress comes first, then the plan.
        assertTrue(out.contains("data.local_file.greeting: Reading...\n"), out);
        int complete = out.indexOf("data.local_file.greeting: Read complete after 0s [id=");
        assertTrue(complete >= 0, out);
        assertTrue(complete < out.indexOf("Strata will perform the following actions"), out);
    }

    @Test
    void anApplyWithNothingToDoStillFoldsALeftoverJournalIntoTheStateFile() throws IOException {
        write("main.tf", "resource \"terraform_data\" \"a\" {\n  input = 1\n}\n");
        ok("apply", "-auto-approve");
        // As a run killed between its last create and its final write leaves it: the object is only
        // in the journal, not in terraform.tfstate.
        try (dev.strata.state.StateManager m = dev.strata.state.LocalBackend.in(dir, "test")
                .open("default", dev.strata.state.LockRequest.of("test", java.time.Duration.ZERO))
                .value()) {
            dev.strata.state.ResourceState a = m.state().resources().getFirst();
            assertTrue(m.persist(m.state().withResources(List.of()))
                    .diagnostics()
                    .asList()
                    .isEmpty());
            m.append(new dev.strata.state.JournalEntry.SetObject(
                    a.addr(), a.provider(), a.instances().getFirst()));
        }
        assertFalse(Files.readString(dir.resolve("terraform.tfstate")).contains("terraform_data"));
        CliRunner.Result r = ok("apply", "-auto-approve");
        assertTrue(r.stdout().contains("No changes."), r.stdout());
        assertTrue(
                Files.readString(dir.resolve("terraform.tfstate")).contains("\"terraform_data\""),
                "the state file is complete again");
    }

    @Test
    void deferredCountIsCreatedInOneApplyAndTheNextPlanIsEmpty() throws IOException {
        write("main.tf", """
                resource "terraform_data" "src" {
                  input = ["x", "y", "z"]
                }
                resource "terraform_data" "each" {
                  count = length(terraform_data.src.output)
                  input = terraform_data.src.output[count.index]
                }
                output "n" { value = length(terraform_data.each) }
                """);
        CliRunner.Result plan = ok("plan");
        assertTrue(
                plan.stdout()
                        .contains("  # terraform_data.each will be created during apply\n"
                                + "  # (count depends on values known after apply: terraform_data.src.output; instances will be "
                                + "created during apply)"),
                plan.stdout());
        assertTrue(
                plan.stdout().contains("Plan: 1 to add, 0 to change, 0 to destroy, 1 deferred to apply."),
                plan.stdout());
        CliRunner.Result apply = ok("apply", "-auto-approve");
        assertTrue(apply.stdout().contains("terraform_data.each[2]: Creation complete"), apply.stdout());
        assertTrue(apply.stdout().contains("n = 3"), apply.stdout());
        CliRunner.Result after = run("plan", "-detailed-exitcode");
        assertEquals(0, after.exitCode(), after::toString);
    }

    @Test
    void savedPlanAppliesExactlyAndIsRefusedWhenStaleOrDamaged() throws IOException {
        write("main.tf", "resource \"terraform_data\" \"a\" {\n  input = 1\n}\n");
        CliRunner.Result plan = ok("plan", "-out=p.plan");
        assertTrue(plan.stdout().contains("Saved the plan to: p.plan"), plan.stdout());
        CliRunner.Result show = ok("show", "-json", "p.plan");
        JsonNode j = JSON.readTree(show.stdout());
        assertEquals("1.2", j.get("format_version").asText());
        assertEquals("create", j.at("/resource_changes/0/change/actions/0").asText());
        assertTrue(j.at("/resource_changes/0/change/after_unknown/id").asBoolean());
        ok("apply", "p.plan");
        assertEquals(1, state().get("resources").size());

        write("main.tf", "resource \"terraform_data\" \"a\" {\n  input = 2\n}\n");
        ok("plan", "-out=stale.plan");
        ok("apply", "-auto-approve");
        CliRunner.Result stale = run("apply", "stale.plan");
        assertEquals(1, stale.exitCode());
        assertTrue(stale.stderr().contains("Saved plan is stale"), stale.toString());

        Files.writeString(dir.resolve("bad.plan"), "{\"magic\": \"strata-plan\", \"plan\": ");
        CliRunner.Result bad = run("apply", "bad.plan");
        assertEquals(1, bad.exitCode());
        assertTrue(bad.stderr().contains("Failed to load \"bad.plan\" as a plan file"), bad.toString());

        write("main.tf", "resource \"terraform_data\" \"a\" {\n  input = 3\n}\n");
        ok("plan", "-out=p2.plan");
        write("main.tf", "resource \"terraform_data\" \"a\" {\n  input = 4\n}\n");
        CliRunner.Result changed = run("apply", "p2.plan");
        assertTrue(changed.stderr().contains("Saved plan does not match the configuration"), changed.toString());
    }

    @Test
    void sensitiveValuesNeverAppearInAnyOutput() throws IOException {
        write("main.tf", """
                variable "pw" {
                  type      = string
                  sensitive = true
                  default   = "hunter2-secret"
                }
                resource "terraform_data" "a" {
                  input = var.pw
                }
                output "pw" {
                  value     = terraform_data.a.output
                  sensitive = true
                }
                """);
        CliRunner.Result plan = ok("plan", "-out=p.plan");
        CliRunner.Result apply = ok("apply", "-auto-approve");
        CliRunner.Result show = ok("show");
        CliRunner.Result showJson = ok("show", "-json");
        CliRunner.Result planJson = ok("show", "-json", "p.plan");
        CliRunner.Result outputs = ok("output");
        CliRunner.Result outputsJson = ok("output", "-json");
        for (CliRunner.Result r :
                new CliRunner.Result[] {plan, apply, show, showJson, planJson, outputs, outputsJson}) {
            assertFalse(r.stdout().contains("hunter2") || r.stderr().contains("hunter2"), r::toString);
        }
        assertTrue(plan.stdout().contains("+ input  = (sensitive value)"), plan.stdout());
        assertTrue(outputs.stdout().contains("pw = <sensitive>"));
        // Asked for by name, the value is given, as Terraform does.
        assertEquals("hunter2-secret", ok("output", "-raw", "pw").stdout());
        assertTrue(Files.readString(dir.resolve("terraform.tfstate")).contains("\"sensitive_attributes\""));
    }

    @Test
    void preventDestroyIsAnError() throws IOException {
        write(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  input = 1\n  lifecycle {\n    prevent_destroy = true\n"
                        + "  }\n}\n");
        ok("apply", "-auto-approve");
        CliRunner.Result r = run("destroy", "-auto-approve");
        assertEquals(1, r.exitCode());
        assertTrue(r.stderr().contains("Instance cannot be destroyed"), r.toString());
        assertEquals(1, state().get("resources").size());
    }

    /** b depends on a; c on nothing. */
    private static final String TARGETS = """
            resource "terraform_data" "a" { input = 1 }
            resource "terraform_data" "b" { input = terraform_data.a.output }
            resource "terraform_data" "c" { input = 3 }
            """;

    @Test
    void targetPlansOnlyTheTargetAndWhatItNeeds() throws IOException {
        write("main.tf", TARGETS);
        CliRunner.Result r = ok("plan", "-target=terraform_data.b");
        assertTrue(r.stdout().contains("Plan: 2 to add, 0 to change, 0 to destroy."), r.stdout());
        assertFalse(r.stdout().contains("terraform_data.c"), r.stdout());
        assertTrue(r.stdout().contains("Resource targeting is in effect"), r.toString());
    }

    @Test
    void aTargetedDestroyTakesWhatDependsOnTheTarget() throws IOException {
        write("main.tf", TARGETS);
        ok("apply", "-auto-approve");
        CliRunner.Result r = ok("destroy", "-auto-approve", "-target=terraform_data.a");
        assertTrue(r.stdout().contains("Plan: 0 to add, 0 to change, 2 to destroy."), r.stdout());
        assertTrue(r.stdout().contains("# terraform_data.b will be destroyed"), r.stdout());
        assertEquals(1, state().get("resources").size());
        assertEquals("c", state().get("resources").get(0).get("name").asText());
    }

    @Test
    void aSecondDestroyHasNothingToDoEvenWhereModuleOutputsReferToDestroyedResources() throws IOException {
        Files.createDirectories(dir.resolve("child"));
        write("child/main.tf", """
                resource "terraform_data" "one" { input = "x" }
                resource "terraform_data" "many" {
                  count = 2
                  input = "x"
                }
                output "one" { value = terraform_data.one.output }
                output "many" { value = terraform_data.many[*].output }
                """);
        write("main.tf", """
                module "child" { source = "./child" }
                resource "terraform_data" "uses" { input = module.child.one }
                """);
        ok("init");
        ok("apply", "-auto-approve");
        ok("destroy", "-auto-approve");
        // A single resource absent from state is not an empty tuple: "terraform_data.one.output" must not fail.
        CliRunner.Result again = ok("destroy", "-auto-approve");
        assertTrue(again.stdout().contains("No changes. No objects need to be destroyed."), again.stdout());
        assertTrue(again.stdout().contains("Destroy complete! Resources: 0 destroyed."), again.stdout());
        ok("plan", "-destroy");
    }

    @Test
    void replaceFlagAndReplaceTriggeredByAndIgnoreChanges() throws IOException {
        write("main.tf", """
                resource "terraform_data" "a" { input = "v1" }
                resource "terraform_data" "b" {
                  input = "fixed"
                  lifecycle {
                    replace_triggered_by = [terraform_data.a]
                  }
                }
                resource "terraform_data" "c" {
                  input = "first"
                  lifecycle {
                    ignore_changes = [input]
                  }
                }
                """);
        ok("apply", "-auto-approve");
        CliRunner.Result forced = ok("plan", "-replace=terraform_data.c");
        assertTrue(forced.stdout().contains("# terraform_data.c will be replaced, as requested"), forced.stdout());
        write(
                "main.tf",
                Files.readString(dir.resolve("main.tf"))
                        .replace("\"v1\"", "\"v2\"")
                        .replace("\"first\"", "\"second\""));
        CliRunner.Result p = ok("plan");
        assertTrue(p.stdout().contains("# terraform_data.a will be updated in-place"), p.stdout());
        assertTrue(
                p.stdout().contains("# terraform_data.b will be replaced due to changes in replace_triggered_by"),
                p.stdout());
        assertFalse(p.stdout().contains("# terraform_data.c"), p.stdout());
    }

    @Test
    void dataSourcesAreReadAtPlanTimeOrDeferredWhenTheirConfigIsUnknown() throws IOException {
        Files.writeString(dir.resolve("hello.txt"), "hello\n", StandardCharsets.UTF_8);
        write("main.tf", """
                data "local_file" "known" {
                  filename = "${path.cwd}/hello.txt"
                }
                resource "terraform_data" "name" {
                  input = "hello.txt"
                }
                data "local_file" "later" {
                  filename = "${path.cwd}/${terraform_data.name.output}"
                }
                output "known" { value = data.local_file.known.content }
                output "later" { value = data.local_file.later.content }
                """);
        CliRunner.Result p = ok("plan");
        assertTrue(p.stdout().contains(" <= data \"local_file\" \"later\" {"), p.stdout());
        assertFalse(p.stdout().contains("data.local_file.known will be read"), p.stdout());
        assertTrue(
                p.stdout().contains("+ known = <<-EOT") || p.stdout().contains("+ known = \"hello\\n\""), p.stdout());
        CliRunner.Result a = ok("apply", "-auto-approve");
        assertTrue(
                a.stdout().contains("later = <<EOT\nhello\n\nEOT") || a.stdout().contains("later = <<EOT\nhello\nEOT"),
                a.stdout());
    }

    @Test
    void aFailedInstanceStopsItsDependentsOnlyAndTheSummaryIsExact() throws IOException {
        write("main.tf", """
                resource "local_file" "bad" {
                  filename = "/proc/strata-cannot-write-here/x.txt"
                  content  = "x"
                }
                resource "terraform_data" "after_bad" {
                  input = local_file.bad.id
                }
                resource "terraform_data" "independent" {
                  input = "fine"
                }
                """);
        CliRunner.Result r = run("apply", "-auto-approve");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("terraform_data.independent: Creation complete"), r.stdout());
        assertTrue(
                r.stdout()
                        .contains("Apply failed. Resources: 1 added, 0 changed, 0 destroyed; 1 failed, 1 not started "
                                + "because something they depend on failed."),
                r.stdout());
        assertTrue(r.stdout().contains("Failed: local_file.bad"), r.stdout());
        assertTrue(r.stdout().contains("Not started: terraform_data.after_bad"), r.stdout());
        assertEquals(1, state().get("resources").size());
    }

    @Test
    void refreshOnlyShowsDriftMadeOutsideStrata() throws IOException {
        write("main.tf", """
                resource "local_file" "f" {
                  filename = "${path.cwd}/out.txt"
                  content  = "strata"
                }
                """);
        ok("apply", "-auto-approve");
        Files.delete(dir.resolve("out.txt"));
        CliRunner.Result p = ok("plan", "-refresh-only");
        assertTrue(p.stdout().contains("Note: Objects have changed outside of Strata"), p.stdout());
        assertTrue(p.stdout().contains("# local_file.f has been deleted"), p.stdout());
        CliRunner.Result normal = ok("plan");
        assertTrue(normal.stdout().contains("# local_file.f will be created"), normal.stdout());
    }

    @Test
    void anApplyWithNothingToChangeStillForgetsADroppedInstanceDeletedOutside() throws IOException {
        write("main.tf", """
                resource "local_file" "f" {
                  count    = 2
                  filename = "${path.cwd}/out-${count.index}.txt"
                  content  = "strata"
                }
                """);
        ok("apply", "-auto-approve");
        // What a run killed between deleting f[1] and recording it leaves: the object gone, still in state.
        Files.delete(dir.resolve("out-1.txt"));
        write("main.tf", """
                resource "local_file" "f" {
                  count    = 1
                  filename = "${path.cwd}/out-${count.index}.txt"
                  content  = "strata"
                }
                """);
        CliRunner.Result r = ok("apply", "-auto-approve");
        assertTrue(r.stdout().contains("Apply complete! Resources: 0 added, 0 changed, 0 destroyed."), r.stdout());
        JsonNode state = state();
        JsonNode instances = state.get("resources").get(0).get("instances");
        assertEquals(1, instances.size(), state::toString);
        assertEquals(0, instances.get(0).get("index_key").asInt());
        assertEquals(0, run("plan", "-detailed-exitcode").exitCode());
    }

    @Test
    void applyRefreshOnlyAsksBeforeRecordingWhatChangedOutside() throws IOException {
        write("main.tf", """
                resource "local_file" "f" {
                  filename = "${path.cwd}/out.txt"
                  content  = "strata"
                }
                """);
        ok("apply", "-auto-approve");
        Files.delete(dir.resolve("out.txt"));
        byte[] before = Files.readAllBytes(dir.resolve("terraform.tfstate"));

        CliRunner.Result no = CliRunner.in(dir).stdin("no\n").run("apply", "-refresh-only", "-no-color");
        assertEquals(1, no.exitCode(), no::toString);
        assertTrue(no.stdout().contains("# local_file.f has been deleted"), no.stdout());
        assertTrue(
                no.stdout()
                        .contains("Would you like to update the Strata state to reflect these detected changes?\n"
                                + "  Strata will write these changes to the state without modifying any real "
                                + "infrastructure.\n  There is no undo. Only 'yes' will be accepted to confirm."),
                no.stdout());
        assertTrue(no.stderr().contains("Apply cancelled"), no.stderr());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(dir.resolve("terraform.tfstate"))));

        CliRunner.Result yes = CliRunner.in(dir).stdin("yes\n").run("apply", "-refresh-only", "-no-color");
        assertEquals(0, yes.exitCode(), yes::toString);
        assertTrue(yes.stdout().contains("Apply complete! Resources: 0 added, 0 changed, 0 destroyed."), yes.stdout());
        JsonNode recorded = state();
        assertEquals(0, recorded.get("resources").size(), recorded::toString);
        // Only a normal apply makes the file again: the refresh-only one changed nothing outside.
        assertFalse(Files.exists(dir.resolve("out.txt")));

        CliRunner.Result both = run("apply", "-refresh-only", "-destroy");
        assertEquals(1, both.exitCode());
        assertTrue(both.stderr().contains("The -destroy and -refresh-only options are mutually-exclusive."));
    }

    @Test
    void detailedExitCodeAndNoChangesWithoutConfigurationState() throws IOException {
        write("main.tf", "output \"x\" { value = 1 }\n");
        CliRunner.Result p = run("plan", "-detailed-exitcode");
        assertEquals(2, p.exitCode(), p::toString);
        assertTrue(p.stdout().contains("Changes to Outputs:\n  + x = 1"), p.stdout());
        ok("apply", "-auto-approve");
        assertEquals(0, run("plan", "-detailed-exitcode").exitCode());
        assertEquals("1", ok("output", "-raw", "x").stdout());
    }

    @Test
    void aMoveOntoAnObjectStillInStateIsAWarning() throws IOException {
        write(
                "main.tf",
                "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n"
                        + "resource \"terraform_data\" \"b\" {\n  input = \"x\"\n}\n");
        ok("apply", "-auto-approve");
        write("main.tf", """
                resource "terraform_data" "b" {
                  input = "x"
                }
                moved {
                  from = terraform_data.a
                  to   = terraform_data.b
                }
                """);
        CliRunner.Result p = ok("plan", "-no-color");
        assertTrue(
                p.stdout()
                        .contains("  # terraform_data.a will be destroyed\n"
                                + "  # (because terraform_data.a is not in configuration)\n"),
                p.stdout());
        assertTrue(p.stdout().contains("""
                Warning: Unresolved resource instance address changes

                Strata tried to adjust resource instance addresses in the prior state based
                on change information recorded in the configuration, but some adjustments did
                not succeed due to existing objects already at the intended addresses:
                  - terraform_data.a could not move to terraform_data.b

                Strata has planned to destroy these objects."""), p.stdout());
    }

    @Test
    void movedImportAndRemovedBlocks() throws IOException {
        write(
                "main.tf",
                "resource \"terraform_data\" \"old\" {\n  input = \"keep\"\n}\n"
                        + "resource \"terraform_data\" \"gone\" {\n  input = \"g\"\n}\n");
        ok("apply", "-auto-approve");
        String oldId = id(state(), "terraform_data", "old", 0);
        write("main.tf", """
                resource "terraform_data" "new" {
                  input = "keep"
                }
                moved {
                  from = terraform_data.old
                  to   = terraform_data.new
                }
                removed {
                  from = terraform_data.gone
                  lifecycle {
                    destroy = false
                  }
                }
                """);
        CliRunner.Result p = ok("plan");
        assertTrue(p.stdout().contains("# terraform_data.old has moved to terraform_data.new"), p.stdout());
        assertTrue(
                p.stdout()
                        .contains(
                                " # terraform_data.gone will no longer be managed by Strata, but will not be destroyed\n"
                                        + " # (destroy = false is set in the configuration)\n"),
                p.stdout());
        CliRunner.Result a = ok("apply", "-auto-approve");
        assertEquals(oldId, id(state(), "terraform_data", "new", 0), a.stdout());
        assertEquals(1, state().get("resources").size(), "gone was forgotten, not destroyed");

        // terraform_data imports by id: import block, then strata import refusing a managed address.
        write("main.tf", Files.readString(dir.resolve("main.tf")) + """
                resource "terraform_data" "imp" {
                }
                import {
                  to = terraform_data.imp
                  id = "abc-123"
                }
                """);
        CliRunner.Result ip = ok("plan");
        assertTrue(ip.stdout().contains("# terraform_data.imp will be imported"), ip.stdout());
        assertTrue(ip.stdout().contains("Plan: 1 to import, 0 to add, 0 to change, 0 to destroy."), ip.stdout());
        ok("apply", "-auto-approve");
        assertEquals("abc-123", id(state(), "terraform_data", "imp", 0));
        CliRunner.Result again = run("import", "terraform_data.imp", "other");
        assertEquals(1, again.exitCode());
        assertTrue(again.stderr().contains("Resource already managed by Strata"), again.toString());
    }

    @Test
    void modulesWithForEachAndADeferredModule() throws IOException {
        Files.createDirectories(dir.resolve("mod"));
        Files.writeString(dir.resolve("mod/main.tf"), """
                variable "name" { type = string }
                resource "terraform_data" "r" {
                  input = "hello ${var.name}"
                }
                output "greeting" { value = terraform_data.r.output }
                """);
        write("main.tf", """
                module "m" {
                  source   = "./mod"
                  for_each = toset(["a", "b"])
                  name     = each.key
                }
                resource "terraform_data" "keys" {
                  input = ["p", "q"]
                }
                module "later" {
                  source   = "./mod"
                  for_each = toset(terraform_data.keys.output)
                  name     = each.value
                }
                output "greetings" { value = { for k, m in module.m : k => m.greeting } }
                """);
        CliRunner.Result p = ok("plan");
        assertTrue(p.stdout().contains("# module.m[\"a\"].terraform_data.r will be created"), p.stdout());
        assertTrue(p.stdout().contains("module.later.terraform_data.r will be created during apply"), p.stdout());
        CliRunner.Result a = ok("apply", "-auto-approve");
        assertTrue(a.stdout().contains("module.later[\"q\"].terraform_data.r: Creation complete"), a.stdout());
        assertTrue(a.stdout().contains("\"a\" = \"hello a\""), a.stdout());
        assertEquals(0, run("plan", "-detailed-exitcode").exitCode());
    }

    @Test
    void consoleEvaluatesAgainstTheRecordedState() throws IOException {
        write("main.tf", """
                variable "secret" {
                  default   = "x"
                  sensitive = true
                }
                resource "terraform_data" "a" { input = { name = "web", port = 80 } }
                resource "terraform_data" "s" { input = var.secret }
                """);
        ok("apply", "-auto-approve");
        CliRunner.Result r = CliRunner.in(dir)
                .stdin("terraform_data.a.output.name\nterraform_data.a.output.port + 1\n" + "terraform_data.s.output\n")
                .run("console");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("\"web\"\n81\n(sensitive value)\n", r.stdout());
    }

    @Test
    void preconditionsAndPostconditionsAndChecks() throws IOException {
        write("main.tf", """
                variable "size" { default = 3 }
                resource "terraform_data" "a" {
                  input = var.size
                  lifecycle {
                    precondition {
                      condition     = var.size < 10
                      error_message = "Size must be below 10."
                    }
                    postcondition {
                      condition     = self.output == var.size
                      error_message = "The output must echo the size."
                    }
                  }
                }
                check "small" {
                  assert {
                    condition     = var.size < 2
                    error_message = "Size is not small."
                  }
                }
                """);
        CliRunner.Result p = ok("plan");
        assertTrue(
                p.stdout().contains("Warning: Check block assertion failed")
                        || p.stderr().contains("Check block assertion failed"),
                p.toString());
        assertTrue((p.stdout() + p.stderr()).contains("Size is not small."), p.toString());
        CliRunner.Result bad = run("plan", "-var", "size=12");
        assertEquals(1, bad.exitCode(), bad::toString);
        assertTrue(bad.stderr().contains("Resource precondition failed"), bad.toString());
        assertTrue(bad.stderr().contains("Size must be below 10."), bad.toString());
        ok("apply", "-auto-approve");
    }

    @Test
    void deferredForEachAndItsDependentsAreCreatedInOneApply() throws IOException {
        write("main.tf", """
                resource "terraform_data" "names" {
                  input = ["red", "green"]
                }
                resource "terraform_data" "color" {
                  for_each = toset(terraform_data.names.output)
                  input    = "paint-${each.key}"
                }
                resource "terraform_data" "label" {
                  for_each = terraform_data.color
                  input    = "label for ${each.value.output}"
                }
                output "labels" { value = [for l in terraform_data.label : l.output] }
                """);
        CliRunner.Result p = ok("plan");
        assertTrue(p.stdout().contains("# terraform_data.color will be created during apply"), p.stdout());
        assertTrue(p.stdout().contains("# terraform_data.label will be created during apply"), p.stdout());
        CliRunner.Result a = ok("apply", "-auto-approve");
        assertTrue(a.stdout().contains("terraform_data.label[\"green\"]: Creation complete"), a.stdout());
        assertTrue(a.stdout().contains("\"label for paint-red\""), a.stdout());
        assertEquals(0, run("plan", "-detailed-exitcode").exitCode());
    }

    @Test
    void onATerminalALiveStatusShowsDoneTotalAndRunningOperations() throws IOException {
        write("main.tf", """
                resource "time_sleep" "s" {
                  count           = 2
                  create_duration = "1500ms"
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).terminal(true).run("apply", "-auto-approve", "-parallelism=1");
        assertEquals(0, r.exitCode(), r::toString);
        String plain = r.stdout().replaceAll("\u001b\\[[0-9;]*[A-Za-z]", "");
        assertTrue(
                plain.contains("[0/2 done] running: time_sleep.s[")
                        || plain.contains("[1/2 done] running: time_sleep.s["),
                plain);
        assertTrue(plain.contains("Apply complete! Resources: 2 added"), plain);
    }

    @Test
    void graphIsDotAndACycleIsAChainWithLocations() throws IOException {
        write("main.tf", """
                resource "terraform_data" "a" { input = terraform_data.b.output }
                resource "terraform_data" "b" { input = "x" }
                """);
        CliRunner.Result g = ok("graph");
        assertTrue(g.stdout().startsWith("digraph"), g.stdout());
        assertTrue(g.stdout().contains("\"terraform_data.a\" -> \"terraform_data.b\""), g.stdout());
        write("main.tf", """
                resource "terraform_data" "a" { input = terraform_data.b.output }
                resource "terraform_data" "b" { input = terraform_data.a.output }
                """);
        CliRunner.Result p = run("plan");
        assertEquals(1, p.exitCode(), p::toString);
        assertTrue(p.stderr().contains("Cycle"), p.toString());
        assertTrue(p.stderr().contains("terraform_data.a") && p.stderr().contains("terraform_data.b"), p.toString());
        assertTrue(p.stderr().contains("main.tf"), p.toString());
        assertEquals(1, run("graph").exitCode());
        // As terraform graph -draw-cycles: drawn (exit 0, no error), the cycle's edges in red.
        CliRunner.Result drawn = ok("graph", "-draw-cycles");
        assertTrue(
                drawn.stdout()
                        .contains("\"terraform_data.a\" -> \"terraform_data.b\" [color = \"red\", "
                                + "penwidth = \"2.0\"]\n"),
                drawn.stdout());
        assertTrue(
                drawn.stdout()
                        .contains("\"terraform_data.b\" -> \"terraform_data.a\" [color = \"red\", "
                                + "penwidth = \"2.0\"]\n"),
                drawn.stdout());
        assertEquals("", drawn.stderr());
    }

    @Test
    void planJsonStreamsTerraformsUiMessages() throws IOException {
        write("main.tf", "resource \"terraform_data\" \"a\" { input = 1 }\noutput \"o\" { value = 2 }\n");
        CliRunner.Result r = ok("plan", "-json");
        String[] lines = r.stdout().strip().split("\n");
        JsonNode first = JSON.readTree(lines[0]);
        assertEquals("version", first.get("type").asText());
        boolean planned = false;
        boolean summary = false;
        for (String l : lines) {
            JsonNode n = JSON.readTree(l);
            assertTrue(n.has("@level") && n.has("@message") && n.has("@timestamp"), l);
            if (n.get("type").asText().equals("planned_change")) {
                planned = true;
                assertEquals("create", n.at("/change/action").asText());
                assertEquals("terraform_data.a", n.at("/change/resource/addr").asText());
            }
            if (n.get("type").asText().equals("change_summary")) {
                summary = true;
                assertEquals(1, n.at("/changes/add").asInt());
                assertEquals("plan", n.at("/changes/operation").asText());
            }
        }
        assertTrue(planned && summary, r.stdout());
        CliRunner.Result a = ok("apply", "-auto-approve", "-json");
        assertTrue(a.stdout().contains("\"type\":\"apply_complete\""), a.stdout());
        assertEquals(1, run("apply", "-json").exitCode(), "-json without -auto-approve or a plan file is refused");
    }

    @Test
    void plantimestampIsKnownInThePlanAndTheSavedPlanAppliesWithIt() throws Exception {
        write("main.tf", """
                resource "terraform_data" "a" {
                  input = plantimestamp()
                }
                output "t" { value = plantimestamp() }
                """);
        CliRunner.Result plan = ok("plan", "-out=p.tfplan");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "\\+ t = \"(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ)\"")
                .matcher(plan.stdout());
        assertTrue(m.find(), plan.stdout());
        String at = m.group(1);
        assertTrue(plan.stdout().contains("+ input  = \"" + at + "\""), plan.stdout());
        JsonNode json = JSON.readTree(ok("show", "-json", "p.tfplan").stdout());
        assertEquals(at, json.get("timestamp").asText());
        assertEquals(at, json.at("/output_changes/t/after").asText());

        // Applied later, the saved plan still uses its own time, not the time of the apply.
        Thread.sleep(1100);
        ok("apply", "p.tfplan");
        JsonNode state = state();
        assertEquals(at, state.at("/outputs/t/value").asText());
        assertEquals(
                at, state.at("/resources/0/instances/0/attributes/input/value").asText());

        // A plan made and applied in one run uses that plan's time too.
        write("main.tf", """
                resource "terraform_data" "a" {
                  input = "${plantimestamp()}!"
                }
                output "t" { value = plantimestamp() }
                """);
        ok("apply", "-auto-approve");
        JsonNode after = state();
        String again = after.at("/outputs/t/value").asText();
        assertTrue(again.compareTo(at) > 0, again + " after " + at);
        assertEquals(
                again + "!",
                after.at("/resources/0/instances/0/attributes/input/value").asText());
    }

    @Test
    void aProviderThatIsNeitherBuiltInNorInstalledSaysToRunInit() throws IOException {
        write("main.tf", "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"x\"\n}\n");
        CliRunner.Result r = run("plan");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("strata init"), r.toString());
    }
}
