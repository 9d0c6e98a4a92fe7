package dev.strata.stacks.runtime;

import dev.strata.lang.value.Value;

/**
 * A component instance's result in one phase: its plan (plan phase) or what its apply did (apply
 * phase), and the value {@code component.NAME} has for what depends on it.
 */
record Outcome(ComponentPlan plan, ComponentApplied applied, Value outputs, boolean deferred, boolean failed) {}
