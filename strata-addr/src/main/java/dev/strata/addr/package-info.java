/**
 * Typed addresses of everything a configuration declares and a plan or state records: module
 * instances, resources and their instances, providers, variables, locals, outputs, module calls.
 *
 * <p>Addresses are records; {@code toString()} gives the canonical form Terraform prints and
 * {@link dev.strata.addr.Addrs} parses it back (from a traversal with source ranges, or from a
 * string such as a {@code -target} argument), so {@code parse(a.toString()) == a} for every
 * address. References in expressions are lifted to {@link dev.strata.addr.Reference}s by
 * {@link dev.strata.addr.Reference#parse}.
 */
package dev.strata.addr;
