/**
 * The canonical formatter: what {@code terraform fmt} writes. Entry point: {@link dev.strata.hcl.format.Formatter}.
 *
 * <p>Formatting works on the token stream, not the tree, so that comments and heredocs survive
 * byte for byte: {@link dev.strata.hcl.format.Layout} re-derives every run of spaces between tokens
 * (indentation, spacing by token pair, column alignment), and
 * {@link dev.strata.hcl.format.TerraformRewrites} first applies Terraform's legacy-syntax clean-ups,
 * locating what to rewrite through the parsed tree.
 */
package dev.strata.hcl.format;
