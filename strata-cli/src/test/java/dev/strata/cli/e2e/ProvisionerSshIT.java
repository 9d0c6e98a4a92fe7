package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.SshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code file} and {@code remote-exec} provisioners against a real OpenSSH server on loopback
 * ({@link SshServer}), through the CLI: files land where the configuration says (read back over SSH), a
 * failing provisioner taints the object so that the next plan replaces it, destroy-time provisioners run
 * before the object goes, and the host key is checked when {@code host_key} is set.
 */
class ProvisionerSshIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private SshServer sshd;
    private Path remote;

    @BeforeEach
    void server() throws Exception {
        sshd = SshServer.get();
        // The "remote" machine is this one: each test gets its own directory on it.
        remote = Files.createTempDirectory("strata-remote-");
    }

    private String connection(String extra) {
        return connection(extra, "10s");
    }

    private String connection(String extra, String timeout) {
        return """
                  connection {
                    type        = "ssh"
                    host        = "127.0.0.1"
                    port        = %d
                    user        = "%s"
                    private_key = file("%s")
                    timeout     = "%s"
                    script_path = "%s/run_%%RAND%%.sh"
                    %s
                  }
                """.formatted(sshd.port(), sshd.user(), sshd.privateKey(), timeout, remote, extra);
    }

    private CliRunner.Result strata(String... args) {
        return CliRunner.in(dir).run(args);
    }

    @Test
    void fileAndRemoteExecCreateFilesReadBackOverSsh() throws Exception {
        Files.writeString(dir.resolve("setup.sh"), "#!/bin/sh\necho from-script > \"$1x\"\necho script ran\n");
        Files.createDirectories(dir.resolve("site/css"));
        Files.writeString(dir.resolve("site/index.html"), "<h1>hi</h1>\n");
        Files.writeString(dir.resolve("site/css/a.css"), "body{}\n");
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "web" {
                  input = "v1"
                %s
                  provisioner "file" {
                    content     = "greeting ${self.input}\\n"
                    destination = "%s/greeting.txt"
                  }
                  provisioner "file" {
                    source      = "site/"
                    destination = "%s/www"
                  }
                  provisioner "remote-exec" {
                    inline = [
                      "cat %s/greeting.txt > %s/copied.txt",
                      "echo remote says ${self.input}",
                    ]
                  }
                  provisioner "remote-exec" {
                    script = "setup.sh"
                  }
                }
                """.formatted(
                        connection("host_key = \"" + sshd.hostPublicKey() + "\""), remote, remote, remote, remote));
        CliRunner.Result apply = strata("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(apply.stdout())
                .contains("terraform_data.web: Provisioning with 'file'...")
                .contains("terraform_data.web (file): Connecting to remote host via SSH...")
                .contains("terraform_data.web (file):   Checking Host Key: true")
                .contains("terraform_data.web (remote-exec): Connected!")
                .contains("terraform_data.web (remote-exec): remote says v1")
                .contains("terraform_data.web (remote-exec): script ran");
        ProcessResult read =
                sshd.exec("cat " + remote + "/copied.txt " + remote + "/www/index.html " + remote + "/www/css/a.css");
        assertThat(read.exitCode()).as(read.stderr()).isZero();
        assertThat(read.stdout()).isEqualTo("greeting v1\n<h1>hi</h1>\nbody{}\n");
        // The scripts were uploaded to script_path (with %RAND% replaced) and run from there.
        ProcessResult scripts = sshd.exec("ls " + remote);
        assertThat(scripts.stdout().lines().filter(l -> l.matches("run_\\d+\\.sh")))
                .hasSize(2);
    }

    @Test
    void failingRemoteExecTaintsTheObjectAndTheNextPlanReplacesIt() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "box" {
                %s
                  provisioner "remote-exec" {
                    inline = ["echo trying", "exit 7"]
                  }
                }
                """.formatted(connection("")));
        CliRunner.Result apply = strata("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.stdout()).contains("terraform_data.box (remote-exec): trying");
        assertThat(apply.stderr().replace('\n', ' '))
                .contains("Error: remote-exec provisioner error")
                .containsPattern("error executing \"" + remote + "/run_\\d+\\.sh\": Process exited with status 7");
        JsonNode state = JSON.readTree(dir.resolve("terraform.tfstate").toFile());
        assertThat(state.at("/resources/0/instances/0/status").asText()).isEqualTo("tainted");
        CliRunner.Result plan = strata("plan", "-no-color");
        assertThat(plan.stdout())
                .contains("# terraform_data.box is tainted, so must be replaced")
                .contains("1 to add, 0 to change, 1 to destroy.");
    }

    @Test
    void destroyTimeProvisionerRunsBeforeTheObjectIsDestroyed() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "box" {
                  input = "gone"
                %s
                  provisioner "remote-exec" {
                    when   = destroy
                    inline = ["echo ${self.input} > %s/farewell.txt"]
                  }
                }
                """.formatted(connection(""), remote));
        CliRunner.Result apply = strata("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(sshd.exec("test -e " + remote + "/farewell.txt").exitCode())
                .as("not run at creation")
                .isNotZero();
        CliRunner.Result destroy = strata("destroy", "-auto-approve", "-no-color");
        assertThat(destroy.exitCode()).as(destroy.toString()).isZero();
        assertThat(destroy.stdout().indexOf("terraform_data.box: Provisioning with 'remote-exec'..."))
                .isGreaterThan(destroy.stdout().indexOf("terraform_data.box: Destroying..."))
                .isLessThan(destroy.stdout().indexOf("terraform_data.box: Destruction complete"));
        assertThat(sshd.exec("cat " + remote + "/farewell.txt").stdout()).isEqualTo("gone\n");
    }

    @Test
    void aWrongHostKeyOrAnUnknownUserKeyIsRefused() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "a" {
                %s
                  provisioner "remote-exec" {
                    inline = ["touch %s/a-ran"]
                  }
                }
                resource "terraform_data" "b" {
                %s
                  provisioner "remote-exec" {
                    inline = ["touch %s/b-ran"]
                  }
                }
                """.formatted(
                connection("host_key = file(\"" + sshd.strangerKey() + ".pub\")", "5s"),
                remote,
                connection("", "5s")
                        .replace(
                                sshd.privateKey().toString(), sshd.strangerKey().toString()),
                remote));
        CliRunner.Result apply = strata("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
        String err = apply.stderr().replace('\n', ' ');
        assertThat(err)
                .contains("timeout - last error:")
                .contains("SSH authentication failed")
                .contains("ssh: handshake failed: host key mismatch");
        assertThat(Files.exists(remote.resolve("a-ran"))).isFalse();
        assertThat(Files.exists(remote.resolve("b-ran"))).isFalse();
    }
}
