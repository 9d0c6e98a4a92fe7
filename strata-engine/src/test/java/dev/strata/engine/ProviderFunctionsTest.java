package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.config.ConfigTree;
import dev.strata.config.Validator;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Provider-defined functions ({@code provider::NAME::FUNC}) in plan and apply, against a fake provider. */
class ProviderFunctionsTest {
    @TempDir
    Path dir;

    private final FakeProvider fake = new FakeProvider();
    private final FunctionProvider fn = new FunctionProvider();
    private EngineHarness h;

    @BeforeEach
    void harness() {
        h = new EngineHarness(dir, fake, fn.factory()).header("""
                terraform {
                  required_providers {
                    fake = { source = "example.com/test/fake" }
                    loud = { source = "example.com/test/fn" }
                  }
                }
                """);
    }

    private ConfigTree config(String tf) {
        return h.config(tf);
    }

    private Result<Plan> plan(ConfigTree tree) {
        return h.plan(tree);
    }

    private static List<Diagnostic> errors(Diagnostics ds) {
        return EngineHarness.errors(ds);
    }

    @Test
    void functionsEvaluateInPlanAndApplyWithUnknownsAndSensitiveMarks() throws IOException {
        ConfigTree tree = config("""
                resource "fake_thing" "a" { value = provider::loud::shout("x") }
                output "shouted" { value = provider::loud::shout("hello") }
                output "echoed"  { value = provider::loud::echo({ n = 1, l = ["a"] }) }
                output "later"   { value = provider::loud::shout(fake_thing.a.id) }
                output "secret" {
                  value     = provider::loud::shout(sensitive("psst"))
                  sensitive = true
                }
                """);
        Result<Plan> plan = plan(tree);
        assertThat(plan.value()).as(plan.diagnostics().toString()).isNotNull();
        var outputs = plan.value().outputs();
        assertThat(outputs.get("shouted").after()).isEqualTo(Value.string("HELLO"));
        Value echoed = outputs.get("echoed").after();
        assertThat(echoed.attributes().get("n")).isEqualTo(Value.number(1));
        assertThat(echoed.attributes().get("l").elements()).containsExactly(Value.string("a"));
        // An unknown argument gives an unknown result of the return type, without calling the provider.
        assertThat(outputs.get("later").after()).isEqualTo(Value.unknown(Type.STRING));
        assertThat(outputs.get("secret").after().hasMarkDeep(Mark.SENSITIVE)).isTrue();
        assertThat(plan.value().changes().getFirst().after().attributes().get("value"))
                .isEqualTo(Value.string("X"));
        // One instance for every function call of the run, whatever the number of calls.
        assertThat(fn.created).hasValue(1);

        Result<ApplyResult> applied = h.apply(tree, plan.value());
        assertThat(errors(applied.diagnostics())).isEmpty();
        var stateOutputs = applied.value().state().outputs();
        assertThat(stateOutputs.get("later").value().toString()).contains("THING-1");
        assertThat(stateOutputs.get("secret").sensitive()).isTrue();
    }

    @Test
    void aSensitiveArgumentMakesTheOutputNeedSensitive() throws IOException {
        Result<Plan> plan = plan(config("""
                output "secret" { value = provider::loud::shout(sensitive("psst")) }
                """));
        assertThat(errors(plan.diagnostics()))
                .extracting(Diagnostic::summary)
                .containsExactly("Output refers to sensitive values");
    }

    @Test
    void providerErrorsBecomeDiagnosticsAtTheCallOrTheArgument() throws IOException {
        Result<Plan> plan = plan(config("""
                output "arg"  { value = provider::loud::shout(" ") }
                output "call" { value = provider::loud::check("a") }
                """));
        List<Diagnostic> errs = errors(plan.diagnostics());
        assertThat(errs).hasSize(2);
        Diagnostic arg = errs.stream()
                .filter(d -> d.summary().equals("Invalid function argument"))
                .findFirst()
                .orElseThrow();
        assertThat(arg.detail()).isEqualTo("Invalid value for \"text\" parameter: text must not be blank.");
        // As HCL: the start of the argument, here the string inside the quotes.
        String line = "output \"arg\"  { value = provider::loud::shout(\" \") }";
        int argColumn = line.indexOf("\" \"") + 2;
        assertThat(arg.subject().start().column()).isEqualTo(argColumn);
        assertThat(arg.subject().end().column()).isEqualTo(argColumn + 1);
        Diagnostic call = errs.stream()
                .filter(d -> d.summary().equals("Error in function call"))
                .findFirst()
                .orElseThrow();
        assertThat(call.detail()).isEqualTo("Call to function \"provider::loud::check\" failed: nothing passes.");
        // As HCL: the call's own failure points at the name and the opening parenthesis.
        String callLine = "output \"call\" { value = provider::loud::check(\"a\") }";
        assertThat(call.subject().start().column()).isEqualTo(callLine.indexOf("provider") + 1);
        assertThat(call.subject().end().column()).isEqualTo(callLine.indexOf("(") + 2);
    }

    @Test
    void unknownFunctionsAndUndeclaredProvidersAreReportedAsTerraformDoes() throws IOException {
        Result<Plan> plan = plan(config("""
                output "nope"  { value = provider::loud::nope(1) }
                output "other" { value = provider::fn::shout("a") }
                """));
        List<Diagnostic> errs = errors(plan.diagnostics());
        assertThat(errs).extracting(Diagnostic::summary).containsOnly("Unknown provider function");
        assertThat(errs)
                .extracting(Diagnostic::detail)
                .containsExactlyInAnyOrder(
                        "The function \"nope\" is not available from the provider \"loud\".",
                        "There is no function named \"provider::fn::shout\". Ensure that provider name \"fn\" is declared in "
                                + "this module's required_providers block, and that this provider offers a function named "
                                + "\"shout\".");
    }

    @Test
    void aProviderWhoseFunctionsAreNotCalledIsNotStarted() throws IOException {
        Result<Plan> plan = plan(config("output \"x\" { value = upper(\"a\") }\n"));
        assertThat(plan.value()).as(plan.diagnostics().toString()).isNotNull();
        assertThat(fn.created).hasValue(0);
    }

    @Test
    void aChildModuleUsesItsOwnLocalNames() throws IOException {
        Files.createDirectories(dir.resolve("child"));
        Files.writeString(dir.resolve("child/main.tf"), """
                terraform {
                  required_providers {
                    shouter = { source = "example.com/test/fn" }
                  }
                }
                output "v" { value = provider::shouter::shout("child") }
                """);
        Result<Plan> plan = plan(config("""
                module "c" { source = "./child" }
                output "v" { value = module.c.v }
                """));
        assertThat(plan.value()).as(plan.diagnostics().toString()).isNotNull();
        assertThat(plan.value().outputs().get("v").after()).isEqualTo(Value.string("CHILD"));
    }

    @Test
    void validationTypeChecksProviderFunctionsWithEachModulesTable() throws IOException {
        ConfigTree tree = config("""
                output "ok"  { value = provider::loud::shout("a") }
                output "bad" { value = provider::loud::nope("a") }
                """);
        assertThat(errors(Validator.validate(tree)))
                .extracting(Diagnostic::summary)
                .containsOnly("Unknown provider function")
                .hasSize(2);
        try (ProviderFunctions functions = new ProviderFunctions(h.registry())) {
            List<Diagnostic> errs = errors(Validator.validate(tree, functions.tables(tree)));
            assertThat(errs)
                    .extracting(Diagnostic::detail)
                    .containsExactly("The function \"nope\" is not available from the provider \"loud\".");
        }
    }
}
