/**
 * The {@code strata} command line: {@link dev.strata.cli.Main} is the entry point, and the only place
 * that exits the JVM. {@code Main.run(args, context)} runs one invocation against a
 * {@link dev.strata.cli.command.CommandContext}: it strips {@code -no-color}, sets up logging, parses the
 * global options ({@code -chdir=DIR}, {@code -help}, {@code -version}), finds the subcommand in
 * {@link dev.strata.cli.command.Commands}, parses its flags and runs it.
 *
 * <p>Subpackages: {@code command} (the {@code Command} contract, registry, flag parsing, commands),
 * {@code view} (all output), {@code logging} (SLF4J/Logback setup, run id, {@code Sensitive}).
 */
package dev.strata.cli;
