package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.strata.testing.StrataJar;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code strata drift -watch=1s} as a real process: changes made outside Strata between checks are
 * reported once each (on stdout and to the {@code STRATA_DRIFT_WEBHOOK}, a loopback server here),
 * never again in the following intervals, and SIGTERM stops it cleanly without a lock left or a
 * byte of the state changed.
 */
class DriftWatchIT {
    @TempDir
    Path dir;

    @Test
    void eachChangeIsReportedOnceAndSigtermStopsCleanly() throws Exception {
        Path jar = StrataJar.assumePackaged();
        Files.writeString(dir.resolve("main.tf"), """
                resource "local_file" "a" {
                  filename = "${path.module}/a.txt"
                  content  = "alpha"
                }
                resource "local_file" "b" {
                  filename = "${path.module}/b.txt"
                  content  = "beta"
                }
                resource "terraform_data" "t" {
                  input = "x"
                }
                """);
        CliRunner.Result apply = CliRunner.in(dir).run("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        byte[] state = Files.readAllBytes(dir.resolve("terraform.tfstate"));

        List<String> posted = new CopyOnWriteArrayList<>();
        HttpServer hook = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        hook.createContext("/drift", x -> {
            posted.add(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8) + " content-type="
                    + x.getRequestHeaders().getFirst("Content-Type"));
            x.sendResponseHeaders(204, -1);
            x.close();
        });
        hook.start();
        Process p = null;
        try {
            // The first change is there before the first check, the second is made between two checks.
            Files.delete(dir.resolve("a.txt"));
            ProcessBuilder pb = StrataJar.process(
                    jar,
                    dir,
                    List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                    "drift",
                    "-watch=1s",
                    "-no-color");
            pb.environment()
                    .put(
                            "STRATA_DRIFT_WEBHOOK",
                            "http://127.0.0.1:" + hook.getAddress().getPort() + "/drift");
            pb.redirectOutput(dir.resolve(".out").toFile())
                    .redirectError(dir.resolve(".err").toFile());
            p = pb.start();
            p.getOutputStream().close();
            waitFor("# local_file.a has been deleted", 60_000);
            Files.writeString(dir.resolve("b.txt"), "changed outside");
            waitFor("# local_file.b has", 30_000);
            // Several more intervals: nothing new, so nothing more is printed or posted.
            Thread.sleep(4_000);
            assertThat(p.isAlive()).as(output()).isTrue();
            String out = read(".out");
            assertThat(count(out, "# local_file.a has")).as(out).isEqualTo(1);
            assertThat(count(out, "# local_file.b has")).as(out).isEqualTo(1);
            assertThat(count(out, "Drift: 1 of 3 objects changed outside Strata."))
                    .as(out)
                    .isEqualTo(2);
            assertThat(out).doesNotContain("terraform_data.t");
            assertThat(posted).as(out).hasSize(2);
            JsonNode first = new ObjectMapper().readTree(posted.get(0).replaceFirst(" content-type=.*$", ""));
            assertThat(first.get("format_version").asText()).isEqualTo("1.0");
            assertThat(first.get("checked").asInt()).isEqualTo(3);
            assertThat(first.get("objects").get(0).get("address").asText()).isEqualTo("local_file.a");
            assertThat(first.get("objects").get(0).get("action").asText()).isEqualTo("delete");
            assertThat(posted.get(0)).endsWith("content-type=application/json");
            assertThat(posted.get(1)).contains("\"address\":\"local_file.b\"").doesNotContain("local_file.a");

            new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("stopped by SIGTERM").isTrue();
            assertThat(p.exitValue()).as(output()).isZero();
            assertThat(read(".err")).doesNotContain("Exception").doesNotContain("Error");
            assertThat(dir.resolve(".terraform.tfstate.lock.info")).doesNotExist();
            assertThat(dir.resolve("terraform.tfstate.backup")).doesNotExist();
            assertThat(Files.readAllBytes(dir.resolve("terraform.tfstate")))
                    .as("state unchanged byte for byte")
                    .isEqualTo(state);
        } finally {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
            hook.stop(0);
        }
    }

    private static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private void waitFor(String text, long timeoutMs) throws Exception {
        long end = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < end) {
            if (read(".out").contains(text)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(text + " not printed in time:\n" + output());
    }

    private String output() throws Exception {
        return read(".out") + "\n--- stderr\n" + read(".err");
    }

    private String read(String name) throws Exception {
        Path f = dir.resolve(name);
        return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8) : "";
    }
}
