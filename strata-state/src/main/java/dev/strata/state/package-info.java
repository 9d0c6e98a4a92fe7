/**
 * Strata's state: immutable snapshots of Terraform's state format version 4 ({@link dev.strata.state.StateSnapshot}),
 * their codec ({@link dev.strata.state.StateCodec}), and the backends that store them with locking
 * ({@link dev.strata.state.Backend}, {@link dev.strata.state.LocalBackend}).
 *
 * <pre>{@code
 * Backend backend = LocalBackend.in(workingDir, "0.1.0");
 * try (StateManager m = backend.open("default", LockRequest.of("apply", Duration.ofSeconds(30))).value()) {
 *     StateSnapshot current = m.state();
 *     m.persist(current.withResources(...));
 * }
 * }</pre>
 *
 * Resource attributes stay raw JSON ({@link dev.strata.state.JsonValue}) here; the engine decodes them with
 * the provider schema, as Terraform does.
 */
package dev.strata.state;
