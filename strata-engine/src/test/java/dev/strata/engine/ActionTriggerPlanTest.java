package dev.strata.engine;

import dev.strata.engine.EngineHarness.PlanCase;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A change that would fire a Terraform 1.14 {@code action_trigger} fails the plan with a clear error
 * (Strata cannot invoke actions yet); changes that fire none plan as usual.
 */
class ActionTriggerPlanTest {
    @TempDir
    Path dir;

    private static final String A = """
            resource "fake_thing" "a" {
              value = "x"
              zone  = "z1"
            }
            """;

    private static String withTrigger(String value, String trigger) {
        return """
                action "fake_notify" "n" {
                  config {
                    message = "changed"
                  }
                }
                resource "fake_thing" "a" {
                  value = "%s"
                  zone  = "z1"
                  lifecycle {
                    action_trigger {
                      %s
                      actions = [action.fake_notify.n]
                    }
                  }
                }
                """.formatted(value, trigger);
    }

    private static String error(String change) {
        return "Actions are not supported yet: The planned " + change + " of fake_thing.a triggers "
                + "action.fake_notify.n, and Strata cannot invoke actions yet. Remove the action_trigger block, "
                + "or give it a condition that is false for this change, to plan without it.";
    }

    static List<PlanCase> cases() {
        return List.of(
                PlanCase.of("a create fires after_create", null, withTrigger("x", "events = [after_create]"))
                        .errors(error("create")),
                PlanCase.of("an update fires before_update", A, withTrigger("y", "events = [before_update]"))
                        .errors(error("update")),
                PlanCase.of("an update does not fire create events", A, withTrigger("y", "events = [after_create]"))
                        .changes("fake_thing.a update"),
                PlanCase.of("a no-op fires nothing", A, withTrigger("x", "events = [after_create, after_update]")),
                PlanCase.of(
                                "a false condition fires nothing",
                                null,
                                withTrigger("x", "events = [after_create]\n      condition = self.value == \"z\""))
                        .changes("fake_thing.a create"),
                PlanCase.of(
                                "a true condition fires",
                                null,
                                withTrigger("x", "events = [after_create]\n      condition = self.value == \"x\""))
                        .errors(error("create")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plan(PlanCase c) {
        new EngineHarness(dir).check(c);
    }
}
