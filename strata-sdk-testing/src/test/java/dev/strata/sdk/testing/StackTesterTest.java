package dev.strata.sdk.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.sdk.Fn;
import dev.strata.sdk.Resource;
import dev.strata.sdk.Stack;
import dev.strata.sdk.StringValue;
import dev.strata.sdk.Variable;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackTesterTest {
    private static Stack stack() {
        Stack stack = new Stack();
        Variable env = stack.variable("env").type("string").defaultValue("dev");
        Resource net = stack.resource("terraform_data", "net").arg("input", Fn.template("net-", env.value()));
        Resource sub = stack.resource("terraform_data", "sub").count(2);
        sub.arg("input", Fn.template(net.attr("output").asString(), "-", sub.countIndex()));
        stack.output("env", env.value());
        stack.output("net_id", net.attr("id"));
        return stack;
    }

    @Test
    void synthesizeGivesTheJsonToAssertOn() {
        JsonNode json = StackTester.synthesize(stack());
        assertThat(json.at("/resource/terraform_data/net/input").asText()).isEqualTo("net-${var.env}");
        assertThat(json.at("/resource/terraform_data/sub/count").asInt()).isEqualTo(2);
    }

    @Test
    void synthesizeFailsWithTheProblemsAtTheProgramLine() {
        Stack stack = new Stack();
        stack.resource("terraform_data", "x");
        stack.resource("terraform_data", "x");
        assertThatThrownBy(() -> StackTester.synthesize(stack))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Duplicate resource \"terraform_data\" configuration")
                .hasMessageContaining("StackTesterTest.java:");
    }

    @Test
    void planRunsTheEngineInProcessAgainstTheBuiltInProviders() {
        PlannedStack plan = StackTester.plan(stack());
        assertThat(plan.addresses())
                .containsExactly("terraform_data.net", "terraform_data.sub[0]", "terraform_data.sub[1]");
        PlannedChange net = plan.change("terraform_data.net");
        assertThat(net.actions()).containsExactly("create");
        assertThat(net.attribute("input").asText()).isEqualTo("net-dev");
        assertThat(net.isUnknown("id")).isTrue();
        assertThat(net.isUnknown("output")).isTrue();
        // Known only after apply: the template over net's output.
        assertThat(plan.change("terraform_data.sub[1]").isUnknown("input")).isTrue();
        assertThat(plan.outputs().get("env").asText()).isEqualTo("dev");
        assertThat(plan.outputs().get("net_id").isNull()).isTrue();
    }

    @Test
    void planTakesVariablesAsTheCommandLineDoes() {
        PlannedStack plan = StackTester.plan(stack(), Map.of("env", "prod"));
        assertThat(plan.change("terraform_data.net").attribute("input").asText())
                .isEqualTo("net-prod");
    }

    @Test
    void aPlanErrorNamesTheProgramLineThroughTheSourceMap() {
        Stack stack = new Stack();
        stack.resource("terraform_data", "x").arg("input", StringValue.of("a")).arg("no_such_argument", "b");
        assertThatThrownBy(() -> StackTester.plan(stack))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no_such_argument")
                .hasMessageContaining("(written by StackTesterTest.java:");
    }
}
