/**
 * Dependency graphs of configuration objects and the concurrent walk over them.
 *
 * <p>{@link dev.strata.engine.graph.DependencyGraph} holds "A depends on B because of a reference at
 * this place" edges, reports cycles as chains of names with the place of each edge, orders nodes
 * deterministically and renders DOT. {@link dev.strata.engine.graph.DagWalker} visits the nodes of an
 * acyclic graph concurrently, each only after everything it depends on succeeded, under a
 * parallelism bound; a failure stops only what depends on it. Graph algorithms come from JGraphT.
 */
package dev.strata.engine.graph;
