package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.file.Files;
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
     * @param edges    "from -> to" edges (display names) that must be in the graph
     * @param absent   edges that must not be
     * @param cycles   the cycle error summaries, in order (empty: the graph is acyclic)
     */
    record Case(String name, Map<String, String> files, List<String> edges, List<String> absent, List<String> cycles) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("modules exchange different outputs", Map.of("q/main.tf", QUEUE, "main.tf", """
                        module "main" {
                          source = "./q"
                          peer   = module.dlq.arn
                        }
                        module "dlq" {
                          source = "./q"
                          peer   = module.main.arn
                        }
                        """),
                        List.of("module.main.var.peer -> module.dlq.output.arn",
                                "module.dlq.var.peer -> module.main.output.arn",
                                "module.main.var.peer -> module.main",
                                "module.main.terraform_data.q -> module.main.var.peer",
                                "module.main (close) -> module.main.terraform_data.q"),
                        List.of("module.main -> module.dlq.output.arn", "module.dlq -> module.main.output.arn",
                                "module.main.var.peer -> module.dlq.output.echo"),
                        List.of()),
                new Case("through a local", Map.of("q/main.tf", QUEUE, "main.tf", """
                        locals { peers = [module.a.arn] }
                        module "a" {
                          source = "./q"
                          peer   = module.b.arn
                        }
                        module "b" {
                          source = "./q"
                          peer   = local.peers
                        }
                        """),
                        List.of("local.peers -> module.a.output.arn", "module.b.var.peer -> local.peers"),
                        List.of("module.b -> local.peers"),
                        List.of()),
                new Case("nested modules", Map.of("q/main.tf", QUEUE, "outer/main.tf", """
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
                        """, "main.tf", """
                        module "outer" {
                          source = "./outer"
                          peer   = module.side.arn
                        }
                        module "side" {
                          source = "./q"
                          peer   = module.outer.arn
                        }
                        """),
                        List.of("module.outer.module.inner2.var.peer -> module.outer.var.peer",
                                "module.outer.module.inner2 -> module.outer",
                                "module.outer (close) -> module.outer.module.inner1 (close)"),
                        List.of(), List.of()),
                new Case("for_each and count modules", Map.of("q/main.tf", QUEUE, "main.tf", """
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
                        """),
                        List.of("module.one.var.peer -> module.many.output.arn"),
                        List.of("module.one -> module.many.output.arn"),
                        List.of()),
                new Case("whole module and depends_on wait for the close vertex", Map.of("q/main.tf", QUEUE,
                        "main.tf", """
                        module "a" { source = "./q" }
                        module "b" {
                          source     = "./q"
                          depends_on = [module.a]
                        }
                        resource "terraform_data" "all" { input = module.b }
                        """),
                        List.of("module.b -> module.a (close)", "terraform_data.all -> module.b (close)",
                                "module.a (close) -> module.a.terraform_data.q"),
                        List.of(), List.of()),
                new Case("a real cycle through both modules", Map.of("q/main.tf", QUEUE, "main.tf", """
                        module "a" {
                          source = "./q"
                          peer   = module.b.echo
                        }
                        module "b" {
                          source = "./q"
                          peer   = module.a.echo
                        }
                        """),
                        List.of(), List.of(),
                        // terraform 1.11 names the same six objects (in varying order)
                        List.of("Cycle: module.a.var.peer (expand), module.a.terraform_data.q, "
                                + "module.a.output.echo (expand), module.b.var.peer (expand), "
                                + "module.b.terraform_data.q, module.b.output.echo (expand)")),
                new Case("a cycle through count and the whole module", Map.of("q/main.tf", QUEUE, "main.tf", """
                        module "c" {
                          source = "./q"
                          count  = length(terraform_data.z.output)
                        }
                        resource "terraform_data" "z" { input = module.c }
                        """),
                        List.of(), List.of(),
                        // terraform 1.11: module.c.output.echo (expand), module.c.var.peer (expand),
                        // module.c.output.arn (expand), module.c (close), terraform_data.z, module.c (expand), ...
                        List.of("Cycle: module.c (expand), terraform_data.z, module.c (close), "
                                + "module.c.var.peer (expand), module.c.terraform_data.q, module.c.output.arn (expand), "
                                + "module.c.output.echo (expand)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void graphShape(Case c) throws IOException {
        for (var f : c.files().entrySet()) {
            Path p = dir.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
        Result<ConfigTree> t = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        assertThat(t.diagnostics().hasErrors()).as(t.diagnostics().toString()).isFalse();
        DependencyGraph<Node> g = GraphBuilder.build(t.value());
        Set<String> edges = g.edges().stream().map(e -> e.from().display() + " -> " + e.to().display())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(edges).containsAll(c.edges());
        for (String e : c.absent()) {
            assertThat(edges).doesNotContain(e);
        }
        assertThat(g.checkCycles(Node::cycleName).asList().stream().map(Diagnostic::summary).toList())
                .isEqualTo(c.cycles());
    }
}
