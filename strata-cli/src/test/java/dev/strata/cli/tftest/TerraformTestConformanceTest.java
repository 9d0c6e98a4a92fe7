package dev.strata.cli.tftest;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Terraform's own {@code terraform test} suite as the conformance suite of {@code strata test}: every
 * row of {@code TestTest_Runs} in {@code ../shared/reference/terraform-test/test_test.go}, transcribed
 * as data (scenario, arguments, environment, text expected in stdout and stderr, exit status, objects
 * left behind), run in-process against the scenario directory read in place (copied to a temporary
 * directory, as the Go test does) with the {@link TestProvider} standing in for Terraform's test
 * provider. Skips when the reference is absent.
 *
 * <p>Terraform's messages name the product; Strata's say "Strata" where Terraform says "Terraform".
 * Rows listed in {@link #KNOWN} do not conform yet, for the reason given there (and in
 * docs/tftest.md); they still run, and one that starts passing fails the test so the list stays true.
 */
class TerraformTestConformanceTest {

    record Row(
            String name,
            String override,
            List<String> args,
            Map<String, String> env,
            List<String> out,
            List<String> err,
            int code,
            int initCode,
            int resources) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Row row(
            String name,
            String override,
            List<String> args,
            Map<String, String> env,
            List<String> out,
            List<String> err,
            int code,
            int initCode,
            int resources) {
        return new Row(name, override, args, env, out, err, code, initCode, resources);
    }

