package dev.strata.engine.graph;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.SourceRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.jgrapht.Graph;
import org.jgrapht.alg.TransitiveReduction;
import org.jgrapht.alg.connectivity.KosarajuStrongConnectivityInspector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleDirectedGraph;
import org.jgrapht.traverse.TopologicalOrderIterator;

/**
 * An immutable graph of "{@code from} depends on {@code to}" edges between comparable nodes. Every
 * query that returns several nodes returns them in the nodes' natural order, so plans and walks are
 * deterministic. An edge keeps the place of the reference that created it (or null for an implied
 * edge), so that a cycle can be reported as a chain of references the user can go and fix.
 */
public final class DependencyGraph<N extends Comparable<? super N>> {

    /** {@code from} depends on {@code to}: {@code to} must be done first. */
    public record Dependency<N>(N from, N to, SourceRange range) {
        public Dependency {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
        }
    }

    private final SortedSet<N> nodes;
    /** Per node, what it depends on (sorted by target), with the first reference that made each edge. */
    private final Map<N, TreeMap<N, SourceRange>> dependencies;

    private final Map<N, SortedSet<N>> dependents;

    private DependencyGraph(
            SortedSet<N> nodes, Map<N, TreeMap<N, SourceRange>> dependencies, Map<N, SortedSet<N>> dependents) {
        this.nodes = Collections.unmodifiableSortedSet(nodes);
        this.dependencies = dependencies;
        this.dependents = dependents;
    }

    public static <N extends Comparable<? super N>> Builder<N> builder() {
        return new Builder<>();
    }

    /** Collects nodes and edges; duplicate edges keep the first reference's range. */
    public static final class Builder<N extends Comparable<? super N>> {
        private final SortedSet<N> nodes = new TreeSet<>();
        private final List<Dependency<N>> edges = new ArrayList<>();

        public Builder<N> node(N n) {
            nodes.add(Objects.requireNonNull(n));
            return this;
        }

        /** {@code from} depends on {@code to} because of the reference at {@code range} (may be null). */
        public Builder<N> dependency(N from, N to, SourceRange range) {
            nodes.add(from);
            nodes.add(to);
            edges.add(new Dependency<>(from, to, range));
            return this;
        }

        public DependencyGraph<N> build() {
            Map<N, TreeMap<N, SourceRange>> deps = new TreeMap<>();
            Map<N, SortedSet<N>> rdeps = new TreeMap<>();
            for (N n : nodes) {
                deps.put(n, new TreeMap<>());
                rdeps.put(n, new TreeSet<>());
            }
            for (Dependency<N> e : edges) {
                deps.get(e.from()).putIfAbsent(e.to(), e.range());
                rdeps.get(e.to()).add(e.from());
            }
            return new DependencyGraph<>(new TreeSet<>(nodes), deps, rdeps);
        }
    }

    public SortedSet<N> nodes() {
        return nodes;
    }

    /** What {@code n} depends on, in order. */
    public SortedSet<N> dependenciesOf(N n) {
        return Collections.unmodifiableSortedSet(
                new TreeSet<>(dependencies.get(n).keySet()));
    }

    /** What depends on {@code n}, in order. */
    public SortedSet<N> dependentsOf(N n) {
        return Collections.unmodifiableSortedSet(dependents.get(n));
    }

    /** Every edge, ordered by source then target. */
    public List<Dependency<N>> edges() {
        List<Dependency<N>> out = new ArrayList<>();
        dependencies.forEach((from, tos) -> tos.forEach((to, range) -> out.add(new Dependency<>(from, to, range))));
        return out;
    }

    private Graph<N, DefaultEdge> toJGraphT(boolean withSelfLoops) {
        Graph<N, DefaultEdge> g = withSelfLoops
                ? new org.jgrapht.graph.DefaultDirectedGraph<>(DefaultEdge.class)
                : new SimpleDirectedGraph<>(DefaultEdge.class);
        nodes.forEach(g::addVertex);
        for (Dependency<N> e : edges()) {
            if (withSelfLoops || !e.from().equals(e.to())) {
                g.addEdge(e.from(), e.to());
            }
        }
        return g;
    }

    /**
     * One error per cycle, naming the chain of nodes and where each edge's reference is, so the
     * user can break it. A node that refers to itself is a cycle of one.
     */
    public Diagnostics checkCycles(Function<N, String> name) {
        Diagnostics.Builder out = Diagnostics.builder();
        for (SortedSet<N> component : cycles()) {
            List<N> chain = cycleThrough(component);
            StringBuilder summary = new StringBuilder("Cycle: ");
            StringBuilder detail = new StringBuilder(
                    "These objects depend on each other in a circle, so none of " + "them can be evaluated first:");
            SourceRange subject = null;
            // As Terraform, the summary names every object of the strongly connected set: the circle in
            // evaluation order (each after what it depends on), then the others caught in it. The
            // detail walks the circle the other way, reference by reference.
            List<N> members = new ArrayList<>();
            members.add(chain.getFirst());
            for (int i = chain.size() - 1; i > 0; i--) {
                members.add(chain.get(i));
            }
            component.stream().filter(n -> !chain.contains(n)).forEach(members::add);
            summary.append(String.join(", ", members.stream().map(name).toList()));
            for (int i = 0; i < chain.size(); i++) {
                N from = chain.get(i);
                N to = chain.get((i + 1) % chain.size());
                SourceRange at = dependencies.get(from).get(to);
                detail.append("\n  - ")
                        .append(name.apply(from))
                        .append(" depends on ")
                        .append(name.apply(to))
                        .append(at == null ? "" : " (" + at + ")");
                if (subject == null && at != null) {
                    subject = at;
                }
            }
            detail.append("\nRemove one of these references to break the cycle.");
            out.add(Diagnostic.error(summary.toString(), detail.toString(), subject));
        }
        return out.build();
    }

