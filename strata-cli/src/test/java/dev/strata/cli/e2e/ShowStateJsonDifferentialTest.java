package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code show -json} of the state against terraform 1.11's after the same apply: terraform_data in
 * nested modules with count and for_each, depends_on, a tainted instance, outputs of several types and
 * a sensitive output. Ids and the version are neutral; Strata's one deliberate difference, sensitive
 * values as null (docs/cli.md), is applied to terraform's document before comparing. Skipped where
 * terraform is not on the PATH.
 */
class ShowStateJsonDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Map<String, String> FILES =
            Map.of("main.tf", """
            module "child" {
              source = "./mods/child"
            }
            module "many" {
              source = "./mods/child"
              count  = 2
            }
            resource "terraform_data" "top" {
              input      = { n = 1, s = ["a"], m = { k = true } }
              depends_on = [module.child]
            }
            resource "terraform_data" "list" {
              count = 2
              input = [count.index, "x"]
            }
            output "path" { value = module.child.x }
            output "secret" {
              value     = "secret"
              sensitive = true
            }
            output "list" { value = [1, 2] }
            output "map" { value = tomap({ a = "b" }) }
            output "num" { value = 3 }
            output "obj" { value = terraform_data.top.output }
            output "tuple" { value = ["a", 1, true] }
            output "nothing" { value = null }
            """, "mods/child/main.tf", """
            module "grand" {
              source = "./grand"
            }
            resource "terraform_data" "d" {
              for_each = toset(["a", "b"])
              input    = each.key
            }
            output "x" { value = path.module }
            """, "mods/child/grand/main.tf", """
            resource "terraform_data" "g" {
              input = { k = "v" }
            }
            """);

    @TempDir
    Path tf;

    @TempDir
    Path st;

    @Test
    void stateJsonMatchesTerraform() throws Exception {
        Terraform terraform = Terraform.in(tf);
        write(tf);
        write(st);
        // Nothing applied yet: only the format version.
        assertThat(CliRunner.in(st).run("show", "-json").stdout()).isEqualTo(terraform.ok("show", "-json"));

        terraform.ok("init", "-no-color");
        terraform.ok("apply", "-auto-approve", "-no-color");
        terraform.ok("taint", "-no-color", "module.child.terraform_data.d[\"a\"]");
        CliRunner strata = CliRunner.in(st);
        assertThat(strata.run("apply", "-auto-approve", "-no-color").exitCode()).isZero();
        assertThat(strata.run("taint", "-no-color", "module.child.terraform_data.d[\"a\"]")
                        .exitCode())
                .isZero();

        CliRunner.Result shown = strata.run("show", "-json");
        assertThat(shown.exitCode()).as(shown.toString()).isZero();
        JsonNode ours = neutral(JSON.readTree(shown.stdout()));
        JsonNode theirs = redacted(neutral(JSON.readTree(terraform.ok("show", "-json"))));
        assertThat(ours.toPrettyString()).isEqualTo(theirs.toPrettyString());
        assertThat(ours.toString()).contains("\"tainted\":true").contains("\"depends_on\":[");
    }

    @Test
    void anEmptyStateAfterDestroyIsOnlyTheFormatVersion() throws Exception {
        Terraform terraform = Terraform.in(tf);
        write(tf);
        write(st);
        terraform.ok("init", "-no-color");
        terraform.ok("apply", "-auto-approve", "-no-color");
        terraform.ok("destroy", "-auto-approve", "-no-color");
        CliRunner strata = CliRunner.in(st);
        assertThat(strata.run("apply", "-auto-approve", "-no-color").exitCode()).isZero();
        assertThat(strata.run("destroy", "-auto-approve", "-no-color").exitCode())
                .isZero();
        assertThat(strata.run("show", "-json").stdout()).isEqualTo(terraform.ok("show", "-json"));
    }

    private static void write(Path root) throws Exception {
        for (var e : FILES.entrySet()) {
            Path f = root.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
        }
    }

    /** Ids and the tool's version made neutral. */
    private static JsonNode neutral(JsonNode doc) throws Exception {
        String text = doc.toString().replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>");
        ObjectNode n = (ObjectNode) JSON.readTree(text);
        n.remove("terraform_version");
        return n;
    }

    /** Terraform's document with sensitive values as Strata writes them: null. */
    private static JsonNode redacted(JsonNode doc) {
        doc.path("values").path("outputs").forEach(o -> {
            if (o.get("sensitive").asBoolean()) {
                ((ObjectNode) o).putNull("value");
            }
        });
        redactModule(doc.path("values").path("root_module"));
        return doc;
    }

    private static void redactModule(JsonNode module) {
        module.path("resources").forEach(r -> {
            Iterator<Map.Entry<String, JsonNode>> it =
                    r.path("sensitive_values").fields();
            while (it.hasNext()) {
                var e = it.next();
                if (e.getValue().asBoolean(false)) {
                    ((ObjectNode) r.get("values")).putNull(e.getKey());
                }
            }
        });
        module.path("child_modules").forEach(ShowStateJsonDifferentialTest::redactModule);
    }
}
