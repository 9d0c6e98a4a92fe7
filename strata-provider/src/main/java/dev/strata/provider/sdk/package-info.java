/**
 * A small framework for writing providers in Java, in the spirit of HashiCorp's
 * terraform-plugin-framework: a provider is a set of {@link dev.strata.provider.sdk.ManagedResource}s
 * and {@link dev.strata.provider.sdk.DataSource}s, and {@link dev.strata.provider.sdk.SdkProvider}
 * turns them into the protocol, with the framework's planning rules (defaults, computed values
 * unknown until apply, force-new attributes) so each resource writes only its own behaviour.
 */
package dev.strata.provider.sdk;
