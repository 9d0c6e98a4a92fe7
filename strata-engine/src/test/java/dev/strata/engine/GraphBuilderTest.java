package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.config.ConfigTree;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plan graph's shape, at Terraform's granularity: which module wirings are acyclic, the edges
 * that carry each wiring, the edges that must not exist (a module call waiting for its inputs), and
 * the objects a real cycle names (Terraform's vertex names, checked with terraform 1.11).
 */
class GraphBuilderTest {
    @TempDir
    Path dir;

    /** A child module with one input, one output that uses it and one that does not. */
    private static final String QUEUE = """
            variable "peer" { default = null }
            resource "terraform_data" "q" { input = var.peer }
            output "arn" { value = "arn:fixed" }
            output "echo" { value = terraform_data.q.output }
            """;

    /**
     * @param files    the files besides {@code q/main.tf} (the queue module every case may call)
     * @param edges    "from -> to" edges (display names) that must be in the graph
     * @param absent   edges that must not be
     * @param cycles   the cycle error summaries, in order (empty: the graph is acyclic)
     */
    record Case(String name, Map<String, String> files, List<String> edges, List<String> absent, List<String> cycles) {
        static Case of(String name, String main) {
            return new Case(name, Map.of("main.tf", main), List.of(), List.of(), List.of());
        }

        Case file(String path, String text) {
            Map<String, String> more = new java.util.TreeMap<>(files);
            more.put(path, text);
            return new Case(name, more, edges, absent, cycles);
        }

        Case edges(String... e) {
            return new Case(name, files, List.of(e), absent, cycles);
        }

        Case absent(String... e) {
            return new Case(name, files, edges, List.of(e), cycles);
        }

        Case cycles(String... c) {
            return new Case(name, files, edges, absent, List.of(c));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                Case.of("modules exchange different outputs", """
                        module "main" {
                          source = "./q"
                          peer   = module.dlq.arn
                        }
                        module "dlq" {
                          source = "./q"
                          peer   = module.main.arn
                        }
                        """)
                        .edges(
                                "module.main.var.peer -> module.dlq.output.arn",
                                "module.dlq.var.peer -> module.main.output.arn",
                                "module.main.var.peer -> module.main",
                                "module.main.terraform_data.q -> module.main.var.peer",
                                "module.main (close) -> module.main.terraform_data.q")
                        .absent(
                                "module.main -> module.dlq.output.arn",
                                "module.dlq -> module.main.output.arn",
                                "module.main.var.peer -> module.dlq.output.echo"),
                Case.of("through a local", """
                        locals { peers = [module.a.arn] }
                        module "a" {
                          source = "./q"
                          peer   = module.b.arn
                        }
                        module "b" {
                          source = "./q"
                          peer   = local.peers
                        }
                        """)
                        .edges("local.peers -> module.a.output.arn", "module.b.var.peer -> local.peers")
                        .absent("module.b -> local.peers"),
                Case.of("nested modules", """
                        module "outer" {
                          source = "./outer"
                          peer   = module.side.arn
                        }
                        module "side" {
                          source = "./q"
                          peer   = module.outer.arn
                        }
                        """)
                        .file("outer/main.tf", """
                        variable "peer" {}
                        module "inner1" {
                          source = "../q"
                          peer   = module.inner2.arn
                        }
                        module "inner2" {
                          source = "../q"
                          peer   = var.peer
                        }
                        output "arn" { value = module.inner1.arn }
                        """)
                        .edges(
                                "module.outer.module.inner2.var.peer -> module.outer.var.peer",
                                "module.outer.module.inner2 -> module.outer",
                                "module.outer (close) -> module.outer.module.inner1 (close)"),
                Case.of("for_each and count modules", """
                        module "many" {
                          source   = "./q"
                          for_each = toset(["x", "y"])
                          peer     = module.one[0].arn
                        }
                        module "one" {
                          source = "./q"
                          count  = 1
                          peer   = module.many["x"].arn
                        }
                        """)
                        .edges("module.one.var.peer -> module.many.output.arn")
                        .absent("module.one -> module.many.output.arn"),
                Case.of("whole module and depends_on wait for the close vertex", """
                        module "a" { source = "./q" }
                        module "b" {
                          source     = "./q"
                          depends_on = [module.a]
                        }
                        resource "terraform_data" "all" { input = module.b }
                        """)
                        .edges(
                                "module.b -> module.a (close)",
                                "terraform_data.all -> module.b (close)",
                                "module.a (close) -> module.a.terraform_data.q"),
                Case.of("a real cycle through both modules", """
                        module "a" {
                          source = "./q"
                          peer   = module.b.echo
                        }
                        module "b" {
                          source = "./q"
                          peer   = module.a.echo
                        }
                        """)
                        // terraform 1.11 names the same six objects (in varying order)
                        .cycles("Cycle: module.a.var.peer (expand), module.a.terraform_data.q, "
                                + "module.a.output.echo (expand), module.b.var.peer (expand), "
                                + "module.b.terraform_data.q, module.b.output.echo (expand)"),
                Case.of("a cycle through count and the whole module", """
                        module "c" {
                          source = "./q"
                          count  = length(terraform_data.z.output)
                        }
                        resource "terraform_data" "z" { input = module.c }
                        """)
                        // terraform 1.11: module.c.output.echo (expand), module.c.var.peer (expand),
                        // module.c.output.arn (expand), module.c (close), terraform_data.z, module.c (expand), ...
                        .cycles("Cycle: module.c (expand), terraform_data.z, module.c (close), "
                                + "module.c.var.peer (expand), module.c.terraform_data.q, module.c.output.arn (expand), "
                                + "module.c.output.echo (expand)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void graphShape(Case c) {
        Map<String, String> files = new java.util.TreeMap<>(c.files());
        files.put("q/main.tf", QUEUE);
        Result<ConfigTree> t = new EngineHarness(dir).load(files);
        assertThat(t.diagnostics().hasErrors()).as(t.diagnostics().toString()).isFalse();
        DependencyGraph<Node> g = GraphBuilder.build(t.value());
        Set<String> edges = g.edges().stream()
                .map(e -> e.from().display() + " -> " + e.to().display())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(edges).containsAll(c.edges());
        for (String e : c.absent()) {
            assertThat(edges).doesNotContain(e);
        }
        assertThat(g.checkCycles(Node::cycleName).asList().stream()
                        .map(Diagnostic::summary)
                        .toList())
                .isEqualTo(c.cycles());
    }
}
