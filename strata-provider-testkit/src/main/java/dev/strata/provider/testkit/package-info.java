/**
 * The provider test kit: drives a {@link dev.strata.provider.Provider} the way the engine does
 * (validate → plan → apply → read → plan again → import → destroy) and fails with an
 * {@link java.lang.AssertionError} whenever the provider breaks a rule of the protocol. It uses no
 * test framework, so provider authors can call it from any.
 *
 * <p>Entry point: {@link dev.strata.provider.testkit.ProviderTester#configure}.
 */
package dev.strata.provider.testkit;
