/**
 * Strata's state: immutable snapshots of Terraform's state format version 4
 * ({@link dev.strata.state.StateSnapshot}), their byte-exact codec ({@link dev.strata.state.StateCodec}),
 * and the backends that store them per workspace with locking ({@link dev.strata.state.Backend}:
 * {@link dev.strata.state.LocalBackend}, {@link dev.strata.state.PgBackend}), optionally encrypted
 * ({@link dev.strata.state.Encryption}), with an append-only journal beside each snapshot
 * ({@link dev.strata.state.JournalEntry}).
 *
 * <pre>{@code
 * Backend backend = LocalBackend.in(workingDir, strataVersion).withEncryption(Encryption.fromEnv(env).value());
 * Result<StateManager> opened = backend.open(workspace, LockRequest.of("OperationTypeApply", Duration.ofSeconds(30)));
 * if (opened.hasErrors()) { ... report opened.diagnostics() ... }
 * try (StateManager m = opened.value()) {
 *     StateSnapshot prior = m.state();                    // snapshot + replayed journal
 *     m.append(new JournalEntry.Intent(op, addr, "create")); // durable before the provider call
 *     m.append(new JournalEntry.SetObject(resource, provider, object));
 *     m.append(new JournalEntry.Completed(op));
 *     m.compact();                                       // fold into the snapshot, next serial
 * }
 * }</pre>
 *
 * Resource attributes stay raw JSON ({@link dev.strata.state.JsonValue}) here; the engine decodes them
 * with the provider schema, as Terraform does. Addresses are {@code dev.strata.addr}'s types, parsed from the
 * file's strings by the codec (and the journal) and nowhere else.
 */
package dev.strata.state;
