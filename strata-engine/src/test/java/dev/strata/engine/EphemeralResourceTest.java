package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.hcl.Diagnostic;
import dev.strata.provider.PrivateState;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ephemeral resources: opened by the plan and again by the apply (never by validation), closed after
 * what uses them, never recorded in a plan, a plan file or state, and their results ephemeral.
 */
class EphemeralResourceTest {
    @TempDir
    Path dir;

    /**
     * @param planLog  the provider's ephemeral calls while planning
     * @param applyLog its ephemeral calls while applying (null: the plan fails with {@code errors})
     * @param errors   the plan's error summaries
     */
    record Case(String name, String config, List<String> planLog, List<String> applyLog, List<String> errors) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case(
                        "opened and closed by the plan, and again by the apply",
                        """
                        ephemeral "fake_secret" "s" { name = "a" }
                        resource "fake_thing" "t" { value = "x" }
                        """,
                        List.of("open a", "close a"),
                        List.of("open a", "close a"),
                        List.of()),
                new Case(
                        "each counted instance is opened and closed",
                        """
                        ephemeral "fake_secret" "s" {
                          count = 2
                          name  = "n${count.index}"
                        }
                        """,
                        List.of("close n0", "close n1", "open n0", "open n1"),
                        List.of("close n0", "close n1", "open n0", "open n1"),
                        List.of()),
                new Case(
                        "a configuration unknown while planning is opened by the apply only",
                        """
                        resource "fake_thing" "t" {}
                        ephemeral "fake_secret" "s" { name = fake_thing.t.id }
                        """,
                        List.of(),
                        List.of("open thing-1", "close thing-1"),
                        List.of()),
                new Case(
                        "a result in a local and a condition is allowed",
                        """
                        ephemeral "fake_secret" "s" { name = "a" }
                        locals { v = ephemeral.fake_secret.s.value }
                        resource "fake_thing" "t" {
                          value = "x"
                          lifecycle {
                            precondition {
                              condition     = local.v == "secret:a"
                              error_message = "wrong secret"
                            }
                          }
                        }
                        """,
                        List.of("open a", "close a"),
                        List.of("open a", "close a"),
                        List.of()),
                new Case(
                        "a result in a persisted argument is refused",
                        """
                        ephemeral "fake_secret" "s" { name = "a" }
                        resource "fake_thing" "t" { value = ephemeral.fake_secret.s.value }
                        """,
                        List.of("open a", "close a"),
                        null,
                        List.of("Invalid use of ephemeral value")),
                new Case(
                        "a result in an output not declared ephemeral is refused",
                        """
                        ephemeral "fake_secret" "s" { name = "a" }
                        output "o" { value = ephemeral.fake_secret.s.value }
                        """,
                        List.of("open a", "close a"),
                        null,
                        List.of("Ephemeral value not allowed")),
                new Case(
                        "a failed open is reported and leaves nothing to close",
                        """
                        ephemeral "fake_secret" "s" { name = "fail" }
                        """,
                        List.of("open fail"),
                        null,
                        List.of("Secret not found")),
                new Case(
                        "a postcondition sees the result as self",
                        """
                        ephemeral "fake_secret" "s" {
                          name = "a"
                          lifecycle {
                            postcondition {
                              condition     = self.value == "secret:b"
                              error_message = "not b"
                            }
                          }
                        }
                        """,
                        List.of("open a", "close a"),
                        null,
                        List.of("Resource postcondition failed")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void planAndApply(Case c) {
        FakeProvider fake = new FakeProvider();
        EngineHarness h = new EngineHarness(dir, fake);
        var tree = h.config(c.config());
        var planned = h.plan(tree);
        List<String> log = new ArrayList<>(fake.ephemeralLog);
        if (c.name().contains("counted")) {
            Collections.sort(log);
        }
        assertThat(log).as("plan").isEqualTo(c.planLog());
        assertThat(EngineHarness.errors(planned.diagnostics()))
                .extracting(Diagnostic::summary)
                .containsAll(c.errors());
        if (c.errors().isEmpty()) {
            assertThat(EngineHarness.errors(planned.diagnostics())).isEmpty();
        }
        if (c.applyLog() == null) {
            return;
        }
        Plan p = planned.value();
        assertThat(p.changes()).noneMatch(ch -> ch.addr().toString().startsWith("ephemeral."));
        assertThat(new String(PlanCodec.toBytes(PlanCodec.encode(p)), StandardCharsets.UTF_8))
                .doesNotContain("secret:")
                .doesNotContain("ephemeral.fake_secret");
        fake.ephemeralLog.clear();
        var r = h.apply(tree, p);
        assertThat(EngineHarness.errors(r.diagnostics())).isEmpty();
        log = new ArrayList<>(fake.ephemeralLog);
        if (c.name().contains("counted")) {
            Collections.sort(log);
        }
        assertThat(log).as("apply").isEqualTo(c.applyLog());
        assertThat(h.stateAddresses()).noneMatch(a -> a.startsWith("ephemeral."));
        assertThat(new String(dev.strata.state.StateCodec.write(h.state()), StandardCharsets.UTF_8))
                .doesNotContain("secret:");
    }

    /**
     * As Terraform 1.11 records it (an ephemeral parameter feeding a write-only argument: the instance's
     * {@code dependencies} are ["aws_ssm_parameter.src", "ephemeral.aws_ssm_parameter.secret"]): the ephemeral
     * resources an instance's configuration uses are among its recorded dependencies, with what they depend
     * on, though never in state themselves.
     */
    @Test
    void stateRecordsTheEphemeralResourcesAnInstanceUses() {
        FakeProvider fake = new FakeProvider();
        EngineHarness h = new EngineHarness(dir, fake);
        var tree = h.config("""
                resource "fake_thing" "src" { value = "a" }
                ephemeral "fake_secret" "s" { name = fake_thing.src.value }
                resource "fake_thing" "t" {
                  value = "x"
                  lifecycle {
                    precondition {
                      condition     = ephemeral.fake_secret.s.value != ""
                      error_message = "no secret"
                    }
                  }
                }
                """);
        var planned = h.plan(tree);
        assertThat(EngineHarness.errors(planned.diagnostics())).isEmpty();
        assertThat(EngineHarness.errors(h.apply(tree, planned.value()).diagnostics()))
                .isEmpty();
        var t = h.state().resources().stream()
                .filter(r -> r.addr().toString().equals("fake_thing.t"))
                .findFirst()
                .orElseThrow();
        assertThat(t.instances().getFirst().dependencies())
                .extracting(Object::toString)
                .containsExactly("ephemeral.fake_secret.s", "fake_thing.src");
        assertThat(h.stateAddresses()).noneMatch(a -> a.startsWith("ephemeral."));
    }

    /** The ephemeral progress events, worded as the human view words them. */
    private static final class Progress implements EngineEvents {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void ephemeralStart(AbsResourceInstance addr, EphemeralAction action) {
            events.add(addr + ": " + action.progress() + "...");
        }

        @Override
        public void ephemeralComplete(AbsResourceInstance addr, EphemeralAction action, Duration elapsed) {
            events.add(addr + ": " + action.complete());
        }

        @Override
        public void ephemeralErrored(AbsResourceInstance addr, EphemeralAction action, Duration elapsed) {
            events.add(addr + ": " + action.errored());
        }
    }

    @Test
    void theProgressEventsNameOpeningAndClosing() {
        EngineHarness h = new EngineHarness(dir, new FakeProvider());
        Progress record = new Progress();
        h.plan(h.config("ephemeral \"fake_secret\" \"s\" { name = \"a\" }\n"), h.options(), record);
        assertThat(record.events)
                .containsExactly(
                        "ephemeral.fake_secret.s: Opening...",
                        "ephemeral.fake_secret.s: Opening complete",
                        "ephemeral.fake_secret.s: Closing...",
                        "ephemeral.fake_secret.s: Closing complete");
    }

    @Test
    void aFailedOpenIsAnErroredEvent() {
        EngineHarness h = new EngineHarness(dir, new FakeProvider());
        Progress record = new Progress();
        h.plan(h.config("ephemeral \"fake_secret\" \"s\" { name = \"fail\" }\n"), h.options(), record);
        assertThat(record.events)
                .containsExactly("ephemeral.fake_secret.s: Opening...", "ephemeral.fake_secret.s: Opening errored");
    }

    @Test
    void closedOnlyAfterTheLastResourceThatUsesItsProvider() {
        FakeProvider fake = new FakeProvider();
        fake.beforePlan = r -> fake.ephemeralLog.add("plan " + r.typeName());
        EngineHarness h = new EngineHarness(dir, fake);
        // The provider configuration uses the secret, so every resource of that provider waits for it.
        h.plan(h.config("""
                ephemeral "fake_secret" "s" { name = "a" }
                locals { token = ephemeral.fake_secret.s.value }
                resource "fake_thing" "t" {
                  value = "x"
                  lifecycle {
                    precondition {
                      condition     = local.token != ""
                      error_message = "no token"
                    }
                  }
                }
                """));
        assertThat(fake.ephemeralLog).containsExactly("open a", "plan fake_thing", "close a");
    }

    private static final String FEEDS_A_PROVIDER = """
            ephemeral "fake_secret" "s" { name = "a" }
            provider "fake" {
              alias = "fed"
              token = ephemeral.fake_secret.s.value
            }
            resource "fake_thing" "t" {
              provider = fake.fed
              value    = "x"
            }
            resource "fake_thing" "other" { value = "y" }
            """;

    /**
     * Destroying, an ephemeral resource a provider configuration uses is opened by the destroy plan and
     * by its apply, as Terraform does, and the apply closes it only after the deletions, which run
     * after the walk.
     */
    @Test
    void aDestroyOpensWhatAProviderNeedsAndClosesItAfterTheDeletions() {
        FakeProvider fake = new FakeProvider();
        fake.beforeApply =
                r -> fake.ephemeralLog.add("apply " + (r.plannedState().isNull() ? "delete" : "create"));
        EngineHarness h = new EngineHarness(dir, fake);
        var tree = h.config(FEEDS_A_PROVIDER);
        h.applied(FEEDS_A_PROVIDER);
        fake.ephemeralLog.clear();
        fake.configuredTokens.clear();

        var destroy = h.options(PlanMode.DESTROY, List.of(), List.of());
        var planned = h.plan(tree, destroy);
        assertThat(EngineHarness.errors(planned.diagnostics())).isEmpty();
        assertThat(fake.ephemeralLog).as("destroy plan").containsExactly("open a", "close a");
        assertThat(planned.value().changes())
                .extracting(ch -> ch.addr() + " " + ch.action())
                .containsExactlyInAnyOrder("fake_thing.t DELETE", "fake_thing.other DELETE");
        assertThat(new String(PlanCodec.toBytes(PlanCodec.encode(planned.value())), StandardCharsets.UTF_8))
                .doesNotContain("secret:");

        fake.ephemeralLog.clear();
        var r = h.apply(tree, planned.value(), destroy, EngineEvents.NONE);
        assertThat(EngineHarness.errors(r.diagnostics())).isEmpty();
        assertThat(fake.ephemeralLog)
                .as("destroy apply")
                .containsExactly("open a", "apply delete", "apply delete", "close a");
        assertThat(fake.configuredTokens).contains("secret:a");
        assertThat(h.stateAddresses()).isEmpty();
        assertThat(new String(dev.strata.state.StateCodec.write(h.state()), StandardCharsets.UTF_8))
                .doesNotContain("secret:");
    }

    /**
     * {@code -target} names ephemeral resources: destroying, one named is opened and destroys nothing
     * (not even what uses it), as in Terraform; a resource named whose provider uses one opens it.
     */
    @Test
    void aDestroyTargetNamesEphemeralResources() {
        FakeProvider fake = new FakeProvider();
        EngineHarness h = new EngineHarness(dir, fake);
        var tree = h.config(FEEDS_A_PROVIDER);
        h.applied(FEEDS_A_PROVIDER);

        fake.ephemeralLog.clear();
        var planned = h.plan(tree, h.options(PlanMode.DESTROY, List.of("ephemeral.fake_secret.s"), List.of()));
        assertThat(EngineHarness.errors(planned.diagnostics())).isEmpty();
        assertThat(planned.value().changes()).noneMatch(ch -> ch.action() != Action.NO_OP);
        assertThat(fake.ephemeralLog).containsExactly("open a", "close a");

        fake.ephemeralLog.clear();
        planned = h.plan(tree, h.options(PlanMode.DESTROY, List.of("fake_thing.other"), List.of()));
        assertThat(EngineHarness.errors(planned.diagnostics())).isEmpty();
        assertThat(planned.value().changes())
                .extracting(ch -> ch.addr() + " " + ch.action())
                .containsExactly("fake_thing.other DELETE");
        assertThat(fake.ephemeralLog).as("not needed by fake_thing.other").isEmpty();

        fake.ephemeralLog.clear();
        var destroy = h.options(PlanMode.DESTROY, List.of("fake_thing.t"), List.of());
        planned = h.plan(tree, destroy);
        assertThat(EngineHarness.errors(planned.diagnostics())).isEmpty();
        assertThat(planned.value().changes())
                .extracting(ch -> ch.addr() + " " + ch.action())
                .containsExactly("fake_thing.t DELETE");
        assertThat(fake.ephemeralLog).containsExactly("open a", "close a");
        fake.ephemeralLog.clear();
        var r = h.apply(tree, planned.value(), destroy, EngineEvents.NONE);
        assertThat(EngineHarness.errors(r.diagnostics())).isEmpty();
        assertThat(fake.ephemeralLog).containsExactly("open a", "close a");
        assertThat(h.stateAddresses()).containsExactly("fake_thing.other");
    }

    /** A plain plan with {@code -target=ephemeral...}: it alone is opened, nothing else is planned. */
    @Test
    void aTargetedEphemeralResourceIsOpenedAlone() {
        FakeProvider fake = new FakeProvider();
        fake.beforePlan = r -> fake.ephemeralLog.add("plan " + r.typeName());
        EngineHarness h = new EngineHarness(dir, fake);
        var tree = h.config(FEEDS_A_PROVIDER);
        var planned = h.plan(tree, h.options(PlanMode.NORMAL, List.of("ephemeral.fake_secret.s"), List.of()));
        assertThat(EngineHarness.errors(planned.diagnostics())).isEmpty();
        assertThat(planned.value().changes()).isEmpty();
        assertThat(fake.ephemeralLog).containsExactly("open a", "close a");
    }

    /** A direct check of the renewal timer: renewed while still in use, never after it is closed. */
    @Test
    void renewedWhileInUseAndNotAfterClosing() throws Exception {
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        Provider provider = new FakeProvider() {
            @Override
            public RenewEphemeralResponse renewEphemeralResource(RenewEphemeralRequest r) {
                log.add("renew " + new String(r.privateState().bytes(), StandardCharsets.UTF_8));
                return new RenewEphemeralResponse(
                        Instant.now().plusMillis(20), PrivateState.of("b".getBytes()), ProviderDiagnostics.NONE);
            }

            @Override
            public ProviderDiagnostics closeEphemeralResource(CloseEphemeralRequest r) {
                log.add("close " + new String(r.privateState().bytes(), StandardCharsets.UTF_8));
                return ProviderDiagnostics.NONE;
            }
        };
        List<Diagnostic> diags = Collections.synchronizedList(new ArrayList<>());
        Node user = new Node.LocalNode(dev.strata.addr.Module.ROOT, "token");
        AbsResourceInstance addr = dev.strata.addr.ModuleInstance.ROOT
                .resource(dev.strata.addr.Resource.ephemeral("fake_secret", "s"))
                .instance(new dev.strata.addr.InstanceKey.NoKey());
        try (EphemeralResources open = new EphemeralResources(EngineEvents.NONE, diags::add, Clock.systemUTC())) {
            open.opened(addr, provider, "fake_secret", PrivateState.of("a".getBytes()), Instant.now(), Set.of(user));
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (log.size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(open.isOpen(addr)).isTrue();
            open.visited(user);
            assertThat(open.isOpen(addr)).isFalse();
            int atClose = log.size();
            Thread.sleep(100);
            assertThat(log).hasSize(atClose);
        }
        assertThat(log.getFirst()).isEqualTo("renew a");
        assertThat(log).contains("renew b").endsWith("close b");
        assertThat(diags).isEmpty();
    }
}
