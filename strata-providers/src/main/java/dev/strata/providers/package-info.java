/**
 * Strata's built-in providers, each in its own package, registered with
 * {@link java.util.ServiceLoader} as {@link dev.strata.provider.ProviderFactory} services. They
 * carry the names, schemas, defaults and behaviour of the HashiCorp providers of the same name,
 * so configurations written for those run unchanged; {@code docs/providers.md} lists every
 * difference.
 */
package dev.strata.providers;
