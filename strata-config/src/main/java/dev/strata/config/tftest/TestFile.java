package dev.strata.config.tftest;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import java.util.List;
import java.util.SortedMap;

/**
 * One {@code .tftest.hcl} or {@code .tftest.json} file as {@code terraform test} reads it: file-level
 * variables and provider configurations, mock providers, overrides and the run blocks in file order.
 *
 * @param name      the file's path relative to the configuration directory ({@code tests/main.tftest.hcl})
 * @param variables the file-level {@code variables} block, by name
 * @param providers the file's {@code provider} blocks, which replace the configuration's own
 * @param declared  the defaults of the file's {@code variable} blocks, by name: values for
 *                  {@code var.NAME} that the command line, variable files and {@code variables} blocks
 *                  override
 */
public record TestFile(
        String name,
        SortedMap<String, Attribute> variables,
        SortedMap<String, Expression> declared,
        List<Block> providers,
        List<MockProvider> mockProviders,
        List<Override> overrides,
        List<Run> runs,
        boolean parallel) {
    public TestFile {
        providers = List.copyOf(providers);
        mockProviders = List.copyOf(mockProviders);
        overrides = List.copyOf(overrides);
        runs = List.copyOf(runs);
    }

    /** {@code command = plan} or {@code apply} (the default). */
    public enum Command {
        PLAN,
        APPLY
    }

    /** {@code plan_options { mode, refresh, replace, target }}. */
    public record PlanOptions(boolean refreshOnly, boolean refresh, List<Expression> replace, List<Expression> target) {
        public static final PlanOptions DEFAULT = new PlanOptions(false, true, List.of(), List.of());

        public PlanOptions {
            replace = List.copyOf(replace);
            target = List.copyOf(target);
        }
    }

    /** An {@code assert} block. */
    public record Assertion(Expression condition, Expression errorMessage, SourceRange declRange) {}

    /**
     * A {@code run} block.
     *
     * @param moduleSource the {@code module { source }} it runs instead of the configuration under test; null when none
     * @param stateKey     the state it works in: the explicit {@code state_key}, or the module's source ("" for the main configuration)
     */
    public record Run(
            String name,
            Command command,
            SortedMap<String, Attribute> variables,
            String moduleSource,
            SourceRange moduleSourceRange,
            List<Assertion> asserts,
            List<Expression> expectFailures,
            PlanOptions planOptions,
            String stateKey,
            Boolean parallel,
            List<Override> overrides,
            Expression providers,
            SourceRange declRange) {
        public Run {
            asserts = List.copyOf(asserts);
            expectFailures = List.copyOf(expectFailures);
            overrides = List.copyOf(overrides);
        }
    }

    /** What an override replaces. */
    public enum OverrideKind {
        RESOURCE,
        DATA,
        MODULE
    }

    /**
     * {@code override_resource}, {@code override_data} or {@code override_module}: the target's
     * values ({@code values}, or {@code outputs} for a module) and when they apply.
     *
     * @param target        the address as written ({@code aws_instance.web}, {@code module.net})
     * @param values        the object expression of values, or null for none
     * @param duringPlan    {@code override_during = plan}: the values are used while planning too
     */
    public record Override(
            OverrideKind kind, String target, SourceRange targetRange, Expression values, boolean duringPlan) {}

    /** {@code mock_resource "TYPE"} or {@code mock_data "TYPE"} defaults. */
    public record MockDefaults(String type, boolean data, Expression defaults, boolean duringPlan) {}

    /** A {@code mock_provider "NAME"} block. */
    public record MockProvider(
            String name,
            String alias,
            String source,
            List<MockDefaults> defaults,
            List<Override> overrides,
            boolean duringPlan,
            SourceRange declRange) {
        public MockProvider {
            defaults = List.copyOf(defaults);
            overrides = List.copyOf(overrides);
        }

        /** The provider configuration address it stands for ({@code aws}, {@code aws.east}). */
        public String configName() {
            return alias == null ? name : name + "." + alias;
        }
    }
}
