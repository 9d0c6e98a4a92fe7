package dev.strata.config;

import static dev.strata.config.Fixtures.brief;
import static dev.strata.config.Fixtures.load;
import static dev.strata.config.Fixtures.validate;
import static dev.strata.config.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Decoding and validation of provisioner and connection blocks, with Terraform's messages. */
class ProvisionerConfigTest {
    @TempDir
    Path dir;

    private Diagnostics run(String main) {
        write(dir, "main.tf", main);
        return validate(dir);
    }

    @Test
    void provisionersAndConnectionsAreDecodedInOrder() {
        write(dir, "main.tf", """
                resource "a_b" "c" {
                  connection {
                    host = self.address
                  }
                  provisioner "file" {
                    content     = "x"
                    destination = "/tmp/x"
                    connection {
                      user = "admin"
                    }
                  }
                  provisioner "remote-exec" {
                    when       = destroy
                    on_failure = continue
                    inline     = ["echo ${self.id} ${path.module}"]
                  }
                }
                """);
        var r = load(dir);
        assertThat(r.diagnostics().asList()).isEmpty();
        ResourceConfig rc =
                r.value().root().module().resources().values().iterator().next();
        assertThat(rc.connection()).isNotNull();
        assertThat(rc.connection().declRange().start().line()).isEqualTo(2);
        assertThat(rc.provisioners())
                .extracting(Provisioner::type, Provisioner::when, Provisioner::onFailure)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "file", Provisioner.When.CREATE, Provisioner.OnFailure.FAIL),
                        org.assertj.core.groups.Tuple.tuple(
                                "remote-exec", Provisioner.When.DESTROY, Provisioner.OnFailure.CONTINUE));
        assertThat(rc.provisioners().getFirst().connection()).isNotNull();
        assertThat(rc.provisioners(Provisioner.When.DESTROY)).hasSize(1);
        assertThat(validate(dir).asList()).isEmpty();
    }

    @Test
    void selfIsAvailableInProvisionersAndConnectionsOnly() {
        Diagnostics ds = run("""
                resource "a_b" "c" {
                  value = self.id
                  connection {
                    host = self.ip
                  }
                  provisioner "local-exec" {
                    command = "echo ${self.id}"
                  }
                }
                """);
        assertThat(brief(ds)).containsExactly("main.tf:2,11-15: Invalid \"self\" reference");
    }

    @Test
    void keywordsAndArgumentsAreCheckedAsTerraformDoes() {
        Diagnostics ds = run("""
                resource "a_b" "c" {
                  provisioner "local-exec" {
                    commandx   = "x"
                    on_failure = maybe
                    when       = later
                  }
                  provisioner "bogus" {}
                  provisioner "file" {
                    source      = "a"
                    content     = "b"
                    destination = "/tmp/x"
                  }
                  provisioner "file" {
                    destination = "/tmp/x"
                  }
                  provisioner "remote-exec" {
                    inline = ["a"]
                    script = "b"
                  }
                  provisioner "remote-exec" {}
                }
                data "a_b" "d" {
                  provisioner "local-exec" { command = "x" }
                }
                """);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:2,28-28: Missing required argument",
                        "main.tf:3,5-13: Unsupported argument",
                        "main.tf:4,18-23: Invalid \"on_failure\" keyword",
                        "main.tf:5,18-23: Invalid \"when\" keyword",
                        "main.tf:7,15-22: Missing required provisioner plugin",
                        "main.tf:8,3-21: Cannot set both 'source' and 'content'",
                        "main.tf:13,3-21: Must provide one of 'source' or 'content'",
                        "main.tf:16,3-28: Invalid remote-exec provisioner configuration",
                        "main.tf:20,3-28: Invalid remote-exec provisioner configuration",
                        "main.tf:23,3-14: Unsupported block type");
        List<Diagnostic> all = ds.asList();
        assertThat(all.get(1).detail())
                .isEqualTo("An argument named \"commandx\" is not expected here. Did you " + "mean \"command\"?");
        assertThat(all.get(2).detail())
                .isEqualTo("The \"on_failure\" argument requires one of the following keywords: continue or fail.");
        assertThat(all.get(3).detail())
                .isEqualTo("The \"when\" argument requires one of the following keywords: create or destroy.");
        assertThat(all.get(7).detail()).isEqualTo("Only one of \"inline\", \"script\", or \"scripts\" must be set");
    }

    @Test
    void destroyTimeProvisionersMayReferToTheirOwnObjectOnly() {
        Diagnostics ds = run("""
                variable "v" { default = "x" }
                resource "a_b" "a" {}
                resource "a_b" "c" {
                  for_each = toset(["k"])
                  connection {
                    host = a_b.a.ip
                  }
                  provisioner "local-exec" {
                    when    = destroy
                    command = "${var.v} ${a_b.a.id} ${each.value} ${each.key} ${self.id} ${path.module} ${terraform.workspace}"
                  }
                  provisioner "local-exec" {
                    command = "${var.v} ${a_b.a.id} ${each.value}"
                  }
                }
                """);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:6,12-20: Invalid reference from destroy provisioner",
                        "main.tf:10,18-23: Invalid reference from destroy provisioner",
                        "main.tf:10,27-35: Invalid reference from destroy provisioner",
                        "main.tf:10,39-49: Invalid reference from destroy provisioner");
        assertThat(ds.asList().getFirst().detail())
                .isEqualTo("Destroy-time provisioners and their connection configurations may only reference "
                        + "attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\n"
                        + "References to other resources during the destroy phase can cause dependency cycles "
                        + "and interact poorly with create_before_destroy.");
    }

    @Test
    void aSecondConnectionBlockIsAnErrorWhereverItIs() {
        write(dir, "main.tf", """
                resource "a_b" "r" {
                  connection { host = "1" }
                  connection { host = "2" }
                  provisioner "remote-exec" {
                    inline = ["true"]
                    connection { host = "3" }
                    connection { host = "4" }
                  }
                }
                removed {
                  from = a_b.gone
                  connection { host = "5" }
                  connection { host = "6" }
                }
                """);
        Diagnostics ds = load(dir).diagnostics();
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:3,3-13: Duplicate connection block",
                        "main.tf:7,5-15: Duplicate connection block",
                        "main.tf:13,3-13: Duplicate connection block");
        assertThat(ds.asList())
                .extracting(Diagnostic::detail)
                .containsExactly(
                        "This resource already has a connection block at main.tf:2,3-13.",
                        "This provisioner already has a connection block at main.tf:6,5-15.",
                        "This \"removed\" block already has a connection block at main.tf:12,3-13.");
    }

    @Test
    void aRemovedBlockTakesDestroyTimeProvisionersForAManagedResourceOnly() {
        write(dir, "main.tf", """
                removed {
                  from = a_b.gone
                  connection {
                    host = "h"
                  }
                  provisioner "local-exec" {
                    when    = destroy
                    command = "echo bye ${self.id} ${count.index}"
                  }
                }
                removed {
                  from = a_b.created
                  provisioner "local-exec" {
                    command = "echo hi"
                  }
                }
                removed {
                  from = module.m
                  provisioner "local-exec" {
                    when    = destroy
                    command = "echo bye"
                  }
                }
                removed {
                  from = a_b.refers
                  provisioner "local-exec" {
                    when    = destroy
                    command = "echo ${each.key} ${var.nope}"
                  }
                }
                """);
        Diagnostics ds = validate(dir);
        assertThat(brief(ds))
                .containsExactly(
                        "main.tf:13,3-27: Invalid provisioner block",
                        "main.tf:19,3-27: Invalid provisioner block",
                        "main.tf:28,35-43: Invalid reference from destroy provisioner");
        assertThat(ds.asList().getFirst().detail())
                .startsWith("Only destroy-time provisioners are valid in \"removed\" blocks.");
        assertThat(ds.asList().get(1).detail())
                .isEqualTo("Provisioners are valid only when a removed block targets a managed resource.");
        List<RemovedConfig> removed = load(dir).value().root().module().removed();
        assertThat(removed.getFirst().provisioners())
                .extracting(Provisioner::type)
                .containsExactly("local-exec");
        assertThat(removed.getFirst().connection()).isNotNull();
        assertThat(removed.get(1).provisioners()).isEmpty();
        assertThat(removed.get(2).provisioners()).isEmpty();
    }

    @Test
    void creationTimeProvisionerReferencesOrderTheGraph() {
        write(dir, "main.tf", """
                resource "a_b" "a" {}
                resource "a_b" "c" {
                  provisioner "local-exec" {
                    command = "echo ${a_b.a.id}"
                  }
                  provisioner "local-exec" {
                    when    = destroy
                    command = "echo ${self.id}"
                  }
                }
                """);
        ResourceConfig rc = load(dir).value().root().module().resources().values().stream()
                .filter(x -> x.addr().name().equals("c"))
                .findFirst()
                .orElseThrow();
        assertThat(References.of(rc)).extracting(x -> x.subject().toString()).containsExactly("a_b.a");
    }
}
