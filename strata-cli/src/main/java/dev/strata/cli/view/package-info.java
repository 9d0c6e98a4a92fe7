/**
 * All output of the CLI. Commands never print: they call a view. {@link dev.strata.cli.view.View} owns the
 * streams, the colour decision and the terminal width, and renders diagnostics (errors to stderr,
 * warnings to stdout) through strata-hcl's {@link dev.strata.hcl.DiagnosticRenderer}, the one renderer
 * for configuration problems and the CLI's own. A command with output defines one view interface with a Human and, where
 * Terraform has {@code -json}, a Json implementation (see {@link dev.strata.cli.view.VersionView}).
 */
package dev.strata.cli.view;