    /** The rows of TestTest_Runs, in the Go test's order. */
    static final List<Row> ROWS = List.of(
            row("simple_pass", null, List.of(), Map.of(), List.of("1 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "top-dir-only-test-files",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "top-dir-only-nested-test-files",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row("simple_pass_nested", null, List.of(), Map.of(), List.of("1 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "simple_pass_count",
                    null,
                    List.of("-run-parallelism", "1"),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "simple_pass_nested_alternate",
                    null,
                    List.of("-test-directory", "other"),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "simple_pass_very_nested",
                    null,
                    List.of("-test-directory", "tests/subdir"),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "simple_pass_cmd_parallel",
                    "simple_pass",
                    List.of("-parallelism", "1"),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "simple_pass_very_nested_alternate",
                    "simple_pass_very_nested",
                    List.of("-test-directory", "./tests/subdir"),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "simple_pass_bad_test_directory",
                    "simple_pass",
                    List.of("-test-directory", "../tests"),
                    Map.of(),
                    List.of(),
                    List.of("Invalid testing directory"),
                    1,
                    0,
                    0),
            row(
                    "simple_pass_bad_test_directory_abs",
                    "simple_pass",
                    List.of("-test-directory", "/home/username/config/tests"),
                    Map.of(),
                    List.of(),
                    List.of("Invalid testing directory"),
                    1,
                    0,
                    0),
            row("pass_with_locals", null, List.of(), Map.of(), List.of("1 passed, 0 failed."), List.of(), 0, 0, 0),
            row("pass_with_outputs", null, List.of(), Map.of(), List.of("1 passed, 0 failed."), List.of(), 0, 0, 0),
            row("pass_with_variables", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row("plan_then_apply", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "expect_failures_checks",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "expect_failures_inputs",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "expect_failures_resources",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "expect_failures_outputs",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "expect_failures_checks_verbose",
                    "expect_failures_checks",
                    List.of("-verbose"),
                    Map.of(),
                    List.of("1 passed, 0 failed.", "Warning: Check block assertion failed"),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "expect_failures_inputs_verbose",
                    "expect_failures_inputs",
                    List.of("-verbose"),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of("Error: Invalid value for variable"),
                    0,
                    0,
                    0),
            row(
                    "expect_failures_resources_verbose",
                    "expect_failures_resources",
                    List.of("-verbose"),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of("Error: Resource postcondition failed"),
                    0,
                    0,
                    0),
            row(
                    "expect_failures_outputs_verbose",
                    "expect_failures_outputs",
                    List.of("-verbose"),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of("Error: Module output value precondition failed"),
                    0,
                    0,
                    0),
            row("multiple_files", null, List.of(), Map.of(), List.of("2 passed, 0 failed"), List.of(), 0, 0, 0),
            row(
                    "multiple_files_with_filter",
                    "multiple_files",
                    List.of("-filter=one.tftest.hcl"),
                    Map.of(),
                    List.of("1 passed, 0 failed"),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "multiple_files_with_invalid_filter",
                    "multiple_files",
                    List.of("-filter=nonexistent.tftest.hcl"),
                    Map.of(),
                    List.of("Success! 0 passed, 0 failed.", "Warning: Unknown test file"),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "no_state",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("0 passed, 1 failed"),
                    List.of("apply_fail is set to true"),
                    1,
                    0,
                    0),
            row("variables", null, List.of(), Map.of(), List.of("2 passed, 0 failed"), List.of(), 0, 0, 0),
            row(
                    "variables_overridden",
                    "variables",
                    List.of("-var=input=foo"),
                    Map.of(),
                    List.of("1 passed, 1 failed"),
                    List.of("invalid value"),
                    1,
                    0,
                    0),
            row(
                    "simple_fail",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("0 passed, 1 failed."),
                    List.of("invalid value", "│ - \"bar\"\n    │ + \"zap\""),
                    1,
                    0,
                    0),
            row(
                    "custom_condition_checks",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("0 passed, 1 failed."),
                    List.of("this really should fail"),
                    1,
                    0,
                    0),
            row(
                    "custom_condition_inputs",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("0 passed, 1 failed."),
                    List.of("this should definitely fail"),
                    1,
                    0,
                    0),
            row(
                    "custom_condition_outputs",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("0 passed, 1 failed."),
                    List.of("this should fail"),
                    1,
                    0,
                    0),
            row(
                    "custom_condition_resources",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("0 passed, 1 failed."),
                    List.of("this really should fail"),
                    1,
                    0,
                    0),
            row("no_providers_in_main", null, List.of(), Map.of(), List.of("1 passed, 0 failed"), List.of(), 0, 0, 0),
            row("default_variables", null, List.of(), Map.of(), List.of("1 passed, 0 failed."), List.of(), 0, 0, 0),
            row("undefined_variables", null, List.of(), Map.of(), List.of("1 passed, 0 failed."), List.of(), 0, 0, 0),
            row("shared_state", null, List.of(), Map.of(), List.of("8 passed, 0 failed."), List.of(), 0, 0, 0),
            row("shared_state_object", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "variable_references",
                    null,
                    List.of("-var=global=\"triple\""),
                    Map.of(),
                    List.of("3 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "unreferenced_global_variable",
                    "variable_references",
                    List.of("-var=global=\"triple\"", "-var=other=bad"),
                    Map.of(),
                    List.of("3 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "variables_types",
                    null,
                    List.of(
                            "-var=number_input=0",
                            "-var=string_input=Hello, world!",
                            "-var=list_input=[\"Hello\",\"world\"]"),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row("null-outputs", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "destroy_fail",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("3 passed, 0 failed."),
                    List.of("Terraform left the following resources in state"),
                    1,
                    0,
                    4),
            row(
                    "default_optional_values",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("4 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row("tfvars_in_test_dir", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "auto_tfvars_in_test_dir",
                    "tfvars_in_test_dir",
                    List.of("-test-directory=alternate"),
                    Map.of(),
                    List.of("2 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row("functions_available", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "provider-functions-available",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row("mocking", null, List.of(), Map.of(), List.of("10 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "mocking-invalid",
                    null,
                    List.of(),
                    Map.of(),
                    List.of(),
                    List.of("The override_during attribute must be a value of plan or apply."),
                    0,
                    1,
                    0),
            row(
                    "mocking-error",
                    null,
                    List.of(),
                    Map.of(),
                    List.of(),
                    List.of(
                            "Unknown condition value",
                            "plan_mocked_overridden.tftest.hcl",
                            "test_resource.primary[0].id",
                            "plan_mocked_provider.tftest.hcl",
                            "test_resource.secondary[0].id"),
                    1,
                    0,
                    0),
            row("dangling_data_block", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row("skip_destroy_on_empty", null, List.of(), Map.of(), List.of("3 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "empty_module_with_output",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "global_var_refs",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed, 2 skipped."),
                    List.of(
                            "The input variable \"env_var_input\" does not exist within this test file",
                            "The input variable \"setup\" does not exist within this test file"),
                    1,
                    0,
                    0),
            row(
                    "global_var_ref_in_suite_var",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "env-vars",
                    null,
                    List.of(),
                    Map.of("TF_VAR_input", "foo"),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "env-vars-in-module",
                    null,
                    List.of(),
                    Map.of("TF_VAR_input", "foo"),
                    List.of("2 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row("ephemeral_input", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "ephemeral_input_optional_unset",
                    "ephemeral_input",
                    List.of("-var=foo=\"triple\""),
                    Map.of(),
                    List.of("2 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "ephemeral_input_with_error",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("Error message refers to ephemeral values", "1 passed, 1 failed."),
                    List.of("Test assertion failed", "│ - \"(ephemeral value)\"\n    │ + \"bar\""),
                    1,
                    0,
                    0),
            row(
                    "ephemeral_resource",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("0 passed, 1 failed."),
                    List.of("Ephemeral resource instance has expired", "Ephemeral resources cannot be asserted"),
                    1,
                    0,
                    0),
            row(
                    "with_state_key",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("3 passed, 1 failed."),
                    List.of("Test assertion failed", "resource renamed without moved block"),
                    1,
                    0,
                    0),
            row(
                    "unapplyable-plan",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("0 passed, 1 failed."),
                    List.of("Cannot apply non-applyable plan"),
                    1,
                    0,
                    0),
            row("write-only-attributes", null, List.of(), Map.of(), List.of("1 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "write-only-attributes-mocked",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "write-only-attributes-overridden",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "with-default-variables",
                    null,
                    List.of("-var=input_two=universe"),
                    Map.of(),
                    List.of("2 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "parallel-errors",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 1 failed, 1 skipped."),
                    List.of("Invalid condition run"),
                    1,
                    0,
                    0),
            row(
                    "write-into-default-state",
                    null,
                    List.of("-verbose"),
                    Map.of(),
                    List.of("test_resource.two will be destroyed"),
                    List.of(),
                    0,
                    0,
                    0),
            row("prevent-destroy", null, List.of(), Map.of(), List.of("1 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "deferred_changes",
                    null,
                    List.of("-allow-deferral"),
                    Map.of(),
                    List.of("3 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row("ephemeral_output", null, List.of(), Map.of(), List.of(), List.of(), 0, 0, 0),
            row("ephemeral_output_referenced", null, List.of(), Map.of(), List.of(), List.of(), 0, 0, 0),
            row("no-tests", null, List.of(), Map.of(), List.of(), List.of(), 0, 0, 0),
            row("simple_pass_function", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "mocking-invalid-outputs",
                    null,
                    List.of(),
                    Map.of(),
                    List.of(),
                    List.of("Invalid outputs attribute"),
                    1,
                    0,
                    0),
            row("mock-sources-inline", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            row(
                    "dynamic_source_with_default",
                    null,
                    List.of(),
                    Map.of(),
                    List.of("1 passed, 0 failed."),
                    List.of(),
                    0,
                    0,
                    0),
            row(
                    "dynamic_source_missing_var",
                    null,
                    List.of(),
                    Map.of(),
                    List.of(),
                    List.of("No value for required variable"),
                    1,
                    1,
                    0),
            row(
                    "dynamic_source_nonexistent_module",
                    null,
                    List.of(),
                    Map.of(),
                    List.of(),
                    List.of("Unreadable module directory"),
                    1,
                    1,
                    0),
            row(
                    "dynamic_source_non_const_var",
                    null,
                    List.of(),
                    Map.of(),
                    List.of(),
                    List.of("Unknown module source"),
                    1,
                    1,
                    0));

    /**
     * Scenarios of the other test functions of test_test.go, with the output they compare (whole
     * texts where the Go test compares the whole output).
     */
    static final List<Row> OTHERS = List.of(
            // TestTest_ComplexCondition: the comparison under failed equality assertions (whole stdout and stderr).
            row("complex_condition", null, List.of(), Map.of(), List.of("""
                            main.tftest.hcl... in progress
                              run "validate_diff_types"... fail
                              run "validate_output"... fail
                              run "validate_complex_output"... fail
                              run "validate_complex_output_sensitive"... fail
                              run "validate_complex_output_pass"... pass
                            main.tftest.hcl... tearing down
                            main.tftest.hcl... fail

                            Failure! 1 passed, 4 failed.
                            """), List.of("""

                            Error: Test assertion failed

                              on main.tftest.hcl line 37, in run "validate_diff_types":
                              37:     condition = var.tr1 == var.tr2\s
                                ├────────────────
                                │ Warning: LHS and RHS values are of different types


                            expected to fail

                            Error: Test assertion failed

                              on main.tftest.hcl line 44, in run "validate_output":
                              44:     condition = output.foo == var.foo
                                ├────────────────
                                │ Diff:
                                │ --- actual
                                │ +++ expected
                                │   {
                                │ -   "bar": "notbaz",
                                │ +   "bar": "baz",
                                │     "matches": "matches",
                                │ -   "qux": "quux",
                                │ -   "xuq": "xuq"
                                │ +   "qux": "qux",
                                │ +   "xuq": "nope"
                                │   }


                            expected to fail due to different values

                            Error: Test assertion failed

                              on main.tftest.hcl line 52, in run "validate_complex_output":
                              52:     condition = output.complex == var.bar
                                ├────────────────
                                │ Warning: LHS and RHS values are of different types
                                │ Diff:
                                │ --- actual
                                │ +++ expected
                                │   {
                                │     "root": [
                                │       {
                                │         "bar": [
                                │           1
                                │         ],
                                │ -       "qux": "quux"
                                │ +       "qux": "qux"
                                │       },
                                │       {
                                │         "bar": [
                                │           2
                                │         ],
                                │         "qux": "quux"
                                │       }
                                │     ]
                                │   }


                            expected to fail

                            Error: Test assertion failed

                              on main.tftest.hcl line 60, in run "validate_complex_output_sensitive":
                              60:     condition = output.complex == output.complex_sensitive
                                ├────────────────
                                │ Diff:
                                │ --- actual
                                │ +++ expected
                                │ - {
                                │ -   "root": [
                                │ -     {
                                │ -       "bar": [
                                │ -         1
                                │ -       ],
                                │ -       "qux": "quux"
                                │ -     },
                                │ -     {
                                │ -       "bar": [
                                │ -         2
                                │ -       ],
                                │ -       "qux": "quux"
                                │ -     }
                                │ -   ]
                                │ - }
                                │ + "(sensitive value)"


                            expected to fail
                            """), 1, 0, 0),
            // TestTest_ComplexConditionVerbose: the same with both sides and the references' whole values.
            row(
                    "complex_condition_verbose",
                    "complex_condition",
                    List.of("-verbose"),
                    Map.of(),
                    List.of("Failure! 1 passed, 4 failed."),
                    List.of("""

                            Error: Test assertion failed

                              on main.tftest.hcl line 37, in run "validate_diff_types":
                              37:     condition = var.tr1 == var.tr2\s
                                ├────────────────
                                │ LHS:
                                │   {
                                │     "iops": null,
                                │     "size": 60
                                │   }
                                │ RHS:
                                │   {
                                │     "iops": null,
                                │     "size": 60
                                │   }
                                │ Warning: LHS and RHS values are of different types

                                │ var.tr1 is {
                                │     "iops": null,
                                │     "size": 60
                                │   }
                                │ var.tr2 is {
                                │     "iops": null,
                                │     "size": 60
                                │   }

                            expected to fail

                            Error: Test assertion failed

                              on main.tftest.hcl line 44, in run "validate_output":
                              44:     condition = output.foo == var.foo
                                ├────────────────
                                │ LHS:
                                │   {
                                │     "bar": "notbaz",
                                │     "matches": "matches",
                                │     "qux": "quux",
                                │     "xuq": "xuq"
                                │   }
                                │ RHS:
                                │   {
                                │     "bar": "baz",
                                │     "matches": "matches",
                                │     "qux": "qux",
                                │     "xuq": "nope"
                                │   }
                                │ Diff:
                                │ --- actual
                                │ +++ expected
                                │   {
                                │ -   "bar": "notbaz",
                                │ +   "bar": "baz",
                                │     "matches": "matches",
                                │ -   "qux": "quux",
                                │ -   "xuq": "xuq"
                                │ +   "qux": "qux",
                                │ +   "xuq": "nope"
                                │   }

                                │ output.foo is {
                                │     "bar": "notbaz",
                                │     "matches": "matches",
                                │     "qux": "quux",
                                │     "xuq": "xuq"
                                │   }
                                │ var.foo is {
                                │     "bar": "baz",
                                │     "matches": "matches",
                                │     "qux": "qux",
                                │     "xuq": "nope"
                                │   }

                            expected to fail due to different values

                            Error: Test assertion failed

                              on main.tftest.hcl line 52, in run "validate_complex_output":
                              52:     condition = output.complex == var.bar
                                ├────────────────
                                │ LHS:
                                │   {
                                │     "root": [
                                │       {
                                │         "bar": [
                                │           1
                                │         ],
                                │         "qux": "quux"
                                │       },
                                │       {
                                │         "bar": [
                                │           2
                                │         ],
                                │         "qux": "quux"
                                │       }
                                │     ]
                                │   }
                                │ RHS:
                                │   {
                                │     "root": [
                                │       {
                                │         "bar": [
                                │           1
                                │         ],
                                │         "qux": "qux"
                                │       },
                                │       {
                                │         "bar": [
                                │           2
                                │         ],
                                │         "qux": "quux"
                                │       }
                                │     ]
                                │   }
                                │ Warning: LHS and RHS values are of different types
                                │ Diff:
                                │ --- actual
                                │ +++ expected
                                │   {
                                │     "root": [
                                │       {
                                │         "bar": [
                                │           1
                                │         ],
                                │ -       "qux": "quux"
                                │ +       "qux": "qux"
                                │       },
                                │       {
                                │         "bar": [
                                │           2
                                │         ],
                                │         "qux": "quux"
                                │       }
                                │     ]
                                │   }

                                │ output.complex is {
                                │     "root": [
                                │       {
                                │         "bar": [
                                │           1
                                │         ],
                                │         "qux": "quux"
                                │       },
                                │       {
                                │         "bar": [
                                │           2
                                │         ],
                                │         "qux": "quux"
                                │       }
                                │     ]
                                │   }
                                │ var.bar is {
                                │     "root": [
                                │       {
                                │         "bar": [
                                │           1
                                │         ],
                                │         "qux": "qux"
                                │       },
                                │       {
                                │         "bar": [
                                │           2
                                │         ],
                                │         "qux": "quux"
                                │       }
                                │     ]
                                │   }

                            expected to fail

                            Error: Test assertion failed

                              on main.tftest.hcl line 60, in run "validate_complex_output_sensitive":
                              60:     condition = output.complex == output.complex_sensitive
                                ├────────────────
                                │ LHS:
                                │   {
                                │     "root": [
                                │       {
                                │         "bar": [
                                │           1
                                │         ],
                                │         "qux": "quux"
                                │       },
                                │       {
                                │         "bar": [
                                │           2
                                │         ],
                                │         "qux": "quux"
                                │       }
                                │     ]
                                │   }
                                │ RHS:
                                │   "(sensitive value)"
                                │ Diff:
                                │ --- actual
                                │ +++ expected
                                │ - {
                                │ -   "root": [
                                │ -     {
                                │ -       "bar": [
                                │ -         1
                                │ -       ],
                                │ -       "qux": "quux"
                                │ -     },
                                │ -     {
                                │ -       "bar": [
                                │ -         2
                                │ -       ],
                                │ -       "qux": "quux"
                                │ -     }
                                │ -   ]
                                │ - }
                                │ + "(sensitive value)"

                                │ output.complex is {
                                │     "root": [
                                │       {
                                │         "bar": [
                                │           1
                                │         ],
                                │         "qux": "quux"
                                │       },
                                │       {
                                │         "bar": [
                                │           2
                                │         ],
                                │         "qux": "quux"
                                │       }
                                │     ]
                                │   }
                                │ output.complex_sensitive is "(sensitive value)"

                            expected to fail
                            """),
                    1,
                    0,
                    0),
            // TestTest_ProviderAlias: a file-level aliased provider passed to a setup module.
            row("with_provider_alias", null, List.of(), Map.of(), List.of("2 passed, 0 failed."), List.of(), 0, 0, 0),
            // TestTest_VariablesInProviders
            row("provider_vars", null, List.of(), Map.of(), List.of("""
                            main.tftest.hcl... in progress
                              run "test"... pass
                            main.tftest.hcl... tearing down
                            main.tftest.hcl... pass

                            Success! 1 passed, 0 failed.
                            """), List.of(), 0, 0, 0),
            // TestTest_RunBlocksInProviders
            row("provider_runs", null, List.of(), Map.of(), List.of("""
                            main.tftest.hcl... in progress
                              run "setup"... pass
                              run "main"... pass
                            main.tftest.hcl... tearing down
                            main.tftest.hcl... pass

                            Success! 2 passed, 0 failed.
                            """), List.of(), 0, 0, 0),
            // TestTest_RunBlocksInProviders_BadReferences
            row("provider_runs_invalid", null, List.of(), Map.of(), List.of("""
                            missing_run_block.tftest.hcl... in progress
                              run "main"... skip
                            missing_run_block.tftest.hcl... tearing down
                            missing_run_block.tftest.hcl... fail
                            unused_provider.tftest.hcl... in progress
                              run "main"... pass
                            unused_provider.tftest.hcl... tearing down
                            unused_provider.tftest.hcl... pass

                            Failure! 1 passed, 0 failed, 1 skipped.
                            """), List.of("""
                            Error: Reference to unknown run block

                              on missing_run_block.tftest.hcl line 2, in provider "test":
                               2:   resource_prefix = run.missing.resource_directory

                            The run block "missing" does not exist within this test file."""), 1, 0, 0));

    /** Rows that do not conform yet, and why (docs/tftest.md has the same table). */
    static final Map<String, String> KNOWN = Map.ofEntries(
            Map.entry(
                    "deferred_changes",
                    "-allow-deferral is an experimental Terraform option (deferred actions), not offered by strata test"),
            Map.entry(
                    "mocking-invalid-outputs",
                    "kept as Terraform 1.11 says it (\"Invalid values attribute\", checked with the binary): the reference (newer than 1.11) says \"Invalid outputs attribute\" for an override_resource, naming an attribute that block does not have"),
            Map.entry(
                    "dynamic_source_with_default",
                    "const variables and module sources built from them are newer than Terraform 1.11 (the language version Strata implements)"),
            Map.entry(
                    "dynamic_source_missing_var",
                    "const variables and module sources built from them are newer than Terraform 1.11 (the language version Strata implements)"),
            Map.entry(
                    "dynamic_source_nonexistent_module",
                    "const variables and module sources built from them are newer than Terraform 1.11 (the language version Strata implements)"),
            Map.entry(
                    "dynamic_source_non_const_var",
                    "const variables and module sources built from them are newer than Terraform 1.11 (the language version Strata implements)"));

    static Optional<Path> reference() {
        String given = System.getenv("STRATA_TFTEST_REFERENCE");
        if (given != null && !given.isEmpty()) {
            return Optional.of(Path.of(given));
        }
        // The reference sits beside the checkouts: ../shared/reference from the worktree's parent chain.
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared/reference/terraform-test/testdata/test");
            if (Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    static Stream<Row> rows() {
        return Stream.concat(ROWS.stream(), OTHERS.stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void scenario(Row row, @TempDir Path tmp) throws IOException {
        Optional<Path> ref = reference();
        assumeTrue(ref.isPresent(), "the terraform-test reference is not present");
        Path src = ref.get().resolve(row.override() == null ? row.name() : row.override());
        assumeTrue(Files.isDirectory(src), "scenario directory missing: " + src);
        copy(src, tmp);
        TestProvider.STORE.clear();
        List<String> problems = check(row, tmp);
        String reason = KNOWN.get(row.name());
        if (reason != null) {
            assertTrue(
                    !problems.isEmpty(),
                    "scenario " + row.name() + " conforms now: remove it from KNOWN and docs/tftest.md");
            assumeTrue(false, "known difference: " + reason);
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
    }

    /**
     * TestTest_JUnitOutput: the {@code -junit-xml} report of each scenario equals its
     * expected-output.xml with the times redacted. {@code missing-provider} is left out (see
     * docs/tftest.md): Strata configures an aliased provider the test file does not define.
     */
    @ParameterizedTest(name = "junit-output/{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"1pass-1fail", "multiple-files"})
    void junitOutput(String scenario, @TempDir Path tmp) throws IOException {
        Optional<Path> ref = reference();
        assumeTrue(ref.isPresent(), "the terraform-test reference is not present");
        Path src = ref.get().resolve("junit-output").resolve(scenario);
        assumeTrue(Files.isDirectory(src), "scenario directory missing: " + src);
        copy(src, tmp);
        TestProvider.STORE.clear();
        CliRunner.Result r = CliRunner.in(tmp).run("test", "-junit-xml=output.xml", "-no-color");
        String got = Files.readString(tmp.resolve("output.xml"))
                .replaceAll("time=\"[^\"]+\"", "time=\"TIME_REDACTED\"")
                .replaceAll("timestamp=\"[^\"]+\"", "timestamp=\"TIMESTAMP_REDACTED\"");
        org.junit.jupiter.api.Assertions.assertEquals(
                Files.readString(tmp.resolve("expected-output.xml")), got, r.toString());
        org.junit.jupiter.api.Assertions.assertEquals(0, TestProvider.STORE.size(), "objects left behind");
    }

    /** What differs from the Go test's expectations; empty when the scenario conforms. */
    static List<String> check(Row row, Path dir) {
        CliRunner cli = CliRunner.in(dir);
        row.env().forEach(cli::env);
        List<String> args = new ArrayList<>();
        args.add("test");
        args.addAll(row.args());
        args.add("-no-color");
        CliRunner.Result r = cli.run(args.toArray(String[]::new));
        List<String> problems = new ArrayList<>();
        int expectedCode = row.initCode() != 0 ? row.initCode() : row.code();
        // Strata reads local modules in place: what Terraform's init reports, its test run reports.
        String stderr = r.stderr();
        String all = r.stdout() + stderr;
        if (r.exitCode() != expectedCode) {
            problems.add("exit status " + r.exitCode() + ", expected " + expectedCode);
        }
        for (String s : row.out()) {
            String want = strata(s);
            if (!(row.initCode() != 0 ? all : r.stdout()).contains(want)) {
                problems.add("stdout lacks \"" + want + "\"");
            }
        }
        for (String s : row.err()) {
            String want = strata(s);
            if (!(row.initCode() != 0 ? all : stderr).contains(want)) {
                problems.add("stderr lacks \"" + want + "\"");
            }
        }
        if (row.err().isEmpty() && row.initCode() == 0 && !r.stderr().isEmpty()) {
            problems.add("unexpected stderr");
        }
        if (TestProvider.STORE.size() != row.resources()) {
            problems.add("left " + TestProvider.STORE.size() + " objects, expected " + row.resources());
        }
        if (!problems.isEmpty()) {
            problems.add("--- stdout:\n" + r.stdout() + "--- stderr:\n" + r.stderr());
        }
        return problems;
    }

    private static String strata(String terraformText) {
        return terraformText.replace("Terraform", "Strata");
    }

    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            s.forEach(p -> {
                Path target = to.resolve(from.relativize(p).toString());
                try {
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(p, target);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
