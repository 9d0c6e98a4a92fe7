package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code show -json PLANFILE} against the real {@code terraform} on configurations that use only
 * {@code terraform_data}: the same resource changes (addresses, actions, after, after_unknown,
 * sensitivity shapes) and output changes, first on an empty state and then after an apply and an
 * edit of the configuration. Skipped when {@code terraform} is not on the PATH.
 */
class PlanJsonDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tf;

    @TempDir
    Path st;

    /**
     * @param strataMarksMore JSON pointers into each change where Strata marks more values sensitive than
     *                        Terraform (terraform_data's output echoes a sensitive input: Terraform shows it in
     *                        clear, Strata keeps it hidden), compared without those members
     */
    record Case(
            String name,
            Map<String, String> firstFiles,
            Map<String, String> secondFiles,
            List<String> strataMarksMore) {
        Case(String name, String first, String second) {
            this(name, first, second, List.of());
        }

        Case(String name, String first, String second, List<String> strataMarksMore) {
            this(name, Map.of("main.tf", first), Map.of("main.tf", second), strataMarksMore);
        }

        /** The same {@code files} besides {@code main.tf} in both runs. */
        Case(String name, String first, String second, Map<String, String> files) {
            this(name, with(files, first), with(files, second), List.of());
        }

        private static Map<String, String> with(Map<String, String> files, String main) {
            Map<String, String> all = new java.util.TreeMap<>(files);
            all.put("main.tf", main);
            return all;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("create-update-delete", """
                        resource "terraform_data" "a" { input = { name = "x", tags = ["a", "b"], n = 1 } }
                        resource "terraform_data" "b" {
                          count = 2
                          input = terraform_data.a.output
                          triggers_replace = [count.index]
                        }
                        output "o" { value = terraform_data.a.output }
                        """, """
                        resource "terraform_data" "a" { input = { name = "y", tags = ["a", "c"], n = 2 } }
                        resource "terraform_data" "b" {
                          count = 1
                          input = "x"
                          triggers_replace = [count.index]
                        }
                        output "o" { value = terraform_data.a.id }
                        """),
                // What a changing resource depends on, narrowed as Terraform narrows it: b.input leads to
                // a.output.x only (not to a2 through b's other argument), count and depends_on contribute
                // nothing, a whole object (b in e) is all relevant with all of its arguments.
                new Case("relevant-attributes", """
                        resource "terraform_data" "a" { input = { x = "1", y = "2" } }
                        resource "terraform_data" "a2" { input = "z" }
                        resource "terraform_data" "a3" { input = ["w"] }
                        resource "terraform_data" "a4" { input = "q" }
                        resource "terraform_data" "b" {
                          input            = terraform_data.a.output.x
                          triggers_replace = terraform_data.a2.output
                        }
                        resource "terraform_data" "c" {
                          input      = [terraform_data.b.input, "1"]
                          depends_on = [terraform_data.a4]
                        }
                        resource "terraform_data" "d" {
                          count = length(terraform_data.a3.input)
                          input = "1"
                        }
                        resource "terraform_data" "e" { input = [terraform_data.b, "1"] }
                        """, """
                        resource "terraform_data" "a" { input = { x = "1", y = "2" } }
                        resource "terraform_data" "a2" { input = "z" }
                        resource "terraform_data" "a3" { input = ["w"] }
                        resource "terraform_data" "a4" { input = "q" }
                        resource "terraform_data" "b" {
                          input            = terraform_data.a.output.x
                          triggers_replace = terraform_data.a2.output
                        }
                        resource "terraform_data" "c" {
                          input      = [terraform_data.b.input, "2"]
                          depends_on = [terraform_data.a4]
                        }
                        resource "terraform_data" "d" {
                          count = length(terraform_data.a3.input)
                          input = "2"
                        }
                        resource "terraform_data" "e" { input = [terraform_data.b, "2"] }
                        """),
                // Data resources are listed as managed ones are, and a whole one is followed into its arguments
                // (late's read waits for p in the first plan); a data source's new result between the runs
                // is no drift.
                new Case(
                        "data-sources",
                        Map.of("main.tf", DATA_MAIN.formatted("1"), "other.tfstate", remoteState("one", 2)),
                        Map.of("main.tf", DATA_MAIN.formatted("2"), "other.tfstate", remoteState("two", 3)),
                        List.of()),
                // JSON bodies are narrowed as native ones (jc reaches ja through jb.input, not ja2), and an
                // override's argument replaces the base's (b.input is a3's, not a's).
                new Case(
                        "json-and-override",
                        Map.of(
                                "main.tf",
                                OVERRIDDEN_MAIN.formatted("1"),
                                "main_override.tf",
                                "resource \"terraform_data\" \"b\" { input = terraform_data.a3.output }\n",
                                "j.tf.json",
                                JSON_MAIN.formatted("1")),
                        Map.of(
                                "main.tf",
                                OVERRIDDEN_MAIN.formatted("2"),
                                "main_override.tf",
                                "resource \"terraform_data\" \"b\" { input = terraform_data.a3.output }\n",
                                "j.tf.json",
                                JSON_MAIN.formatted("2")),
                        List.of()),
                // Every child module output contributes (Terraform plans each as created), a whole call with
                // count or for_each also names module.x without a key, instances of count and for_each resources
                // narrow to the instance, and provisioner and connection blocks contribute nothing.
                new Case(
                        "modules-count-for-each",
                        Map.of("main.tf", MODULES_MAIN.formatted("1", "1"), "m/main.tf", MODULE.formatted("2")),
                        Map.of("main.tf", MODULES_MAIN.formatted("2", "2"), "m/main.tf", MODULE.formatted("3")),
                        List.of()),
                // An index that is not a literal (count.index, a local) stands for the whole resource, for
                // expressions range over all instances, and lifecycle's replace_triggered_by and conditions
                // contribute nothing (rt only through the root output while that changes).
                new Case(
                        "dynamic-indexes-and-lifecycle",
                        Map.of("main.tf", INDEXES_MAIN.formatted("1")),
                        Map.of("main.tf", INDEXES_MAIN.formatted("2")),
                        List.of()),
                new Case("replace-and-for-each", """
                        resource "terraform_data" "r" {
                          for_each = { one = 1, two = 2 }
                          input = each.value
                          triggers_replace = each.key
                        }
                        """, """
                        resource "terraform_data" "r" {
                          for_each = { one = 1, three = 3 }
                          input = each.value * 10
                          triggers_replace = "${each.key}-v2"
                        }
                        """),
                new Case("sensitive", """
                        variable "secret" {
                          default = "s3cr3t"
                          sensitive = true
                        }
                        resource "terraform_data" "s" { input = { public = "p", secret = var.secret } }
                        output "plain" { value = terraform_data.s.id }
                        """, """
                        variable "secret" {
                          default = "other"
                          sensitive = true
                        }
                        resource "terraform_data" "s" { input = { public = "p", secret = var.secret } }
                        output "plain" { value = terraform_data.s.id }
                        """, List.of("/before/output", "/before_sensitive/output")),
                // The configuration's expressions: constants (null, a function call is none), each reference
                // with its prefixes (duplicates kept), count/for_each/depends_on, provisioners, module
                // arguments, outputs' depends_on, a module's resources under the root's provider key.
                new Case(
                        "configuration-expressions",
                        EXPRESSIONS_MAIN.formatted("2"),
                        EXPRESSIONS_MAIN.formatted("3"),
                        Map.of("mod/main.tf", EXPRESSIONS_MODULE, "other.tfstate", remoteState("one", 2))),
                // Sets list their elements in cty's order: objects and lists by their set-hash serialization.
                new Case("set-order", """
                        resource "terraform_data" "s" {
                          input = {
                            objects = toset([{ name = "b", port = 10 }, { name = "a", port = 9 }, { name = "c", port = 443 }])
                            strings = toset(["b", "a", "c"])
                            numbers = toset([10, 9, 1.5])
                            lists   = toset([["x", "y"], ["x"], ["w"]])
                          }
                        }
                        """, """
                        resource "terraform_data" "s" {
                          input = {
                            objects = toset([{ name = "b", port = 10 }, { name = "a", port = 9 }, { name = "d", port = 8080 }])
                            strings = toset(["b", "a", "d"])
                            numbers = toset([10, 9, 1.5, 100])
                            lists   = toset([["x", "y"], ["x"], ["w", "v"]])
                          }
                        }
                        """),
                // Unknown set elements never equal one another: two unknowns stay two.
                new Case("unknown-set-elements", """
                        resource "terraform_data" "a" { input = "x" }
                        resource "terraform_data" "b" {
                          input = toset([terraform_data.a.output, "${terraform_data.a.output}/*", "known"])
                        }
                        """, """
                        resource "terraform_data" "a" { input = "y" }
                        resource "terraform_data" "b" {
                          input = toset([terraform_data.a.output, "${terraform_data.a.output}/*", "known"])
                        }
                        """),
                // format() given an unknown of unknown type is wholly unknown, and so is the flatten of those.
                new Case("dynamic-unknown", """
                        resource "terraform_data" "a" { input = "x" }
                        locals { arn = try(terraform_data.a.output, "") }
                        resource "terraform_data" "b" {
                          input = flatten([for v in ["%s-x", "%s-y"] : format(v, local.arn)])
                        }
                        output "o" { value = [for v in ["%s-x"] : format(v, local.arn)] }
                        """, """
                        resource "terraform_data" "a" { input = "y" }
                        locals { arn = try(terraform_data.a.output, "") }
                        resource "terraform_data" "b" {
                          input = flatten([for v in ["%s-x", "%s-y"] : format(v, local.arn)])
                        }
                        output "o" { value = [for v in ["%s-x"] : format(v, local.arn)] }
                        """),
                // timestamp() and uuid() are unknown while planning, known at apply.
                new Case("impure-functions", """
                        resource "terraform_data" "t" {
                          input = { until = timeadd(timestamp(), "24h"), id = uuid(), fixed = "f" }
                        }
                        output "t" { value = timestamp() }
                        """, """
                        resource "terraform_data" "t" {
                          input = { until = timeadd(timestamp(), "24h"), id = uuid(), fixed = "f" }
                        }
                        output "t" { value = timestamp() }
                        """),
                // plantimestamp() is known while planning: the plan's own time, also the plan JSON's timestamp.
                // (The second plan drops the outputs: whether they change depends on the clock's second ticking.)
                new Case("plantimestamp", """
                        resource "terraform_data" "p" {
                          input = { at = plantimestamp(), year = formatdate("YYYY", plantimestamp()) }
                        }
                        output "pt" { value = plantimestamp() }
                        output "later" { value = timeadd(plantimestamp(), "1h") }
                        """, """
                        resource "terraform_data" "p" {
                          input = { at = plantimestamp(), year = formatdate("YYYY", plantimestamp()), v = 2 }
                        }
                        """));
    }

    private static final String DATA_MAIN = """
            resource "terraform_data" "p" { input = "other.tfstate" }
            data "terraform_remote_state" "r" {
              backend = "local"
              config  = { path = "other.tfstate" }
            }
            data "terraform_remote_state" "late" {
              backend = "local"
              config  = { path = terraform_data.p.output }
            }
            data "terraform_remote_state" "unused" {
              backend = "local"
              config  = { path = "other.tfstate" }
            }
            resource "terraform_data" "a" { input = data.terraform_remote_state.r.outputs.x }
            resource "terraform_data" "b" { input = data.terraform_remote_state.r.outputs }
            resource "terraform_data" "w" { input = [data.terraform_remote_state.late.outputs.y, "%1$s"] }
            resource "terraform_data" "v" { input = [length(data.terraform_remote_state.late), "%1$s"] }
            output "o" { value = data.terraform_remote_state.r.outputs.y.b }
            """;

    /** A state file with outputs x (a string) and y (an object whose b is given), for terraform_remote_state. */
    private static String remoteState(String x, int b) {
        return """
                {"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "d0b6a5f4-1c9e-4f38-9a53-0c2f0d6b1e11",
                 "outputs": {"x": {"value": "%s", "type": "string"},
                             "y": {"value": {"a": 1, "b": %d}, "type": ["object", {"a": "number", "b": "number"}]}},
                 "resources": [], "check_results": null}
                """.formatted(x, b);
    }

    private static final String OVERRIDDEN_MAIN = """
            resource "terraform_data" "a" { input = { x = "1", y = "2" } }
            resource "terraform_data" "a2" { input = "z" }
            resource "terraform_data" "a3" { input = "w" }
            resource "terraform_data" "b" {
              input            = terraform_data.a.output.x
              triggers_replace = terraform_data.a2.output
            }
            resource "terraform_data" "c" { input = [terraform_data.b.input, "%1$s"] }
            resource "terraform_data" "e" { input = [terraform_data.b, "%1$s"] }
            """;

    private static final String JSON_MAIN = """
            {"resource": {"terraform_data": {
              "ja": {"input": {"x": "1", "y": "2"}},
              "ja2": {"input": "z"},
              "jb": {"input": "${terraform_data.ja.output.x}", "triggers_replace": "${terraform_data.ja2.output}"},
              "jc": {"input": ["${terraform_data.jb.input}", "%s"]}
            }}}
            """;

    private static final String MODULES_MAIN = """
            module "m" {
              source = "./m"
              in     = terraform_data.a.output.x
            }
            module "n" {
              source = "./m"
              count  = 2
              in     = "n${count.index}"
            }
            module "f" {
              source   = "./m"
              for_each = toset(["k1", "k2"])
              in       = each.key
            }
            resource "terraform_data" "a" { input = { x = "1", y = "2" } }
            resource "terraform_data" "cnt" {
              count = 2
              input = "c${count.index}"
            }
            resource "terraform_data" "fe" {
              for_each = { p = "1", q = "2" }
              input    = each.value
            }
            resource "terraform_data" "use" {
              input = [module.m.out, module.n[0].whole, terraform_data.cnt[1].output, terraform_data.fe["q"].output, "%1$s"]
            }
            resource "terraform_data" "splat" { input = [terraform_data.cnt[*].input, "%1$s"] }
            resource "terraform_data" "allmod" { input = [module.f, "%1$s"] }
            resource "terraform_data" "prov" {
              input = "%1$s"
              provisioner "local-exec" {
                command = "echo ${terraform_data.a.output.y}"
              }
              connection {
                host = terraform_data.fe["p"].output
              }
            }
            output "o1" { value = [terraform_data.fe, "%2$s"] }
            output "o2" { value = [module.n[1].out, "%2$s"] }
            """;

    private static final String INDEXES_MAIN = """
            locals {
              l = terraform_data.loc.output
              k = "p"
            }
            resource "terraform_data" "loc" { input = "l" }
            resource "terraform_data" "rt" { input = "rt" }
            resource "terraform_data" "pre" { input = "pre" }
            resource "terraform_data" "cnt" {
              count = 2
              input = "c${count.index}"
            }
            resource "terraform_data" "fe" {
              for_each = { p = "1", q = "2" }
              input    = each.value
            }
            resource "terraform_data" "dyn" {
              count = 2
              input = [terraform_data.cnt[count.index].output, terraform_data.fe[local.k].input, "%1$s"]
            }
            resource "terraform_data" "forx" {
              input = [[for k, v in terraform_data.fe : v.output], local.l, "%1$s"]
            }
            resource "terraform_data" "lc" {
              input = "%1$s"
              lifecycle {
                replace_triggered_by = [terraform_data.rt.output]
                precondition {
                  condition     = terraform_data.pre.output != ""
                  error_message = "x"
                }
              }
            }
            output "unchanged" { value = terraform_data.rt.output }
            """;

    private static final String EXPRESSIONS_MAIN = """
            variable "n" {
              type    = number
              default = %s
            }
            variable "tags" {
              default     = { a = "b", "a\\"b" = "c" }
              description = "the tags"
            }
            variable "secret" {
              default   = "s3cr3t"
              sensitive = true
            }
            locals {
              names = ["x", "y"]
              obj   = { k = { v = 1 } }
            }
            resource "terraform_data" "a" {
              count = var.n
              input = "a-${count.index}"
            }
            resource "terraform_data" "b" {
              for_each = toset(local.names)
              input = {
                key   = each.key
                first = terraform_data.a[0].output
                all   = terraform_data.a[*].id
                deep  = local.obj.k.v
                lit   = 42
                cond  = true ? 1 : 2
                forx  = [for x in [1, 2] : x * 2]
                quote = var.tags["a\\"b"]
              }
              triggers_replace = [var.tags["a"], path.module, terraform.workspace]
              depends_on       = [terraform_data.a]
              provisioner "local-exec" {
                command     = "echo ${self.id} ${each.value}"
                environment = { FOO = "bar" }
              }
            }
            resource "terraform_data" "c" { input = null }
            resource "terraform_data" "d" { input = [1, "two", true] }
            resource "terraform_data" "e" { input = upper("x") }
            resource "terraform_data" "f" { input = module.m.out }
            resource "terraform_data" "g" { input = module.mc[1].out }
            resource "terraform_data" "h" {}
            module "m" {
              source = "./mod"
              x      = var.tags
              y      = "lit"
            }
            module "mc" {
              source     = "./mod"
              count      = 2
              x          = { i = count.index }
              depends_on = [terraform_data.c]
            }
            output "o1" { value = terraform_data.a[0].output }
            output "o2" {
              value       = "const"
              description = "d"
            }
            output "o3" {
              value      = var.secret
              sensitive  = true
              depends_on = [terraform_data.c]
            }
            output "o4" { value = { a = 1, b = [2, 3] } }
            data "terraform_remote_state" "r" {
              backend  = "local"
              config   = { path = "${path.module}/other.tfstate" }
              defaults = { z = 1 }
            }
            """;

    private static final String EXPRESSIONS_MODULE = """
            variable "x" {}
            variable "y" { default = null }
            variable "z" { default = 3 }
            resource "terraform_data" "in" { input = var.x }
            output "out" { value = terraform_data.in.output }
            """;

    private static final String MODULE = """
            variable "in" {}
            resource "terraform_data" "inner" { input = var.in }
            resource "terraform_data" "inner2" { input = "${var.in}-%s" }
            output "out" { value = terraform_data.inner.output }
            output "whole" { value = terraform_data.inner2 }
            """;

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void sameChangesAsTerraform(Case c) throws Exception {
        Optional<Path> terraform = Terraform.find();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        write(c.firstFiles());
        ignore = List.of();
        run(terraform.get(), "init", "-input=false", "-no-color");
        compare(terraform.get());
        run(terraform.get(), "apply", "-auto-approve", "-input=false", "-no-color");
        ok(CliRunner.in(st).run("apply", "-auto-approve"));
        write(c.secondFiles());
        ignore = c.strataMarksMore();
        compare(terraform.get());
        // A destroy plan: its deletions and root output changes contribute, child module outputs do not.
        run(terraform.get(), "plan", "-destroy", "-out=tf.plan", "-input=false", "-no-color");
        ok(CliRunner.in(st).run("plan", "-destroy", "-out=st.plan"));
        assertThat(relevant(JSON.readTree(
                        ok(CliRunner.in(st).run("show", "-json", "st.plan")).stdout())))
                .as("relevant_attributes of a destroy plan")
                .isEqualTo(relevant(JSON.readTree(run(terraform.get(), "show", "-json", "tf.plan"))));
    }

    /** Writes the files into both working directories (the same relative paths). */
    private void write(Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            for (Path dir : List.of(tf, st)) {
                Path p = dir.resolve(f.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.getValue());
            }
        }
    }

    private List<String> ignore = List.of();

    private void compare(Path terraform) throws Exception {
        run(terraform, "plan", "-out=tf.plan", "-input=false", "-no-color");
        JsonNode theirs = JSON.readTree(run(terraform, "show", "-json", "tf.plan"));
        ok(CliRunner.in(st).run("plan", "-out=st.plan"));
        JsonNode ours = JSON.readTree(
                ok(CliRunner.in(st).run("show", "-json", "st.plan")).stdout());
        assertThat(changes(ours, ignore)).as("resource_changes").isEqualTo(changes(theirs, ignore));
        assertThat(outputs(ours)).as("output_changes").isEqualTo(outputs(theirs));
        assertThat(relevant(ours)).as("relevant_attributes").isEqualTo(relevant(theirs));
        assertThat(theirs.at("/configuration/root_module").isObject()).isTrue();
        assertThat(configuration(ours)).as("configuration").isEqualTo(configuration(theirs));
        for (JsonNode plan : List.of(theirs, ours)) {
            // The plan's time, as RFC 3339 in UTC; plantimestamp() is the same value.
            assertThat(plan.path("timestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
            JsonNode pt = plan.at("/output_changes/pt/after");
            if (pt.isTextual()) {
                assertThat(pt.asText()).isEqualTo(plan.path("timestamp").asText());
            }
        }
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    /** The comparable part of each resource change; ids and timestamps (differ per run) and sensitive values masked. */
    static List<String> changes(JsonNode plan, List<String> ignore) {
        List<String> out = new ArrayList<>();
        for (JsonNode rc : plan.path("resource_changes")) {
            JsonNode ch = rc.path("change");
            ObjectNode n = JSON.createObjectNode();
            n.put("address", rc.path("address").asText());
            n.set("actions", ch.path("actions"));
            n.set("before", mask(redact(ch.path("before"), ch.path("before_sensitive"))));
            n.set("after", mask(redact(ch.path("after"), ch.path("after_sensitive"))));
            n.set("after_unknown", ch.path("after_unknown"));
            n.set("before_sensitive", ch.path("before_sensitive"));
            n.set("after_sensitive", ch.path("after_sensitive"));
            n.set("replace_paths", ch.path("replace_paths"));
            n.set("action_reason", rc.path("action_reason"));
            for (String pointer : ignore) {
                int cut = pointer.lastIndexOf('/');
                JsonNode parent = n.at(pointer.substring(0, cut));
                if (parent instanceof ObjectNode on) {
                    on.remove(pointer.substring(cut + 1));
                }
            }
            out.add(n.toString());
        }
        return out;
    }

    /**
     * The configuration section as it is, but for the default of a sensitive variable: Terraform writes it,
     * Strata never writes a sensitive value.
     */
    static JsonNode configuration(JsonNode plan) {
        JsonNode c = plan.path("configuration").deepCopy();
        withoutSensitiveDefaults(c.path("root_module"));
        return c;
    }

    private static void withoutSensitiveDefaults(JsonNode module) {
        module.path("variables").forEach(v -> {
            if (v.path("sensitive").asBoolean()) {
                ((ObjectNode) v).remove("default");
            }
        });
        module.path("module_calls").forEach(call -> withoutSensitiveDefaults(call.path("module")));
    }

    /** The relevant attributes as "resource [path]", sorted: Terraform lists them in the order it found them. */
    static List<String> relevant(JsonNode plan) {
        List<String> out = new ArrayList<>();
        plan.path("relevant_attributes").forEach(a -> out.add(a.path("resource").asText() + " " + a.path("attribute")));
        return out.stream().sorted().toList();
    }

    static List<String> outputs(JsonNode plan) {
        List<String> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        plan.path("output_changes").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode o = e.getValue();
            // Strata writes a sensitive output's value as null; Terraform writes it in clear.
            JsonNode after = o.path("after_sensitive").asBoolean() ? JSON.nullNode() : o.path("after");
            out.add(e.getKey() + " " + o.path("actions") + " " + mask(after) + " " + o.path("after_unknown"));
        }
        return out;
    }

    /** Strata writes sensitive values as null; Terraform writes them in clear. Compare without them. */
    static JsonNode redact(JsonNode v, JsonNode sensitive) {
        if (sensitive.isBoolean() && sensitive.booleanValue()) {
            return JSON.nullNode();
        }
        if (v.isObject() && sensitive.isObject()) {
            ObjectNode copy = ((ObjectNode) v).deepCopy();
            sensitive.fields().forEachRemaining(e -> {
                if (copy.has(e.getKey())) {
                    copy.set(e.getKey(), redact(copy.get(e.getKey()), e.getValue()));
                }
            });
            return copy;
        }
        if (v.isArray() && sensitive.isArray()) {
            ArrayNode copy = ((ArrayNode) v).deepCopy();
            for (int i = 0; i < copy.size() && i < sensitive.size(); i++) {
                copy.set(i, redact(copy.get(i), sensitive.get(i)));
            }
            return copy;
        }
        return v;
    }

    private static JsonNode mask(JsonNode v) {
        String s = v.toString()
                .replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>")
                .replaceAll("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ", "<time>");
        try {
            return JSON.readTree(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private String run(Path exe, String... args) throws IOException, InterruptedException {
        return Terraform.at(exe, tf).ok(args);
    }
}
