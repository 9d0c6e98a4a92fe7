/**
 * A local cloud-API simulator for tests, benchmarks and examples: an HTTP/JSON service on a
 * loopback port with the behaviours that break naive engines — referential integrity, idempotent
 * creates, asynchronous provisioning, eventual consistency, throttling and injected faults — and an
 * admin endpoint to set those knobs and read counters.
 *
 * <p>Entry points: {@link dev.strata.cloudsim.CloudSim#start} in code, {@link dev.strata.cloudsim.Main}
 * on the command line.
 */
package dev.strata.cloudsim;
