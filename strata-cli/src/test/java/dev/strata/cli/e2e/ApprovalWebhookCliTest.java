package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pre-apply approval webhook through {@code strata apply}: approving, rejecting, timing out. */
class ApprovalWebhookCliTest {
    @TempDir
    Path dir;

    private HttpServer server;
    private final AtomicReference<String> answer = new AtomicReference<>();
    private final AtomicReference<Long> delayMillis = new AtomicReference<>(0L);
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private String url;

    @BeforeEach
    void start() throws IOException {
        Files.writeString(dir.resolve("main.tf"), "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n");
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/approve", x -> {
            bodies.add(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            try {
                Thread.sleep(delayMillis.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] b = answer.get().getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort() + "/approve";
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private CliRunner cli() {
        return CliRunner.in(dir).width(200).env("STRATA_APPROVAL_WEBHOOK", url);
    }

    @Test
    void approvedPlanIsApplied() {
        answer.set("{\"result\": \"APPROVED\", \"reason\": \"CAB-7\"}");
        CliRunner.Result r = cli().run("apply", "-no-color", "-auto-approve");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout())
                .contains("Approval: approved by " + url)
                .contains(": CAB-7")
                .contains("1 added");
        assertThat(bodies)
                .singleElement()
                .satisfies(b -> assertThat(b)
                        .contains("\"correlation_id\"")
                        .contains("\"resource_changes\"")
                        .contains("terraform_data.a"));
        // Nothing to change: the webhook is not asked.
        CliRunner.Result again = cli().run("apply", "-no-color", "-auto-approve");
        assertThat(again.exitCode()).isZero();
        assertThat(bodies).hasSize(1);
    }

    @Test
    void rejectedPlanChangesNothingAndReleasesTheLock() throws IOException {
        answer.set("{\"result\": \"REJECTED\", \"reason\": \"change freeze\"}");
        CliRunner.Result r = cli().run("apply", "-no-color", "-auto-approve");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Apply rejected").contains("rejected this plan: change freeze");
        assertThat(r.stdout()).doesNotContain("Creating...");
        assertThat(dir.resolve("terraform.tfstate")).doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                    .doesNotContain(".terraform.tfstate.lock.info");
        }
    }

    @Test
    void noDecisionFailsClosedByDefaultAndOpenWhenAsked() {
        answer.set("{\"result\": \"APPROVED\"}");
        delayMillis.set(3000L);
        CliRunner.Result closed =
                cli().env("STRATA_APPROVAL_TIMEOUT", "500ms").run("apply", "-no-color", "-auto-approve");
        assertThat(closed.exitCode()).as(closed.toString()).isEqualTo(1);
        assertThat(closed.stderr())
                .contains("Error: No approval decision")
                .contains("no decision within 500ms")
                .containsIgnoringWhitespaces("is closed, so nothing");
        CliRunner.Result open = cli().env("STRATA_APPROVAL_TIMEOUT", "500ms")
                .env("STRATA_APPROVAL_FAIL_MODE", "open")
                .run("apply", "-no-color", "-auto-approve");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        assertThat(open.stdout())
                .contains("Warning: Applying without an approval decision")
                .contains("1 added");
    }

    @Test
    void badSettingsAreReported() {
        CliRunner.Result r =
                cli().env("STRATA_APPROVAL_FAIL_MODE", "sometimes").run("apply", "-no-color", "-auto-approve");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Invalid approval fail mode");
        CliRunner.Result u =
                CliRunner.in(dir).env("STRATA_APPROVAL_WEBHOOK", "ftp://x").run("apply", "-no-color", "-auto-approve");
        assertThat(u.exitCode()).isEqualTo(1);
        assertThat(u.stderr()).contains("Error: Invalid approval webhook address");
    }
}
