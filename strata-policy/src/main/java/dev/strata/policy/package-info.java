/**
 * Policy on plans: {@code policy} blocks, written in the Terraform language in {@code *.policy.hcl}
 * (or {@code *.policy.json}) files, checked once per planned resource change of the types they name,
 * over the same data as the plan JSON's {@code resource_changes}. The CLI loads a {@link
 * dev.strata.policy.PolicySet}, checks a plan with {@link dev.strata.policy.PolicyCheck} and gets a
 * {@link dev.strata.policy.PolicyReport}; see ADR 0025.
 */
package dev.strata.policy;
