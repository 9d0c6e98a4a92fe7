/**
 * Values of the Terraform language: known, null and unknown values of every type, carrying
 * marks (sensitive, ephemeral); conversion between types and type unification with Terraform's
 * rules; set ordering.
 *
 * <p>Entry points: {@link dev.strata.lang.value.Value} (factories and accessors),
 * {@link dev.strata.lang.value.Convert#convert}, {@link dev.strata.lang.value.Unify#unify},
 * {@link dev.strata.lang.value.TypeConstraint} (type constraints with optional defaults) and
 * {@link dev.strata.lang.value.Operations} (the operators, with Terraform's 512-bit number
 * semantics from {@link dev.strata.lang.value.Numbers}).
 */
package dev.strata.lang.value;
