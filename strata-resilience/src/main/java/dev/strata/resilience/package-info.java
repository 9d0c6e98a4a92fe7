/**
 * Retries on resilience4j and the one way Strata waits ({@link dev.strata.resilience.Sleeper}).
 * Entry point: {@link dev.strata.resilience.Retrying#call}. The engine keys its retries and circuit
 * breakers by provider configuration; the built-in providers' API clients retry their own requests.
 */
package dev.strata.resilience;
