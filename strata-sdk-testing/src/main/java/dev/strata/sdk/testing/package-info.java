/**
 * Unit-testing helpers for stack programs: {@link dev.strata.sdk.testing.StackTester#synthesize} gives the
 * synthesised JSON to assert on, {@link dev.strata.sdk.testing.StackTester#plan} plans the stack in this
 * process against Strata's built-in providers through the engine facade (ADR 0013).
 */
package dev.strata.sdk.testing;