    /** The sets of nodes that depend on each other in a circle (a node that refers to itself is one), in order. */
    private List<SortedSet<N>> cycles() {
        KosarajuStrongConnectivityInspector<N, DefaultEdge> scc =
                new KosarajuStrongConnectivityInspector<>(toJGraphT(true));
        List<SortedSet<N>> components = new ArrayList<>();
        for (Set<N> component : scc.stronglyConnectedSets()) {
            N only = component.iterator().next();
            if (component.size() > 1 || dependencies.get(only).containsKey(only)) {
                components.add(new TreeSet<>(component));
            }
        }
        components.sort(Comparator.comparing(SortedSet::first));
        return components;
    }

    /** A simple cycle within a strongly connected component, starting at its smallest node. */
    private List<N> cycleThrough(SortedSet<N> component) {
        N start = component.first();
        if (dependencies.get(start).containsKey(start)) {
            return List.of(start);
        }
        // Depth-first along sorted edges inside the component, back to the start.
        Map<N, N> parent = new LinkedHashMap<>();
        List<N> stack = new ArrayList<>();
        stack.add(start);
        Set<N> seen = new HashSet<>();
        seen.add(start);
        while (!stack.isEmpty()) {
            N cur = stack.remove(stack.size() - 1);
            for (N next : dependencies.get(cur).keySet()) {
                if (next.equals(start)) {
                    List<N> chain = new ArrayList<>();
                    for (N n = cur; n != null; n = parent.get(n)) {
                        chain.add(0, n);
                    }
                    return chain;
                }
                if (component.contains(next) && seen.add(next)) {
                    parent.put(next, cur);
                    stack.add(next);
                }
            }
        }
        return new ArrayList<>(component); // unreachable for a strongly connected component
    }

    /**
     * The nodes with every node after all it depends on; among nodes that could go next, the
     * smallest goes first. Only for acyclic graphs ({@link #checkCycles} first).
     */
    public List<N> topologicalOrder() {
        // JGraphT orders edge sources first; our edges point from dependent to dependency, so walk
        // the reversed graph.
        Graph<N, DefaultEdge> reversed = new SimpleDirectedGraph<>(DefaultEdge.class);
        nodes.forEach(reversed::addVertex);
        for (Dependency<N> e : edges()) {
            if (!e.from().equals(e.to())) {
                reversed.addEdge(e.to(), e.from());
            }
        }
        List<N> out = new ArrayList<>(nodes.size());
        new TopologicalOrderIterator<N, DefaultEdge>(reversed, Comparator.<N>naturalOrder()).forEachRemaining(out::add);
        if (out.size() != nodes.size()) {
            throw new IllegalStateException("graph has a cycle; call checkCycles first");
        }
        return out;
    }

    /**
     * The same graph without edges implied by others (if A depends on B and B on C, A's edge to C
     * goes): what the walk needs to wait for, and a readable {@code strata graph}.
     */
    public DependencyGraph<N> transitiveReduction() {
        Graph<N, DefaultEdge> g = toJGraphT(false);
        TransitiveReduction.INSTANCE.reduce(g);
        Builder<N> b = builder();
        nodes.forEach(b::node);
        for (Dependency<N> e : edges()) {
            if (g.containsEdge(e.from(), e.to())) {
                b.dependency(e.from(), e.to(), e.range());
            }
        }
        return b.build();
    }

    /** Graphviz DOT, with nodes and edges in order; edges point from dependent to dependency. */
    public String toDot(Function<N, String> name) {
        return toDot(name, Set.of());
    }

    /**
     * As {@link #toDot(Function)}, for a graph that may have cycles, as {@code terraform graph -draw-cycles}
     * draws one: every edge (a cycle has no transitive reduction), those on a cycle (between nodes of one
     * circle) in red.
     */
    public String toDotWithCycles(Function<N, String> name) {
        Map<N, Integer> circle = new java.util.HashMap<>();
        List<SortedSet<N>> cycles = cycles();
        for (int i = 0; i < cycles.size(); i++) {
            for (N n : cycles.get(i)) {
                circle.put(n, i);
            }
        }
        Set<Dependency<N>> red = new HashSet<>();
        for (Dependency<N> e : edges()) {
            Integer c = circle.get(e.from());
            if (c != null && c.equals(circle.get(e.to()))) {
                red.add(e);
            }
        }
        return toDot(name, red);
    }

    private String toDot(Function<N, String> name, Set<Dependency<N>> red) {
        StringBuilder sb =
                new StringBuilder("digraph {\n  compound = \"true\"\n  newrank = \"true\"\n  subgraph \"root\" {\n");
        for (N n : nodes) {
            sb.append("    \"").append(dotEscape(name.apply(n))).append("\"\n");
        }
        for (Dependency<N> e : edges()) {
            sb.append("    \"")
                    .append(dotEscape(name.apply(e.from())))
                    .append("\" -> \"")
                    .append(dotEscape(name.apply(e.to())))
                    .append(red.contains(e) ? "\" [color = \"red\", penwidth = \"2.0\"]\n" : "\"\n");
        }
        return sb.append("  }\n}\n").toString();
    }

    private static String dotEscape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
