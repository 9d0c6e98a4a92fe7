/**
 * Strata's own version, read from a resource filtered at build time. Its own package because commands
 * (state files, plan files, the engine's user agent) and views (the {@code -json} version message)
 * both need it, and views do not depend on commands.
 */
package dev.strata.cli.version;
