package dev.strata.config;

import static dev.strata.config.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferencesTest {
    @TempDir
    Path dir;

    private static List<String> subjects(List<Reference> refs) {
        return refs.stream().map(r -> r.subject().toString()).toList();
    }

    @Test
    void resourceReferencesComeFromEveryExpressionAndDependsOn() {
        write(dir, "main.tf", """
                variable "n" {}
                locals { tags = {} }
                resource "terraform_data" "a" {}
                data "http" "d" {}
                module "m" { source = "./m" }
                resource "aws_instance" "web" {
                  count = var.n
                  tags  = local.tags
                  ami   = data.http.d.body
                  dynamic "ebs" {
                    for_each = module.m.disks
                    content { size = ebs.value }
                  }
                  lifecycle {
                    replace_triggered_by = [terraform_data.a]
                  }
                  depends_on = [module.m]
                }
                """, "m/main.tf", "output \"disks\" { value = [] }\n");
        ModuleConfig m = Fixtures.load(dir).value().root().module();
        List<Reference> refs = References.of(m.resources().get(Resource.managed("aws_instance", "web")));
        assertThat(subjects(refs))
                .containsExactlyInAnyOrder(
                        "var.n", "local.tags", "data.http.d", "module.m.disks", "terraform_data.a", "module.m");
        assertThat(refs.stream()
                        .filter(r -> r.subject().toString().equals("var.n"))
                        .findFirst()
                        .orElseThrow()
                        .range()
                        .toString())
                .isEqualTo("main.tf:7,11-16");
        assertThat(subjects(References.of(m.moduleCalls().get("m")))).isEmpty();
    }
}
