package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AttributePath;
import dev.strata.config.ConfigTree;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.state.LocalBackend;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The planner and applier against a fake provider: retries, permanent failures, the final-plan check, the journal. */
class EngineTest {
    @TempDir
    Path dir;

    private final FakeProvider fake = new FakeProvider();

    private EngineHarness h;

    @BeforeEach
    void harness() {
        h = new EngineHarness(dir, fake);
    }

    /** The test directory's state, opened with the lock an apply takes, as the engine's caller holds it. */
    private StateManager lockedState() {
        return LocalBackend.in(dir, "test")
                .open("default", LockRequest.of("OperationTypeApply", Duration.ZERO))
                .value();
    }

    private ConfigTree config(String tf) {
        return h.config(tf);
    }

    private Result<ApplyResult> planAndApply(ConfigTree tree) {
        return h.planAndApply(tree);
    }

    private dev.strata.hcl.Diagnostics validate(ConfigTree tree) {
        return h.validate(tree);
    }

    @Test
    void aProviderWithoutABlockIsConfiguredWithWhatTheCallerSupplies() throws IOException {
        // Stacks configure providers themselves and pass them into each component's module.
        ConfigTree tree = config("""
                terraform {
                  required_providers {
                    fake = { source = "example.com/test/fake" }
                  }
                }
                resource "fake_thing" "a" {
                  value = "x"
                }
                """);
        dev.strata.addr.AbsProviderConfig fakeConfig =
                new dev.strata.addr.AbsProviderConfig(dev.strata.addr.Module.ROOT, FakeProvider.ADDRESS, null);
        Engine fine = Engine.builder(tree, h.registry(), "test")
                .providerConfigs(java.util.Map.of(fakeConfig, Value.EMPTY_OBJECT))
                .build();
        Engine wrong = Engine.builder(tree, h.registry(), "test")
                .providerConfigs(java.util.Map.of(fakeConfig, Value.objectOf("region", Value.string("eu"))))
                .build();
        dev.strata.state.StateSnapshot empty = dev.strata.state.StateSnapshot.empty("test");
        Result<Plan> ok = fine.plan(new java.util.TreeMap<>(), empty, h.options(), EngineEvents.NONE);
        assertThat(ok.diagnostics().hasErrors()).as(ok.diagnostics().toString()).isFalse();
        Result<Plan> bad = wrong.plan(new java.util.TreeMap<>(), empty, h.options(), EngineEvents.NONE);
        assertThat(bad.diagnostics().asList())
                .anySatisfy(d -> assertThat(d.detail()).contains("An argument named \"region\" is not expected here."));
    }

    @Test
    void validationPointsAProvidersAttributeErrorAtTheArgument() throws IOException {
        ConfigTree tree = config("""
                resource "fake_thing" "a" {
                  value = "x"
                  timeouts {
                    create = "5m"
                  }
                }
                """);
        fake.validateError = AttributePath.of("value");
        List<Diagnostic> d = validate(tree).asList();
        assertThat(d).singleElement().satisfies(x -> {
            assertThat(x.summary()).isEqualTo("Conflicting configuration");
            assertThat(x.subject().start().line()).isEqualTo(7);
            assertThat(x.subject().start().column()).isEqualTo(11);
        });
        fake.validateError = AttributePath.of("timeouts", "create");
        assertThat(validate(tree).asList())
                .singleElement()
                .satisfies(x -> assertThat(x.subject().start().line()).isEqualTo(9));
        // A path to nothing written falls back to the resource's block header.
        fake.validateError = AttributePath.of("id");
        assertThat(validate(tree).asList())
                .singleElement()
                .satisfies(x -> assertThat(x.subject().start().line()).isEqualTo(6));
    }

    @Test
    void validationSkipsWhatDependsOnAFailedObjectAndUsesUnknownsOfTheSchemaType() throws IOException {
        ConfigTree tree = config("""
                variable "n" { type = number }
                resource "fake_thing" "a" {
                  valeu = "x"
                }
                resource "fake_thing" "b" {
                  value = fake_thing.a.id
                  nope  = 1
                }
                resource "fake_thing" "c" {
                  value = fake_thing.d.serial
                }
                resource "fake_thing" "d" {
                  value = var.n
                  timeouts {
                    create = ["not", "a", "string"]
                  }
                }
                """);
        assertThat(validate(tree).asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Unsupported argument", "Incorrect attribute value type");
    }

    @Test
    void plantimestampIsThePlansTimeWhenPlanningAndWhenTheSavedPlanIsApplied() throws Exception {
        ConfigTree tree = config("""
                resource "fake_thing" "a" { value = plantimestamp() }
                output "t" { value = plantimestamp() }
                output "v" { value = fake_thing.a.value }
                """);
        java.time.Instant planned = java.time.Instant.parse("2024-05-06T07:08:09.750Z");
        String expected = "2024-05-06T07:08:09Z";
        Result<Plan> plan = h.clock(java.time.Clock.fixed(planned, java.time.ZoneOffset.UTC))
                .plan(tree);
        assertThat(plan.value()).as(plan.diagnostics().toString()).isNotNull();
        // Known while planning, to the second, as Terraform records it.
        assertThat(plan.value().timestamp()).isEqualTo(java.time.Instant.parse(expected));
        assertThat(plan.value().outputs().get("t").after()).isEqualTo(Value.string(expected));
        assertThat(plan.value().outputs().get("v").after()).isEqualTo(Value.string(expected));

        // The saved plan keeps its time, and applying it (at another time) uses that time, not the clock's.
        Plan saved = PlanCodec.decode(PlanCodec.encode(plan.value()));
        assertThat(saved.timestamp()).isEqualTo(plan.value().timestamp());
        Result<ApplyResult> r = h.apply(tree, saved);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().state().outputs().get("t").value())
                .isEqualTo(new dev.strata.state.JsonValue.StringValue(expected));
        assertThat(r.value().state().outputs().get("v").value())
                .isEqualTo(new dev.strata.state.JsonValue.StringValue(expected));
    }

