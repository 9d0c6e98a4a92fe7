package dev.strata.engine.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class DependencyGraphTest {
    static SourceRange at(int line) {
        return new SourceRange("main.tf", new SourcePos(line, 3, line * 10), new SourcePos(line, 9, line * 10 + 6));
    }

    @Test
    void ordersDependenciesFirstAndBreaksTiesByName() {
        DependencyGraph<String> g = DependencyGraph.<String>builder()
                .dependency("web", "subnet", at(1))
                .dependency("subnet", "vpc", at(2))
                .dependency("db", "subnet", at(3))
                .node("alone")
                .build();
        assertThat(g.topologicalOrder()).containsExactly("alone", "vpc", "subnet", "db", "web");
        assertThat(g.dependentsOf("subnet")).containsExactly("db", "web");
        assertThat(g.checkCycles(Function.identity()).isEmpty()).isTrue();
    }

    @Test
    void reportsEachCycleOnceAsAChainWithThePlacesOfItsReferences() {
        DependencyGraph<String> g = DependencyGraph.<String>builder()
                .dependency("local.a", "local.b", at(1))
                .dependency("local.b", "local.c", at(2))
                .dependency("local.c", "local.a", at(3))
                .dependency("local.x", "local.x", at(7))
                .dependency("local.d", "local.a", at(9))
                .build();
        Diagnostics d = g.checkCycles(Function.identity());
        assertThat(d.asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Cycle: local.a, local.c, local.b", "Cycle: local.x");
        Diagnostic first = d.asList().get(0);
        assertThat(first.subject()).isEqualTo(at(1));
        assertThat(first.detail())
                .contains("local.a depends on local.b (main.tf:1,3-9)")
                .contains("local.b depends on local.c (main.tf:2,3-9)")
                .contains("local.c depends on local.a (main.tf:3,3-9)");
    }

    @Test
    void transitiveReductionDropsImpliedEdgesOnly() {
        DependencyGraph<String> g = DependencyGraph.<String>builder()
                .dependency("a", "b", at(1))
                .dependency("b", "c", at(2))
                .dependency("a", "c", at(3))
                .build();
        assertThat(g.transitiveReduction().edges())
                .extracting(e -> e.from() + "->" + e.to())
                .containsExactly("a->b", "b->c");
    }

    @Test
    void dotListsNodesAndEdgesInOrder() {
        DependencyGraph<String> g =
                DependencyGraph.<String>builder().dependency("b", "a", null).build();
        assertThat(g.toDot(n -> "x." + n))
                .isEqualTo("digraph {\n  compound = \"true\"\n  newrank = \"true\"\n"
                        + "  subgraph \"root\" {\n    \"x.a\"\n    \"x.b\"\n    \"x.b\" -> \"x.a\"\n  }\n}\n");
    }

    /** The same edges given in any order give the same order: plans must not depend on input order. */
    @Property(tries = 200)
    void orderIsIndependentOfInsertionOrder(@ForAll @IntRange(min = 1, max = 40) int n, @ForAll long seed) {
        java.util.Random rnd = new java.util.Random(seed);
        List<int[]> edges = new java.util.ArrayList<>();
        for (int i = 1; i < n; i++) {
            edges.add(new int[] {i, rnd.nextInt(i)}); // only to smaller numbers: acyclic
        }
        DependencyGraph.Builder<Integer> b1 = DependencyGraph.builder();
        DependencyGraph.Builder<Integer> b2 = DependencyGraph.builder();
        edges.forEach(e -> b1.dependency(e[0], e[1], null));
        java.util.Collections.shuffle(edges, rnd);
        edges.forEach(e -> b2.dependency(e[0], e[1], null));
        b1.node(0);
        b2.node(0);
        List<Integer> order = b1.build().topologicalOrder();
        assertThat(b2.build().topologicalOrder()).isEqualTo(order);
        for (int[] e : edges) {
            assertThat(order.indexOf(e[1])).isLessThan(order.indexOf(e[0]));
        }
    }
}
