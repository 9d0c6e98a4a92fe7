package dev.strata.stacks.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Severity;
import dev.strata.stacks.runtime.TestingProvider;
import dev.strata.stacks.runtime.TestingProviderSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every stack configuration HashiCorp's Stacks tests use (read in place from
 * {@code shared/reference/terraform-stacks}; skipped when absent) loads and validates with the
 * outcome its Go test expects: no diagnostics, or the same diagnostics by severity, summary and
 * range. {@code docs/stacks.md} lists the same table.
 */
class ReferenceConformanceTest {

    static Path reference() {
        return Path.of(System.getProperty("strata.shared.dir", "../../shared"), "reference", "terraform-stacks");
    }

    /** Whether the Go test checks loading only (stackconfig's LoadConfigDir) or validation too. */
    enum Phase {
        LOAD,
        VALIDATE
    }

    /** One expected diagnostic; {@code file} null for Terraform's sourceless ones (no range compared). */
    record Want(
            Severity severity, String summary, String file, int line, int col, int endLine, int endCol, String detail) {
        static Want error(String summary, String file, int line, int col, int endLine, int endCol) {
            return new Want(Severity.ERROR, summary, file, line, col, endLine, endCol, null);
        }

        static Want sourceless(String summary, String detail) {
            return new Want(Severity.ERROR, summary, null, 0, 0, 0, 0, detail);
        }

        Want detail(String d) {
            return new Want(severity, summary, file, line, col, endLine, endCol, d);
        }

        boolean matches(Diagnostic d) {
            if (d.severity() != severity || !d.summary().equals(summary)) {
                return false;
            }
            if (detail != null && !d.detail().equals(detail)) {
                return false;
            }
            if (file == null) {
                return true;
            }
            return d.subject() != null
                    && d.subject().filename().endsWith(file)
                    && d.subject().start().line() == line
                    && d.subject().start().column() == col
                    && d.subject().end().line() == endLine
                    && d.subject().end().column() == endCol;
        }
    }

    record Case(String dir, Phase phase, List<Want> want) {
        Case(String dir, Phase phase, Want... want) {
            this(dir, phase, List.of(want));
        }

        @Override
        public String toString() {
            return dir;
        }
    }

    private static final String MB = "stackruntime/testdata/mainbundle/test/";
    private static final String SC = "stackconfig/testdata/";

