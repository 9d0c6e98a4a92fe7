/**
 * All output of the CLI. Commands never print: they call a view. {@link dev.strata.cli.view.View} owns the
 * streams, the colour decision and the terminal width, and renders diagnostics (errors to stderr,
 * warnings to stdout) through strata-hcl's {@link dev.strata.hcl.DiagnosticRenderer}, the one renderer
 * for configuration problems and the CLI's own. A command with output defines one view type with a Human and, where
 * Terraform has {@code -json}, a Json implementation, chosen once by the command (see
 * {@link dev.strata.cli.view.OutputView#of}, {@link dev.strata.cli.view.ShowView#of},
 * {@link dev.strata.cli.view.VersionView}).
 *
 * <p>Views know nothing of commands: they take a {@link dev.strata.cli.view.Terminal}, which the command
 * layer's context implements, and data (plans, states, records), never a command or its flags.
 */
package dev.strata.cli.view;