    @Test
    void anErroredPlanStaysErroredWhenSavedAndAWholeOneDoesNot() throws Exception {
        ConfigTree tree = config("output \"t\" { value = 1 }\n");
        Plan whole = h.plan(tree).value();
        assertThat(whole.errored()).isFalse();
        assertThat(PlanCodec.decode(PlanCodec.encode(whole)).errored()).isFalse();

        Plan errored = new Plan(
                whole.mode(),
                whole.priorState(),
                whole.variables(),
                whole.changes(),
                whole.drift(),
                whole.deferred(),
                whole.outputs(),
                whole.targets(),
                Diagnostics.of(
                        Diagnostic.warning("Careful", "a warning", null),
                        Diagnostic.error("Invalid index", "The given key does not identify an element.", null)),
                whole.timestamp());
        Plan saved = PlanCodec.decode(PlanCodec.encode(errored));
        assertThat(saved.errored()).isTrue();
        assertThat(saved.diagnostics().asList())
                .extracting(Diagnostic::summary, Diagnostic::detail)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "Invalid index", "The given key does not identify an element."));
    }

    @Test
    void aPlanWithoutAReadableTimestampIsDamaged() throws Exception {
        ConfigTree tree = config("output \"t\" { value = plantimestamp() }\n");
        Result<Plan> plan = h.plan(tree);
        assertThat(plan.value()).as(plan.diagnostics().toString()).isNotNull();
        com.fasterxml.jackson.databind.node.ObjectNode n = PlanCodec.encode(plan.value());
        n.put("timestamp", "yesterday");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PlanCodec.decode(n))
                .hasMessage("bad timestamp \"yesterday\"");
        n.remove("timestamp");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PlanCodec.decode(n))
                .hasMessage("missing field \"timestamp\"");
    }

    @Test
    void transientFailuresAreRetriedUntilTheySucceed() throws IOException {
        fake.transientFailuresLeft = 2;
        Result<ApplyResult> r = planAndApply(config("resource \"fake_thing\" \"a\" { value = \"x\" }\n"));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(fake.applies.get()).isEqualTo(3);
        assertThat(r.value().added()).isEqualTo(1);
        assertThat(r.value().state().resources()).hasSize(1);
    }

    @Test
    void aPermanentFailureIsReportedOnceAndNotRetried() throws IOException {
        fake.permanentFailure = true;
        Result<ApplyResult> r = planAndApply(config("resource \"fake_thing\" \"a\" { value = \"x\" }\n"));
        assertThat(fake.applies.get()).isEqualTo(1);
        List<Diagnostic> errors =
                r.diagnostics().asList().stream().filter(Diagnostic::isError).toList();
        assertThat(errors).hasSize(1);
        assertThat(errors.getFirst().summary()).isEqualTo("Invalid thing");
        assertThat(errors.getFirst().address()).isEqualTo("fake_thing.a");
        assertThat(r.value().failed()).hasSize(1);
    }

    @Test
    void aFinalPlanThatDiffersFromTheReviewedOneIsRefused() throws IOException {
        fake.driftingPlans = true;
        Result<ApplyResult> r = planAndApply(config("resource \"fake_thing\" \"a\" { value = \"x\" }\n"));
        assertThat(r.diagnostics().asList())
                .anyMatch(d -> d.summary().equals("Provider produced inconsistent final plan"));
        assertThat(fake.applies.get()).isZero();
        assertThat(r.value().state().resources()).isEmpty();
    }

    @Test
    void aProviderThatIsGoneIsReportedOnceNotOncePerObject() throws IOException {
        fake.gone = true;
        Result<ApplyResult> r =
                planAndApply(config("resource \"fake_thing\" \"a\" {\n  count = 3\n  value = \"x\"\n}\n"));
        List<Diagnostic> errors =
                r.diagnostics().asList().stream().filter(Diagnostic::isError).toList();
        assertThat(errors).hasSize(1);
        assertThat(errors.getFirst().summary()).isEqualTo("Plugin did not respond");
        assertThat(r.value().failed()).hasSize(3);
        assertThat(fake.applies.get()).as("not retried").isEqualTo(3);
    }

    @Test
    void aResultThatDiffersFromThePlanIsAProviderBug() throws IOException {
        fake.emptyForNull = true;
        Result<ApplyResult> r = planAndApply(config("resource \"fake_thing\" \"a\" {}\n"));
        assertThat(r.diagnostics().asList())
                .anyMatch(d -> d.summary().equals("Provider produced inconsistent result after apply")
                        && d.detail().contains(".value"));
    }

    /** As under Terraform, a legacy-SDK provider's imprecise plans and results are tolerated, not errors. */
    @Test
    void legacyTypeSystemProvidersAreToleratedAsTerraformDoes() throws IOException {
        fake.emptyForNull = true;
        fake.driftingPlans = true;
        fake.legacyTypeSystem = true;
        Result<ApplyResult> r = planAndApply(config("resource \"fake_thing\" \"a\" {}\n"));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().added()).isEqualTo(1);
        String json = new String(dev.strata.state.StateCodec.write(r.value().state()));
        assertThat(json).contains("\"value\": \"\"");
    }

    @Test
    void aPlanThatDeviatesFromTheConfigIsRefusedFromAStrictProvider() throws IOException {
        fake.plansDefaults = true;
        ConfigTree tree = config("resource \"fake_thing\" \"a\" {}\n");
        Result<Plan> plan = h.plan(tree);
        assertThat(plan.diagnostics().asList())
                .anyMatch(d -> d.summary().equals("Provider produced invalid plan")
                        && d.detail().contains(".value: planned value does not match the configuration's value"));
    }

    @Test
    void aLegacySdkProviderMayPlanItsDefaultsWhereTheConfigIsNull() throws IOException {
        // Terraform tolerates this for providers that set legacy_type_system (every SDKv2 provider,
        // e.g. the AWS provider's Optional+Default attributes such as revoke_rules_on_delete).
        fake.plansDefaults = true;
        fake.legacyTypeSystem = true;
        Result<ApplyResult> r = planAndApply(config("resource \"fake_thing\" \"a\" {}\n"));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().added()).isEqualTo(1);
    }

    @Test
    void anInstanceKeyOutsideAKnownExpansionFailsLikeAnIndexSoTryCanHandleIt() throws IOException {
        // The VPC module's outputs: try(aws_x.this[0].id, null) where count is 0 must be a known null.
        ConfigTree tree = config("""
                resource "fake_thing" "a" {
                  count = 0
                }
                output "o" { value = try(fake_thing.a[0].id, null) }
                output "c" { value = can(fake_thing.a[0]) }
                """);
        Result<Plan> plan = h.plan(tree);
        assertThat(plan.diagnostics().hasErrors())
                .as(plan.diagnostics().toString())
                .isFalse();
        Value o = plan.value().outputs().get("o").after();
        assertThat(o.isKnown() && o.isNull()).as(o.toString()).isTrue();
        assertThat(plan.value().outputs().get("c").after()).isEqualTo(Value.FALSE);
    }

    @Test
    void aDataSourceWaitsOnlyForWhatItsDependsOnAndDirectReferencesName() throws IOException {
        // Terraform's rule: a pending managed resource reached through a local does not defer the read
        // (its known values are known); one named in depends_on, or referred to directly, does.
        ConfigTree tree = config("""
                resource "fake_thing" "a" { value = "x" }
                locals {
                  v = fake_thing.a.value
                }
                data "fake_info" "via_local" { value = local.v }
                data "fake_info" "named" {
                  value      = "y"
                  depends_on = [fake_thing.a]
                }
                data "fake_info" "direct" { value = fake_thing.a.value }
                """);
        Result<Plan> plan = h.plan(tree);
        assertThat(plan.diagnostics().hasErrors())
                .as(plan.diagnostics().toString())
                .isFalse();
        List<String> deferredReads = plan.value().changes().stream()
                .filter(c -> c.action() == Action.READ)
                .map(c -> c.addr().toString())
                .sorted()
                .toList();
        assertThat(deferredReads).containsExactly("data.fake_info.direct", "data.fake_info.named");
    }

    @Test
    void stateRecordsEveryResourceAnInstanceDependsOnThroughOthersAndModulesButNoneForDataResources() {
        // As terraform 1.11 records them (checked with terraform_data and terraform_remote_state): the whole
        // chain, so that a destroy keeps its order when an object between two others has left the state.
        ConfigTree tree = h.files(
                Map.of("main.tf", EngineHarness.REQUIRED_PROVIDERS + """
                        resource "fake_thing" "a" { value = "a" }
                        data "fake_info" "r" {
                          value      = "r"
                          depends_on = [fake_thing.a]
                        }
                        resource "fake_thing" "b" { value = data.fake_info.r.value }
                        module "m" {
                          source = "./m"
                          in     = fake_thing.b.value
                        }
                        resource "fake_thing" "c" { value = module.m.value }
                        """, "m/main.tf", EngineHarness.CHILD_MODULE));
        assertThat(planAndApply(tree).diagnostics().hasErrors()).isFalse();
        Map<String, List<String>> deps = new java.util.TreeMap<>();
        for (var r : h.state().resources()) {
            deps.put(
                    r.addr().toString(),
                    r.instances().getFirst().dependencies().stream()
                            .map(Object::toString)
                            .toList());
        }
        assertThat(deps)
                .containsEntry("fake_thing.a", List.of())
                .containsEntry("data.fake_info.r", List.of())
                .containsEntry("fake_thing.b", List.of("data.fake_info.r", "fake_thing.a"))
                .containsEntry("module.m.fake_thing.x", List.of("data.fake_info.r", "fake_thing.a", "fake_thing.b"))
                .containsEntry(
                        "fake_thing.c",
                        List.of("data.fake_info.r", "fake_thing.a", "fake_thing.b", "module.m.fake_thing.x"));
    }

    @Test
    void everyOperationIsJournaledAndTheJournalIsCompactedAtTheEnd() throws IOException {
        planAndApply(config("resource \"fake_thing\" \"a\" {\n  count = 3\n  value = \"v${count.index}\"\n}\n"));
        assertThat(Files.exists(dir.resolve("terraform.tfstate"))).isTrue();
        try (StateManager sm =
                LocalBackend.in(dir, "test").open("default", LockRequest.none()).value()) {
            assertThat(sm.journalSize()).isZero();
            assertThat(sm.openIntents()).isEmpty();
            assertThat(sm.state().resources().getFirst().instances()).hasSize(3);
        }
    }

    /**
     * Intents a killed run left whose outcome the state holds are closed by the next apply; one whose
     * object may exist outside the state (a create of an instance the state lacks) stays open.
     */
    @Test
    void crashedIntentsWhoseOutcomeIsRecordedAreClosedByTheNextApply() throws IOException {
        ConfigTree tree = config("resource \"fake_thing\" \"a\" {\n  count = 2\n  value = \"v${count.index}\"\n}\n");
        assertThat(planAndApply(tree).diagnostics().hasErrors()).isFalse();
        try (StateManager sm = lockedState()) {
            for (String[] i : new String[][] {
                {"recorded-create", "fake_thing.a[1]", "create"},
                {"recorded-delete", "fake_thing.old", "delete"},
                {"unknown-create", "fake_thing.gone", "create"}
            }) {
                assertThat(sm.append(new dev.strata.state.JournalEntry.Intent(
                                        i[0],
                                        dev.strata.addr.Addrs.parseAbsResourceInstance(i[1])
                                                .value(),
                                        i[2]))
                                .hasErrors())
                        .isFalse();
            }
        }
        assertThat(planAndApply(tree).diagnostics().hasErrors()).isFalse();
        try (StateManager sm =
                LocalBackend.in(dir, "test").open("default", LockRequest.none()).value()) {
            assertThat(sm.openIntents())
                    .extracting(dev.strata.state.JournalEntry.Intent::operationId)
                    .containsExactly("unknown-create");
        }
    }

    @Test
    void dependentsSeeTheAppliedValuesJustInTime() throws IOException {
        Result<ApplyResult> r = planAndApply(config("""
                resource "fake_thing" "a" { value = "x" }
                resource "fake_thing" "b" { value = "after-${fake_thing.a.id}" }
                """));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        String json = new String(dev.strata.state.StateCodec.write(r.value().state()));
        assertThat(json).contains("\"value\": \"after-thing-1\"");
    }

    @Test
    void adaptiveLimitHalvesOnThrottlingAndGrowsBack() {
        ProviderCalls.AdaptiveLimit l = new ProviderCalls.AdaptiveLimit(8);
        l.throttled(System.nanoTime());
        assertThat(l.limit()).isEqualTo(4.0);
        l.throttled(System.nanoTime());
        l.throttled(System.nanoTime());
        l.throttled(System.nanoTime());
        assertThat(l.limit()).isEqualTo(1.0);
        for (int i = 0; i < 100; i++) {
            l.success();
        }
        assertThat(l.limit()).isEqualTo(8.0);
    }

    @Test
    void onlyTransientFailuresAreRetriedAPermanentOneReturnsAtOnce() {
        ProviderCalls calls = new ProviderCalls(
                4,
                new ProviderCalls.Settings(
                        5,
                        Duration.ofMillis(1),
                        Duration.ofMillis(2),
                        Duration.ofMinutes(1),
                        50,
                        Duration.ofSeconds(1)),
                EngineEvents.NONE,
                () -> false);
        var addr = dev.strata.addr.Addrs.parseAbsResourceInstance("cloudsim_network.main")
                .value();
        java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
        // A connection that cannot be made is reported permanent by the provider: one attempt only.
        dev.strata.provider.ProviderDiagnostics unreachable = dev.strata.provider.ProviderDiagnostics.builder()
                .add(dev.strata.provider.ProviderDiagnostic.error("Cloud API unreachable", "connection refused"))
                .build();
        var provider = new dev.strata.addr.AbsProviderConfig(
                dev.strata.addr.Module.ROOT, dev.strata.addr.Provider.implied("cloudsim"), null);
        calls.call(
                provider,
                addr,
                ProviderCalls.Operation.APPLY_RESOURCE_CHANGE,
                () -> {
                    sent.incrementAndGet();
                    return unreachable;
                },
                d -> d);
        assertThat(sent).hasValue(1);
        // A throttle is retried up to the attempt budget.
        dev.strata.provider.ProviderDiagnostics throttled = dev.strata.provider.ProviderDiagnostics.builder()
                .add(dev.strata.provider.ProviderDiagnostic.transientError(
                        "Throttled", "429", new dev.strata.provider.Failure.Transient(java.util.Optional.empty())))
                .build();
        sent.set(0);
        calls.call(
                provider,
                addr,
                ProviderCalls.Operation.APPLY_RESOURCE_CHANGE,
                () -> {
                    sent.incrementAndGet();
                    return throttled;
                },
                d -> d);
        assertThat(sent).hasValue(5);
    }

    @Test
    void backoffHonoursRetryAfterAndStaysUnderTheCap() {
        ProviderCalls calls = new ProviderCalls(
                4,
                new ProviderCalls.Settings(
                        5,
                        Duration.ofMillis(100),
                        Duration.ofSeconds(2),
                        Duration.ofMinutes(1),
                        5,
                        Duration.ofSeconds(1)),
                EngineEvents.NONE,
                () -> false);
        for (int attempt = 1; attempt < 12; attempt++) {
            assertThat(calls.backoff(attempt, java.util.Optional.empty())).isLessThanOrEqualTo(Duration.ofSeconds(2));
        }
        assertThat(calls.backoff(1, java.util.Optional.of(Duration.ofSeconds(3))))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void anOperationThatOutlivesItsTimeoutIsStoppedAndReported() throws IOException {
        Result<ApplyResult> r = planAndApply(config("""
                resource "fake_thing" "a" {
                  value = "slow"
                  timeouts {
                    create = "200ms"
                  }
                }
                resource "fake_thing" "b" { value = "quick" }
                """));
        assertThat(r.diagnostics().asList())
                .anyMatch(d ->
                        d.summary().equals("Operation timed out") && d.detail().contains("fake_thing.a"));
        assertThat(r.value().failed()).extracting(Object::toString).containsExactly("fake_thing.a");
        assertThat(r.value().added()).isEqualTo(1);
    }

    @Test
    void aLongApplyCompactsTheJournalOnTheWayWithoutLosingAnything() throws IOException {
        int before = EngineHarness.compactEvery(7);
        try {
            Result<ApplyResult> r = planAndApply(
                    config("resource \"fake_thing\" \"a\" {\n  count = 12\n" + "  value = \"v${count.index}\"\n}\n"));
            assertThat(r.diagnostics().hasErrors())
                    .as(r.diagnostics().toString())
                    .isFalse();
            assertThat(r.value().added()).isEqualTo(12);
            try (StateManager sm = LocalBackend.in(dir, "test")
                    .open("default", LockRequest.none())
                    .value()) {
                assertThat(sm.state().resources().getFirst().instances()).hasSize(12);
                assertThat(sm.state().serial()).isGreaterThan(2);
                assertThat(sm.openIntents()).isEmpty();
            }
        } finally {
            EngineHarness.compactEvery(before);
        }
    }

    /**
     * A compaction in the middle of an apply carries the intent of each operation still running into the
     * emptied journal exactly once: the state manager does it, the engine appends each intent once only. A
     * run killed right after the compaction (its files as they were then) still finds the intent open.
     */
    @Test
    void aCompactionMidApplyCarriesEachRunningIntentIntoTheJournalOnce() throws IOException {
        int before = EngineHarness.compactEvery(7);
        // The slow create must still be running when a periodic compaction comes, however loaded the machine.
        fake.slowGateSeconds = 120;
        Path crashed = dir.resolve("killed-after-compaction");
        Files.createDirectories(crashed);
        try {
            ConfigTree tree = config("""
                    resource "fake_thing" "slow" { value = "slow" }
                    resource "fake_thing" "a" {
                      count = 12
                      value = "v${count.index}"
                    }
                    """);
            Plan plan = h.planned(tree);
            java.util.Map<String, Integer> appendedByEngine = new java.util.concurrent.ConcurrentHashMap<>();
            java.util.List<Integer> slowIntentLinesAtItsEnd = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicReference<String> slowOp =
                    new java.util.concurrent.atomic.AtomicReference<>();
            Path journal = dir.resolve("terraform.tfstate.journal");
            Result<ApplyResult> r;
            try (StateManager real = lockedState()) {
                StateManager recording = new DelegatingState(real) {
                    @Override
                    public Result<dev.strata.state.StateSnapshot> append(dev.strata.state.JournalEntry e) {
                        if (e instanceof dev.strata.state.JournalEntry.Completed c
                                && c.operationId().equals(slowOp.get())) {
                            // Under the manager's monitor: a compaction on another thread removes the journal
                            // file before it re-appends the open intents, and must not be seen half done.
                            synchronized (real) {
                                slowIntentLinesAtItsEnd.add(intentLines(journal, c.operationId()));
                            }
                        }
                        if (e instanceof dev.strata.state.JournalEntry.Intent i) {
                            appendedByEngine.merge(i.operationId(), 1, Integer::sum);
                            if (i.instance().toString().equals("fake_thing.slow")) {
                                // Before the append, which may compact at once on this thread: a compaction
                                // that finds the intent open must know it as the slow create's.
                                slowOp.set(i.operationId());
                            }
                        }
                        return super.append(e);
                    }

                    @Override
                    public Result<dev.strata.state.StateSnapshot> compact() {
                        Result<dev.strata.state.StateSnapshot> c = super.compact();
                        if (slowOp.get() != null
                                && fake.slowGate.getCount() > 0
                                && real.openIntents().stream()
                                        .anyMatch(i -> i.operationId().equals(slowOp.get()))) {
                            // Kill -9 right here: the files as they are now are what the next run finds
                            // (copied while no other thread appends or compacts).
                            synchronized (real) {
                                copy(dir.resolve("terraform.tfstate"), crashed.resolve("terraform.tfstate"));
                                copy(journal, crashed.resolve("terraform.tfstate.journal"));
                            }
                            fake.slowGate.countDown();
                        }
                        return c;
                    }
                };
                // The fast creates wait until the slow one's intent is in the journal, so that the entries they
                // add after it are enough for a compaction whatever order the creates start in (each then runs at
                // once: the parallelism is above the 13 creates, so none waits for a slot the slow one needs).
                java.util.concurrent.CountDownLatch slowOpen = new java.util.concurrent.CountDownLatch(1);
                fake.beforeApply = req -> {
                    Value v = req.plannedState().attributes().get("value");
                    if (v == null || !v.isKnownAndNotNull() || !v.asString().equals("slow")) {
                        try {
                            slowOpen.await(60, java.util.concurrent.TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                };
                StateManager gated = new DelegatingState(recording) {
                    @Override
                    public Result<dev.strata.state.StateSnapshot> append(dev.strata.state.JournalEntry e) {
                        Result<dev.strata.state.StateSnapshot> r = super.append(e);
                        if (e instanceof dev.strata.state.JournalEntry.Intent i
                                && i.instance().toString().equals("fake_thing.slow")) {
                            slowOpen.countDown();
                        }
                        return r;
                    }
                };
                PlanOptions wide = new PlanOptions(
                        dir, "default", PlanMode.NORMAL, true, java.util.List.of(), java.util.List.of(), 20);
                r = h.engine(tree).apply(plan, gated, wide, EngineEvents.NONE);
            }
            assertThat(r.diagnostics().hasErrors())
                    .as(r.diagnostics().toString())
                    .isFalse();
            assertThat(r.value().added()).isEqualTo(13);
            assertThat(fake.slowGate.getCount())
                    .as("a compaction ran while the slow create was open")
                    .isZero();
            assertThat(appendedByEngine)
                    .hasSize(13)
                    .allSatisfy((op, n) -> assertThat(n).as(op).isOne());
            assertThat(slowIntentLinesAtItsEnd).containsExactly(1);
            try (StateManager afterKill = LocalBackend.in(crashed, "test")
                    .open("default", LockRequest.none())
                    .value()) {
                assertThat(afterKill.openIntents())
                        .extracting(i -> i.operationId() + " " + i.instance() + " " + i.action())
                        .contains(slowOp.get() + " fake_thing.slow create");
                assertThat(intentLines(crashed.resolve("terraform.tfstate.journal"), slowOp.get()))
                        .isOne();
            }
        } finally {
            EngineHarness.compactEvery(before);
        }
    }

    private static int intentLines(Path journal, String operation) {
        try {
            return (int) Files.readAllLines(journal).stream()
                    .filter(l ->
                            l.contains("\"entry\":\"intent\"") && l.contains("\"operation\":\"" + operation + "\""))
                    .count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void copy(Path from, Path to) {
        try {
            Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A state manager that passes everything to another; tests override what they watch. */
    private static class DelegatingState implements StateManager {
        private final StateManager d;

        DelegatingState(StateManager d) {
            this.d = d;
        }

        @Override
        public String workspace() {
            return d.workspace();
        }

        @Override
        public dev.strata.state.StateSnapshot state() {
            return d.state();
        }

        @Override
        public boolean exists() {
            return d.exists();
        }

        @Override
        public dev.strata.state.LockInfo lock() {
            return d.lock();
        }

        @Override
        public Result<dev.strata.state.StateSnapshot> persist(dev.strata.state.StateSnapshot next) {
            return d.persist(next);
        }

        @Override
        public Result<dev.strata.state.StateSnapshot> replace(dev.strata.state.StateSnapshot incoming, boolean force) {
            return d.replace(incoming, force);
        }

        @Override
        public Result<dev.strata.state.StateSnapshot> append(dev.strata.state.JournalEntry entry) {
            return d.append(entry);
        }

        @Override
        public Result<dev.strata.state.StateSnapshot> compact() {
            return d.compact();
        }

        @Override
        public int journalSize() {
            return d.journalSize();
        }

        @Override
        public List<dev.strata.state.JournalEntry.Intent> openIntents() {
            return d.openIntents();
        }

        @Override
        public void close() {
            d.close();
        }
    }

    @Test
    void aCreatesObjectAndTheEndOfItsIntentAreRecordedAsOneDurableStep() throws IOException {
        ConfigTree tree = config("""
                resource "fake_thing" "a" {
                  count = 3
                  value = "v${count.index}"
                }
                """);
        Plan plan = h.planned(tree);
        List<String> steps = new java.util.concurrent.CopyOnWriteArrayList<>();
        Result<ApplyResult> r;
        try (StateManager real = lockedState()) {
            StateManager recording = new DelegatingState(real) {
                @Override
                public Result<dev.strata.state.StateSnapshot> append(dev.strata.state.JournalEntry e) {
                    steps.add(e.getClass().getSimpleName());
                    return super.append(e);
                }

                @Override
                public Result<dev.strata.state.StateSnapshot> appendAll(List<dev.strata.state.JournalEntry> es) {
                    steps.add(String.join(
                            "+",
                            es.stream().map(e -> e.getClass().getSimpleName()).toList()));
                    return real.appendAll(es);
                }
            };
            r = h.engine(tree).apply(plan, recording, h.options(), EngineEvents.NONE);
        }
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().added()).isEqualTo(3);
        // The intent is durable before the provider is called; the object and the intent's end after it, together.
        assertThat(steps)
                .containsExactlyInAnyOrder(
                        "Intent",
                        "Intent",
                        "Intent",
                        "SetObject+Completed",
                        "SetObject+Completed",
                        "SetObject+Completed");
        try (StateManager sm =
                LocalBackend.in(dir, "test").open("default", LockRequest.none()).value()) {
            assertThat(sm.state().resources().getFirst().instances()).hasSize(3);
            assertThat(sm.openIntents()).isEmpty();
        }
    }

    @Test
    void compactionsDuringAnApplyWaitLongerAsTheStateGrows() throws IOException {
        // 400 creates journal 1,200 entries (intent, object, completion): every 40 entries would be 30 full
        // state writes; in proportion to the state (2 entries per object written) about a dozen, counting the
        // intents of running operations that each compaction carries over.
        int before = EngineHarness.compactEvery(40);
        try {
            Result<ApplyResult> r = planAndApply(
                    config("resource \"fake_thing\" \"a\" {\n  count = 400\n" + "  value = \"v${count.index}\"\n}\n"));
            assertThat(r.diagnostics().hasErrors())
                    .as(r.diagnostics().toString())
                    .isFalse();
            assertThat(r.value().added()).isEqualTo(400);
            try (StateManager sm = LocalBackend.in(dir, "test")
                    .open("default", LockRequest.none())
                    .value()) {
                assertThat(sm.state().resources().getFirst().instances()).hasSize(400);
                // Each compaction raises the serial by one.
                assertThat(sm.state().serial()).isBetween(4L, 18L);
                assertThat(sm.openIntents()).isEmpty();
            }
        } finally {
            EngineHarness.compactEvery(before);
        }
    }

    @Test
    void theModulesProviderMetaTravelsWithEveryRequestAboutItsOwnResources() throws IOException {
        fake.providerMeta = dev.strata.provider.Block.builder()
                .attribute(
                        "user_agent",
                        dev.strata.provider.Attribute.optional(
                                dev.strata.lang.types.Type.list(dev.strata.lang.types.Type.STRING)))
                .build();
        Files.createDirectories(dir.resolve("child"));
        Files.writeString(dir.resolve("child/main.tf"), """
                terraform {
                  required_providers {
                    fake = { source = "example.com/test/fake" }
                  }
                }
                resource "fake_thing" "inner" { value = "c" }
                """);
        Result<ApplyResult> r = planAndApply(config("""
                terraform {
                  provider_meta "fake" {
                    user_agent = ["strata-test/1"]
                  }
                }
                resource "fake_thing" "a" { value = "x" }
                data "fake_info" "i" { value = "y" }
                module "child" { source = "./child" }
                """));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        Value meta = Value.object(java.util.Map.of(
                "user_agent", Value.list(dev.strata.lang.types.Type.STRING, List.of(Value.string("strata-test/1")))));
        // The root's block for its own resource and data source; the child module has none, so its
        // resource gets a null meta.
        assertThat(new java.util.TreeSet<>(fake.metas))
                .containsExactlyInAnyOrder(
                        "plan fake_thing: " + meta,
                        "apply fake_thing: " + meta,
                        "data fake_info: " + meta,
                        "plan fake_thing: " + Value.NULL,
                        "apply fake_thing: " + Value.NULL);
    }

    @Test
    void aProviderMetaOutsideTheProvidersSchemaIsAnErrorForEachInstanceAsInTerraform() throws IOException {
        fake.providerMeta = dev.strata.provider.Block.builder().build();
        ConfigTree tree = config("""
                terraform {
                  provider_meta "fake" {
                    user_agent = ["x"]
                  }
                }
                resource "fake_thing" "a" {
                  count = 2
                  value = "x"
                }
                """);
        assertThat(validate(tree).hasErrors())
                .as("terraform validate does not look at provider_meta")
                .isFalse();
        Result<Plan> plan = h.plan(tree);
        List<Diagnostic> errors =
                plan.diagnostics().asList().stream().filter(Diagnostic::isError).toList();
        assertThat(errors).hasSize(2).allSatisfy(d -> {
            assertThat(d.summary()).isEqualTo("Unsupported argument");
            assertThat(d.detail()).isEqualTo("An argument named \"user_agent\" is not expected here.");
            assertThat(d.subject().start().line()).isEqualTo(8);
        });
        assertThat(fake.plans.get()).isZero();
        fake.providerMeta = null;
        Result<Plan> unsupported = h.plan(tree);
        List<String> texts = unsupported.diagnostics().asList().stream()
                .filter(Diagnostic::isError)
                .map(d -> d.summary() + " / " + d.detail() + " @"
                        + d.subject().start().line() + ":" + d.subject().start().column())
                .toList();
        assertThat(texts)
                .containsExactlyInAnyOrder(
                        "Provider example.com/test/fake doesn't support provider_meta / The resource fake_thing.a[0] belongs "
                                + "to a provider that doesn't support provider_meta blocks @7:17",
                        "Provider example.com/test/fake doesn't support provider_meta / The resource fake_thing.a[1] belongs "
                                + "to a provider that doesn't support provider_meta blocks @7:17");
    }

    // ---- the engine's entry point: one engine per configuration, its stop, and graph and static checks ----

    @Test
    void aStoppedEnginePlansNothingAndSaysSo() throws IOException {
        Engine engine = h.engine(config("resource \"fake_thing\" \"a\" { value = \"x\" }\n"));
        engine.stop();
        Result<Plan> plan = engine.plan(
                new java.util.TreeMap<>(),
                dev.strata.state.StateSnapshot.empty("test"),
                PlanOptions.defaults(dir),
                EngineEvents.NONE);
        assertThat(plan.value()).isNull();
        assertThat(plan.diagnostics().asList()).extracting(Diagnostic::summary).containsExactly("Planning interrupted");
    }

    @Test
    void oneEnginePlansTheSameConfigurationTwice() throws IOException {
        Engine engine = h.engine(config("resource \"fake_thing\" \"a\" { value = \"x\" }\n"));
        for (int i = 0; i < 2; i++) {
            Result<Plan> plan = engine.plan(
                    new java.util.TreeMap<>(),
                    dev.strata.state.StateSnapshot.empty("test"),
                    PlanOptions.defaults(dir),
                    EngineEvents.NONE);
            assertThat(plan.value()).as(plan.diagnostics().toString()).isNotNull();
            assertThat(plan.value().changes())
                    .extracting(c -> c.addr().toString() + " " + c.action())
                    .containsExactly("fake_thing.a CREATE");
        }
    }

    @Test
    void theGraphNamesTheObjectsAndRefusesACycleUnlessAskedToDrawIt() throws IOException {
        Engine engine = h.engine(config("""
                locals {
                  a = local.b
                  b = local.a
                }
                resource "fake_thing" "a" { value = "x" }
                """));
        Result<String> refused = engine.graph(false);
        assertThat(refused.value()).isNull();
        assertThat(refused.diagnostics().hasErrors()).isTrue();
        Result<String> drawn = engine.graph(true);
        assertThat(drawn.value()).contains("digraph").contains("fake_thing.a").contains("local.a");
    }

    @Test
    void theStaticCheckReportsAnUndeclaredReference() throws IOException {
        Engine engine = h.engine(config("resource \"fake_thing\" \"a\" { value = var.missing }\n"));
        assertThat(engine.checkConfig().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Reference to undeclared input variable");
    }
}