    static List<Case> cases() {
        List<Case> l = new ArrayList<>();
        // stackconfig's LoadConfigDir tests
        l.add(new Case(SC + "basics-bundle/root", Phase.LOAD));
        l.add(new Case(SC + "basics-bundle/builtin", Phase.LOAD));
        l.add(new Case(SC + "embedded-stack-bundle/root", Phase.LOAD));
        l.add(new Case(
                SC + "basics-bundle/errored",
                Phase.LOAD,
                Want.sourceless(
                        "Component exists for removed block",
                        "A removed block for component \"a\" was declared without an index, but a component block "
                                + "with the same name was declared at main.tfcomponent.hcl:10,1-14.\n\nA removed "
                                + "block without an index indicates that the component and all instances were "
                                + "removed from the configuration, and this is not the case."),
                Want.sourceless("Invalid for_each expression", null),
                Want.sourceless("Invalid for_each expression", null)));
        l.add(new Case(
                SC + "basics-bundle/errored-sources",
                Phase.LOAD,
                Want.sourceless("Invalid removed block", null),
                Want.sourceless("Invalid source address", null),
                Want.sourceless("Invalid source address", null)));

        // validate_test.go: validConfigurations
        for (String valid : List.of(
                "empty",
                "plan-variable-defaults",
                "variable-output-roundtrip",
                "variable-output-roundtrip-nested",
                "aliased-provider",
                "planning-action-lifecycle",
                "with-single-input/input-from-component",
                "with-single-input/input-from-component-list",
                "with-single-input/provider-name-clash",
                "with-single-input/valid",
                "with-single-input/provider-for-each",
                "legacy-module/with-hashicorp-provider")) {
            l.add(new Case(MB + valid, Phase.VALIDATE));
        }
        // validate_test.go: invalidConfigurations and TestValidate
        l.add(new Case(
                MB + "const-variable-in-component",
                Phase.VALIDATE,
                Want.error("Const variable not supported in stacks", "const-variable-in-component.tf", 10, 1, 10, 17)));
        l.add(new Case(
                MB + "validate-undeclared-variable",
                Phase.VALIDATE,
                Want.error(
                                "Reference to undeclared input variable",
                                "validate-undeclared-variable.tfcomponent.hcl",
                                3,
                                11,
                                3,
                                16)
                        .detail("There is no variable \"a\" block declared in this stack.")));
        String up = "undeclared-provider.tfcomponent.hcl";
        l.add(new Case(
                MB + "with-single-input/undeclared-provider",
                Phase.VALIDATE,
                Want.error("Reference to undeclared provider configuration", up, 10, 15, 10, 39),
                Want.error("Reference to undeclared provider configuration", up, 25, 15, 25, 39)));
        String mp = "missing-provider.tfcomponent.hcl";
        l.add(new Case(
                MB + "with-single-input/missing-provider",
                Phase.VALIDATE,
                Want.error("Missing required provider configuration", mp, 25, 1, 25, 8)
                        .detail("The root module for component.removed requires a provider configuration named "
                                + "\"testing\" for provider \"hashicorp/testing\", which is not assigned in the "
                                + "block's \"providers\" argument."),
                Want.error("Missing required provider configuration", mp, 14, 1, 14, 17)));
        String ipt = "invalid-provider-type.tfcomponent.hcl";
        String iptDetail = "The provider configuration slot \"testing\" requires a configuration for provider "
                + "\"registry.terraform.io/hashicorp/testing\", not for provider \"terraform.io/builtin/testing\".";
        l.add(new Case(
                MB + "with-single-input/invalid-provider-type",
                Phase.VALIDATE,
                Want.error("Invalid provider configuration", ipt, 22, 15, 22, 39)
                        .detail(iptDetail),
                Want.error("Invalid provider configuration", ipt, 37, 15, 37, 39)
                        .detail(iptDetail)));
        l.add(new Case(
                MB + "with-single-input/undeclared-variable",
                Phase.VALIDATE,
                Want.error(
                        "Reference to undeclared input variable",
                        "undeclared-variable.tfcomponent.hcl",
                        19,
                        13,
                        19,
                        22)));
        l.add(new Case(
                MB + "with-single-input/missing-variable",
                Phase.VALIDATE,
                Want.error("Invalid inputs for component", "missing-variable.tfcomponent.hcl", 22, 12, 22, 14)
                        .detail("Invalid input variable definition object: attribute \"input\" is required.")));
        l.add(new Case(
                MB + "with-single-input/input-from-missing-component",
                Phase.VALIDATE,
                Want.error(
                                "Reference to undeclared component",
                                "input-from-missing-component.tfcomponent.hcl",
                                19,
                                13,
                                19,
                                29)
                        .detail("There is no component \"output\" block declared in this stack.")));
        l.add(new Case(
                MB + "with-single-input/input-from-provider",
                Phase.VALIDATE,
                Want.error("Invalid inputs for component", "input-from-provider.tfcomponent.hcl", 17, 12, 20, 4)
                        .detail("Invalid input variable definition object: attribute \"input\": string required, "
                                + "but have configuration for hashicorp/testing provider.")));
        String doi = "depends-on-invalid.tfcomponent.hcl";
        l.add(new Case(
                MB + "with-single-input/depends-on-invalid",
                Phase.VALIDATE,
                Want.error("Invalid depends_on target", doi, 22, 17, 22, 26),
                Want.error("Invalid depends_on target", doi, 37, 17, 37, 26),
                Want.error("Invalid depends_on target", doi, 22, 28, 22, 45)
                        .detail("The depends_on reference \"component.missing\" does not exist."),
                Want.error("Invalid depends_on target", doi, 37, 28, 37, 41),
                new Want(
                        Severity.WARNING,
                        "Non-valid depends_on target",
                        doi,
                        52,
                        17,
                        52,
                        32,
                        "The depends_on argument should refer directly to an embedded stack or component in "
                                + "configuration, but this reference is too deep.\n\nTerraform Stacks has simplified "
                                + "the reference to the nearest valid target, \"component.first\". To remove this "
                                + "warning, update the configuration to the same target.")));
        l.add(new Case(
                MB + "validate-embedded-stack-selfref",
                Phase.VALIDATE,
                Want.sourceless(
                        "Self-dependent items in configuration",
                        "The following items in your configuration form a circular dependency chain through their "
                                + "references:\n  - stack.a collected outputs\n  - stack.a.output.a\n"
                                + "  - stack.a inputs\n\nTerraform uses references to decide a suitable order for "
                                + "performing operations, so configuration items may not refer to their own results "
                                + "either directly or indirectly.")));
        l.add(new Case(
                MB + "validate-cyclic-dependency",
                Phase.VALIDATE,
                Want.sourceless(
                        "Self-dependent items in configuration",
                        "The following items in your configuration form a circular dependency chain through their "
                                + "references:\n  - component.boundary\n  - component.vault-config\n\nTerraform "
                                + "uses references to decide a suitable order for performing operations, so "
                                + "configuration items may not refer to their own results either directly or "
                                + "indirectly.")));
        l.add(new Case(
                MB + "legacy-module/with-non-hashicorp-provider",
                Phase.VALIDATE,
                Want.error(
                                "Invalid provider configuration",
                                "with-non-hashicorp-provider.tfcomponent.hcl",
                                21,
                                15,
                                21,
                                39)
                        .detail("The provider configuration slot \"testing\" requires a configuration for provider "
                                + "\"registry.terraform.io/hashicorp/testing\", not for provider "
                                + "\"registry.terraform.io/other/testing\".\n\nThe module does not declare a source "
                                + "address for \"testing\" in its required_providers block, so Terraform assumed "
                                + "\"hashicorp/testing\" for backward-compatibility with older versions of "
                                + "Terraform")));
        l.add(new Case(
                MB + "with-single-input/invalid-provider-config",
                Phase.VALIDATE,
                Want.error("Unsupported argument", "invalid-provider-config.tfcomponent.hcl", 11, 5, 11, 14)
                        .detail("An argument named \"imaginary\" is not expected here.")));
        // validate_test.go: a resource argument the provider's schema lacks (the testing provider's schema,
        // given in test scope)
        l.add(new Case(
                MB + "invalid-configuration",
                Phase.VALIDATE,
                Want.error("Unsupported argument", "invalid-configuration.tf", 11, 3, 11, 10)
                        .detail("An argument named \"invalid\" is not expected here.")));
        // plan_test.go: problems its plan reports that are static, so Strata's validate reports them
        l.add(new Case(
                MB + "plan-undeclared-variable-in-component",
                Phase.VALIDATE,
                Want.error(
                        "Reference to undeclared input variable",
                        "undeclared-variable.tfcomponent.hcl",
                        17,
                        13,
                        17,
                        22)));
        l.add(new Case(
                MB + "with-single-input/orphaned-component",
                Phase.VALIDATE,
                Want.error("Invalid removed block", "orphaned-component.tfcomponent.hcl", 10, 1, 10, 8)));
        return l;
    }

