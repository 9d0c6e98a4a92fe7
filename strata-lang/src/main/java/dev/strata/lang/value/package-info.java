/**
 * Values of the Terraform language: known, null and unknown values of every type, carrying
 * marks (sensitive, ephemeral); conversion between types and type unification with Terraform's
 * rules; set ordering.
 *
 * <p>Entry points: {@link dev.strata.lang.value.Value} (factories and accessors),
 * {@link dev.strata.lang.value.Convert#convert} and {@link dev.strata.lang.value.Unify#unify}.
 */
package dev.strata.lang.value;
