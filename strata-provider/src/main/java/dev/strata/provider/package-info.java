/**
 * The provider SPI: what the engine asks of a provider and what a provider answers, with the
 * semantics of Terraform's provider protocol version 6, so that in-process built-ins and
 * out-of-process Terraform providers look the same to the engine.
 *
 * <p>Entry points: {@link dev.strata.provider.Provider} (the operations),
 * {@link dev.strata.provider.ProviderSchema} / {@link dev.strata.provider.Block} (schemas and the
 * object types they imply), {@link dev.strata.provider.ProposedNewState} (the engine's side of
 * planning), {@link dev.strata.provider.ProviderRegistry} (finding providers by source address),
 * {@link dev.strata.provider.ProviderDiagnostics} (problems, with attribute paths and the
 * transient/permanent classification).
 */
package dev.strata.provider;