    static Diagnostics outcome(Path dir, Phase phase) {
        var loaded = StackLoader.load(dir);
        Diagnostics ds = loaded.diagnostics();
        if (phase == Phase.VALIDATE) {
            ds = ds.with(StackValidator.validate(loaded.value()));
            var deployments = DeploymentLoader.load(dir);
            ds = ds.with(deployments.diagnostics())
                    .with(StackValidator.validateDeployments(deployments.value(), loaded.value()));
            // What the runtime finds in the testing provider's config blocks before it configures them,
            // and in the component modules' resources, with that provider's schemas (it exists only in
            // Terraform's test suite).
            ds = ds.with(TestingProviderSchema.configBodies(loaded.value()));
            if (!ds.hasErrors()) {
                // As Terraform, the modules are checked against provider schemas once the stack is valid.
                ds = ds.with(dev.strata.stacks.runtime.ComponentModuleChecks.validate(
                        loaded.value(), TestingProvider.source(), dir, "1.14.0"));
            }
        }
        return ds;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesTerraform(Case c) {
        Path dir = reference().resolve(c.dir());
        assumeTrue(Files.isDirectory(dir), "reference configurations not present");
        Diagnostics got = outcome(dir, c.phase());
        List<Diagnostic> unmatched = new ArrayList<>(got.asList());
        List<Want> missing = new ArrayList<>();
        for (Want w : c.want()) {
            Diagnostic hit = unmatched.stream().filter(w::matches).findFirst().orElse(null);
            if (hit == null) {
                missing.add(w);
            } else {
                unmatched.remove(hit);
            }
        }
        assertThat(missing).as("expected diagnostics not reported; got %s", got).isEmpty();
        assertThat(unmatched).as("unexpected diagnostics").isEmpty();
    }

    /**
     * Every other configuration of the main bundle (the ones the plan and apply tests use, and the
     * stacks they embed) is valid: their Go tests expect no static problems.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("otherRoots")
    void otherConfigurationsAreValid(String rel) {
        assumeTrue(Files.isDirectory(reference()), "reference configurations not present");
        Diagnostics got = outcome(reference().resolve(rel), Phase.VALIDATE);
        assertThat(got.asList()).as(rel).isEmpty();
    }

    static List<String> otherRoots() throws IOException {
        Path ref = reference();
        if (!Files.isDirectory(ref)) {
            // One invocation that is skipped, rather than none: JUnit fails a parameterized test without any.
            return List.of("(reference configurations not present)");
        }
        Set<String> named = new TreeSet<>();
        cases().forEach(c -> named.add(c.dir()));
        return roots(ref).stream().filter(r -> !named.contains(r)).toList();
    }

    /**
     * Every directory of the main bundle holding stack files, the embedded stacks' too: each is a
     * stack configuration that loads and validates on its own.
     */
    static List<String> roots(Path ref) throws IOException {
        try (Stream<Path> s = Files.walk(ref)) {
            return s.filter(p -> StackFiles.isStackFile(p.getFileName().toString()))
                    .map(p -> ref.relativize(p.getParent()).toString().replace('\\', '/'))
                    .filter(rel -> rel.startsWith(MB))
                    .distinct()
                    .sorted()
                    .toList();
        }
    }
}
