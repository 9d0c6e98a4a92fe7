package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.Addrs;
import dev.strata.addr.Module;
import dev.strata.addr.Provider;
import dev.strata.cli.command.CommandContext;
import dev.strata.engine.Action;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.ResourceChange;
import dev.strata.engine.Schemas;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderRegistry;
import dev.strata.state.StateSnapshot;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What plan and apply show around the plan itself: the next step, the approval prompt, the JSON stream's rules. */
class OperationViewTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private OperationView view(boolean json, String stdin, Map<String, String> env) {
        CommandContext ctx = new CommandContext(
                Path.of("."),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                false,
                80,
                env,
                "test");
        return OperationView.of(
                ctx, json, new Schemas(ProviderRegistry.load(OperationViewTest.class.getClassLoader())));
    }

    private static Plan plan(Action... actions) {
        AbsProviderConfig data = new AbsProviderConfig(Module.ROOT, Provider.BUILTIN_TERRAFORM, null);
        List<ResourceChange> changes = java.util.stream.IntStream.range(0, actions.length)
                .mapToObj(i -> new ResourceChange(
                        Addrs.parseAbsResourceInstance("terraform_data.x" + i).value(),
                        null,
                        actions[i],
                        Value.NULL,
                        Value.NULL,
                        List.of(),
                        null,
                        data,
                        0,
                        null,
                        null,
                        null))
                .toList();
        return new Plan(
                PlanMode.NORMAL,
                StateSnapshot.empty("test"),
                new TreeMap<>(),
                changes,
                List.of(),
                List.of(),
                new TreeMap<>(),
                List.of(),
                Diagnostics.NONE,
                java.time.Instant.EPOCH);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void nextStepNamesTheSavedPlanOrWarnsThatThereIsNone() {
        view(false, "", Map.of()).nextStep(plan(Action.CREATE), Optional.of("tfplan"));
        assertThat(out())
                .isEqualTo("\n" + "─".repeat(77) + "\n\nSaved the plan to: tfplan\n\n"
                        + "To perform exactly these actions, run the following command to apply:\n"
                        + "    strata apply \"tfplan\"\n");
        out.reset();
        view(false, "", Map.of()).nextStep(plan(Action.CREATE), Optional.empty());
        assertThat(out())
                .isEqualTo("\n" + "─".repeat(77) + "\n\n"
                        + "Note: You didn't use the -out option to save this plan, so Strata can't\n"
                        + "guarantee to take exactly these actions if you run \"strata apply\" now.\n");
    }

    @Test
    void noNextStepForAnEmptyPlanInAutomationOrAsJson() {
        view(false, "", Map.of()).nextStep(plan(Action.NO_OP), Optional.empty());
        view(false, "", Map.of("TF_IN_AUTOMATION", "1")).nextStep(plan(Action.CREATE), Optional.of("tfplan"));
        assertThat(out()).isEmpty();
        view(true, "", Map.of()).nextStep(plan(Action.CREATE), Optional.of("tfplan"));
        assertThat(out().lines().toList()).singleElement().asString().contains("\"type\":\"version\"");
    }

    @Test
    void approvalNeedsExactlyYes() {
        assertThat(view(false, "yes\n", Map.of()).approve(PlanMode.NORMAL)).isTrue();
        assertThat(out())
                .contains(
                        "Do you want to perform these actions?",
                        "Only 'yes' will be accepted to approve.",
                        "  Enter a value: ");
        out.reset();
        assertThat(view(false, "y\n", Map.of()).approve(PlanMode.DESTROY)).isFalse();
        assertThat(out()).contains("Do you really want to destroy all resources?", "There is no undo.");
        assertThat(out() + err.toString(StandardCharsets.UTF_8))
                .contains("Destroy cancelled", "Only 'yes' approves the plan.");
    }

    @Test
    void theJsonStreamCannotAskForApproval() {
        assertThat(view(true, "yes\n", Map.of()).approve(PlanMode.NORMAL)).isFalse();
        List<String> lines = out().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("\"type\":\"version\"");
        assertThat(lines.get(1)).contains("\"type\":\"diagnostic\"", "Plan file or auto-approve required");
    }
}
