package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.Addrs;
import dev.strata.cli.command.CommandContext;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.engine.Action;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.RelevantAttributes;
import dev.strata.engine.ResourceChange;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.state.StateSnapshot;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drift in a plan as Terraform (1.2+) shows it: a normal plan shows only the drift of attributes that
 * contribute to its changes (its {@code relevant_attributes}), a refresh-only plan all of it; the
 * {@code -json} stream has a {@code resource_drift} message for every drifted object. The values are those
 * of the AWS provider 5.100 on the simulator: a parameter created without tags reads back {@code tags = {}}
 * for the stored null, which Terraform too reports in a refresh-only plan and nowhere else.
 */
class RelevantDriftTest {
    private static final AbsProviderConfig AWS = AbsProviderConfig.parse(
                    "provider[\"registry.terraform.io/hashicorp/aws\"]")
            .value();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private ConfigTree tree;

    @BeforeEach
    void config() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "aws_ssm_parameter" "p" {
                  name = "/p"
                }
                locals {
                  v = tostring(aws_ssm_parameter.p.version)
                }
                resource "aws_ssm_parameter" "q" {
                  name           = "/q"
                  insecure_value = local.v
                }
                resource "aws_ssm_parameter" "s" {
                  name = "/s"
                }
                resource "aws_ssm_parameter" "r" {
                  name        = "/r"
                  description = aws_ssm_parameter.s.tags["team"]
                }
                """);
        tree = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT).value();
    }

    private static Value param(String name, Value tags, long version, String description) {
        return Value.objectOf(
                "id", Value.string(name),
                "name", Value.string(name),
                "description", Value.string(description),
                "tags", tags,
                "version", Value.number(version),
                // Sensitive and null, as the provider reads it back for a parameter set through insecure_value.
                "value", Value.nullValue(Type.STRING).mark(Mark.SENSITIVE));
    }

    private static ResourceChange change(String addr, Action a, Value before, Value after) {
        return new ResourceChange(
                Addrs.parseAbsResourceInstance(addr).value(),
                null,
                a,
                before,
                after,
                List.of(),
                null,
                AWS,
                0,
                null,
                null,
                null);
    }

    private static final Value NO_TAGS = Value.nullValue(Type.map(Type.STRING));
    private static final Value EMPTY_TAGS = Value.map(Type.STRING, Map.of());

    /**
     * p: tags read back as {}, version and description changed outside; s: tags read back as {}; t deleted
     * outside (nothing refers to it: Terraform leaves it out of a normal plan's drift too).
     */
    private static List<ResourceChange> drift() {
        return List.of(
                change(
                        "aws_ssm_parameter.p",
                        Action.UPDATE,
                        param("/p", NO_TAGS, 1, "as configured"),
                        param("/p", EMPTY_TAGS, 2, "edited outside")),
                change(
                        "aws_ssm_parameter.s",
                        Action.UPDATE,
                        param("/s", NO_TAGS, 1, ""),
                        param("/s", EMPTY_TAGS, 1, "")),
                change(
                        "aws_ssm_parameter.t",
                        Action.DELETE,
                        param("/t", NO_TAGS, 1, ""),
                        Value.nullValue(param("/t", NO_TAGS, 1, "").type())));
    }

    private Plan plan(PlanMode mode, Action q) {
        return plan(mode, q, drift());
    }

    private Plan plan(PlanMode mode, Action q, List<ResourceChange> drift) {
        Value qv = param("/q", NO_TAGS, 1, "");
        List<ResourceChange> changes =
                List.of(change("aws_ssm_parameter.q", q, qv, qv), change("aws_ssm_parameter.r", Action.NO_OP, qv, qv));
        StateSnapshot prior = StateSnapshot.empty("test");
        return new Plan(
                mode,
                prior,
                new TreeMap<>(),
                changes,
                drift,
                List.of(),
                new TreeMap<>(),
                List.of(),
                Diagnostics.NONE,
                Instant.EPOCH,
                RelevantAttributes.of(tree, changes));
    }

    private ByteArrayOutputStream out;

    private CommandContext terminal() {
        out = new ByteArrayOutputStream();
        return new CommandContext(
                dir,
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()),
                false,
                80,
                Map.of(),
                "test");
    }

    @Test
    void driftNothingDependsOnIsNotShownInANormalPlan() {
        String text = new PlanView(terminal()).render(plan(PlanMode.NORMAL, Action.NO_OP));
        assertThat(text)
                .doesNotContain("Objects have changed outside")
                .contains("No changes. Your infrastructure matches the configuration.");
        assertThat(plan(PlanMode.NORMAL, Action.NO_OP).relevantAttributes().all())
                .isEmpty();
    }

    @Test
    void onlyTheAttributesAChangeDependsOnAreShownAsChanged() {
        Plan plan = plan(PlanMode.NORMAL, Action.UPDATE);
        assertThat(plan.relevantAttributes().all())
                .as("q's insecure_value comes from p.version through local.v; r does not change")
                .containsExactly(new RelevantAttributes.Attr("aws_ssm_parameter.p", List.of("version")));
        String text = new PlanView(terminal()).render(plan);
        String drift = text.substring(0, text.indexOf("Unless you have made"));
        assertThat(drift)
                .contains("Note: Objects have changed outside of Strata")
                .contains("  # aws_ssm_parameter.p has changed\n")
                .contains("      ~ version     = 1 -> 2\n")
                .doesNotContain("aws_ssm_parameter.s")
                .doesNotContain("aws_ssm_parameter.t")
                .doesNotContain("+ tags")
                .doesNotContain("edited outside")
                .endsWith("    }\n\n\n");
    }

    @Test
    void aRefreshOnlyPlanShowsAllDriftAsTerraformDoes() {
        String text = new PlanView(terminal()).render(plan(PlanMode.REFRESH_ONLY, Action.NO_OP));
        assertThat(text)
                .contains("  # aws_ssm_parameter.p has changed\n")
                .contains("  # aws_ssm_parameter.s has changed\n")
                .contains("  # aws_ssm_parameter.t has been deleted\n")
                .as("the sensitive null value is not counted, as in Terraform")
                .contains("  # aws_ssm_parameter.s has changed\n"
                        + "  ~ resource \"aws_ssm_parameter\" \"s\" {\n"
                        + "        id          = \"/s\"\n"
                        + "        name        = \"/s\"\n"
                        + "      + tags        = {}\n"
                        + "        # (2 unchanged attributes hidden)\n"
                        + "    }\n")
                .contains("      + tags        = {}\n")
                .contains("    }\n\n\nThis is a refresh-only plan")
                .as("the next-step hint draws the rule")
                .doesNotContain("─");
    }

    @Test
    void thePlanJsonListsTheRelevantAttributesAndTheStreamEveryDriftedObject() throws Exception {
        JsonNode doc = PlanJson.of(plan(PlanMode.NORMAL, Action.UPDATE), tree, "1.11.4");
        assertThat(doc.path("relevant_attributes").toString())
                .isEqualTo("[{\"resource\":\"aws_ssm_parameter.p\",\"attribute\":[\"version\"]}]");
        assertThat(doc.path("resource_drift")).hasSize(3);
        assertThat(doc.at("/resource_drift/0/change/after_unknown").toString())
                .as("a wholly known object: no empty shapes for its tags, as Terraform writes it")
                .isEqualTo("{}");
        assertThat(PlanJson.of(plan(PlanMode.NORMAL, Action.NO_OP), tree, "1.11.4")
                        .has("relevant_attributes"))
                .as("left out when nothing contributes, as Terraform does")
                .isFalse();

        new PlanJsonView(terminal()).changes(plan(PlanMode.NORMAL, Action.NO_OP));
        List<String> drifts = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            JsonNode m = JSON.readTree(line);
            if (m.path("type").asText().equals("resource_drift")) {
                drifts.add(m.path("@message").asText() + " "
                        + m.path("change").path("action").asText() + " "
                        + m.path("change").path("resource").path("addr").asText());
            }
        }
        assertThat(drifts)
                .containsExactly(
                        "aws_ssm_parameter.p: Drift detected (update) update aws_ssm_parameter.p",
                        "aws_ssm_parameter.s: Drift detected (update) update aws_ssm_parameter.s",
                        "aws_ssm_parameter.t: Drift detected (delete) delete aws_ssm_parameter.t");
    }

    /**
     * The AWS provider reads a parameter's value back as a sensitive null while nothing sets it; set
     * outside, Terraform shows it added ({@code +}), not changed, and a value removed outside as removed.
     */
    @Test
    void aSensitiveValueSetOrRemovedOutsideIsShownAddedOrRemovedAsTerraformDoes() {
        Value before = param("/s", NO_TAGS, 1, "");
        Map<String, Value> set = new java.util.LinkedHashMap<>(before.attributes());
        set.put("value", Value.string("set outside").mark(Mark.SENSITIVE));
        Value after = Value.object(set);
        String added = new PlanView(terminal())
                .render(plan(
                        PlanMode.REFRESH_ONLY,
                        Action.NO_OP,
                        List.of(change("aws_ssm_parameter.s", Action.UPDATE, before, after))));
        assertThat(added).contains("      + value       = (sensitive value)\n").doesNotContain("~ value");
        String removed = new PlanView(terminal())
                .render(plan(
                        PlanMode.REFRESH_ONLY,
                        Action.NO_OP,
                        List.of(change("aws_ssm_parameter.s", Action.UPDATE, after, before))));
        assertThat(removed)
                .contains("      - value       = (sensitive value) -> null\n")
                .doesNotContain("~ value");
    }

    /** A plan that does not know its relevant attributes (an older plan file) shows all of its drift. */
    @Test
    void aPlanWithoutRelevantAttributesShowsAllDrift() {
        Plan known = plan(PlanMode.NORMAL, Action.UPDATE);
        Plan unknown = new Plan(
                known.mode(),
                known.priorState(),
                known.variables(),
                known.changes(),
                known.drift(),
                known.deferred(),
                known.outputs(),
                known.targets(),
                known.diagnostics(),
                known.timestamp());
        assertThat(unknown.relevantAttributes().isKnown()).isFalse();
        assertThat(new PlanView(terminal()).render(unknown))
                .contains("  # aws_ssm_parameter.s has changed\n")
                .contains("  # aws_ssm_parameter.t has been deleted\n");
        assertThat(PlanJson.of(unknown, tree, "1.11.4").has("relevant_attributes"))
                .isFalse();
    }
}
