package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.cli.command.CommandContext;
import dev.strata.engine.Action;
import dev.strata.engine.EphemeralAction;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The {@code -json} UI stream's messages for ephemeral resources and long operations, field for field
 * as terraform 1.11 writes them (checked against the binary with the AWS provider's ephemeral
 * {@code aws_ssm_parameter}, and with a {@code terraform_data} whose provisioner sleeps 11 s).
 */
class PlanJsonViewTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final AtomicLong now = new AtomicLong();
    private final PlanJsonView view = new PlanJsonView(
            new CommandContext(
                    Path.of("."),
                    new ByteArrayInputStream(new byte[0]),
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    false,
                    80,
                    Map.of(),
                    "test"),
            now::get,
            false);

    private static AbsResourceInstance addr(String s) {
        return Addrs.parseAbsResourceInstance(s).value();
    }

    /** Each message without its timestamp, as {@code type | @message | hook}. */
    private List<String> messages() throws Exception {
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        List<String> result = new java.util.ArrayList<>();
        for (String l : lines) {
            JsonNode n = JSON.readTree(l);
            assertThat(n.path("@level").asText()).isEqualTo("info");
            assertThat(n.path("@timestamp").asText()).isNotEmpty();
            result.add(n.path("type").asText() + " | " + n.path("@message").asText() + " | " + n.path("hook"));
        }
        return result;
    }

    private static String resource(String addr, String type, String name, String key) {
        return "{\"addr\":\"" + addr + "\",\"module\":\"\",\"resource\":\"" + addr
                + "\",\"implied_provider\":\"aws\",\"resource_type\":\"" + type + "\",\"resource_name\":\"" + name
                + "\",\"resource_key\":" + key + "}";
    }

    @Test
    void ephemeralOperationsAreEphemeralOpMessages() throws Exception {
        AbsResourceInstance s = addr("ephemeral.aws_ssm_parameter.secret");
        AbsResourceInstance t = addr("ephemeral.aws_ssm_parameter.tok[1]");
        view.ephemeralStart(s, EphemeralAction.OPEN);
        view.ephemeralComplete(s, EphemeralAction.OPEN, Duration.ofMillis(1200));
        view.ephemeralStart(t, EphemeralAction.RENEW);
        view.ephemeralComplete(t, EphemeralAction.RENEW, Duration.ZERO);
        view.ephemeralStart(s, EphemeralAction.CLOSE);
        view.ephemeralComplete(s, EphemeralAction.CLOSE, Duration.ZERO);
        view.ephemeralStart(t, EphemeralAction.OPEN);
        view.ephemeralErrored(t, EphemeralAction.OPEN, Duration.ofSeconds(2));
        String secret = resource("ephemeral.aws_ssm_parameter.secret", "aws_ssm_parameter", "secret", "null");
        String tok = resource("ephemeral.aws_ssm_parameter.tok[1]", "aws_ssm_parameter", "tok", "1");
        assertThat(messages())
                .containsExactly(
                        "ephemeral_op_start | ephemeral.aws_ssm_parameter.secret: Opening... | {\"resource\":" + secret
                                + ",\"action\":\"open\"}",
                        "ephemeral_op_complete | ephemeral.aws_ssm_parameter.secret: Opening complete after 1s | "
                                + "{\"resource\":" + secret + ",\"action\":\"open\",\"elapsed_seconds\":1}",
                        "ephemeral_op_start | ephemeral.aws_ssm_parameter.tok[1]: Renewing... | {\"resource\":" + tok
                                + ",\"action\":\"renew\"}",
                        "ephemeral_op_complete | ephemeral.aws_ssm_parameter.tok[1]: Renewal complete after 0s | "
                                + "{\"resource\":" + tok + ",\"action\":\"renew\",\"elapsed_seconds\":0}",
                        "ephemeral_op_start | ephemeral.aws_ssm_parameter.secret: Closing... | {\"resource\":" + secret
                                + ",\"action\":\"close\"}",
                        "ephemeral_op_complete | ephemeral.aws_ssm_parameter.secret: Closing complete after 0s | "
                                + "{\"resource\":" + secret + ",\"action\":\"close\",\"elapsed_seconds\":0}",
                        "ephemeral_op_start | ephemeral.aws_ssm_parameter.tok[1]: Opening... | {\"resource\":" + tok
                                + ",\"action\":\"open\"}",
                        "ephemeral_op_errored | ephemeral.aws_ssm_parameter.tok[1]: Opening errored after 2s | "
                                + "{\"resource\":" + tok + ",\"action\":\"open\",\"elapsed_seconds\":2}");
    }

    @Test
    void applyProgressEveryTenSecondsOfEachOperation() throws Exception {
        view.applyStart(addr("aws_ssm_parameter.a"), Action.CREATE, null, null);
        now.addAndGet(Duration.ofSeconds(4).toNanos());
        view.applyStart(addr("aws_ssm_parameter.b"), Action.DELETE, null, "/b");
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        view.tick();
        view.tick(); // twice in the same second: still one message
        now.addAndGet(Duration.ofSeconds(4).toNanos());
        view.tick();
        view.applyComplete(addr("aws_ssm_parameter.b"), Action.DELETE, null, Duration.ofSeconds(10));
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        view.tick();
        view.stopTicker();
        String a = resource("aws_ssm_parameter.a", "aws_ssm_parameter", "a", "null");
        String b = resource("aws_ssm_parameter.b", "aws_ssm_parameter", "b", "null");
        assertThat(messages())
                .filteredOn(m -> m.startsWith("apply_progress"))
                .containsExactly(
                        "apply_progress | aws_ssm_parameter.a: Still creating... [10s elapsed] | {\"resource\":" + a
                                + ",\"action\":\"create\",\"elapsed_seconds\":10}",
                        "apply_progress | aws_ssm_parameter.b: Still destroying... [id=/b, 10s elapsed] | {\"resource\":"
                                + b + ",\"action\":\"delete\",\"elapsed_seconds\":10}",
                        "apply_progress | aws_ssm_parameter.a: Still creating... [20s elapsed] | {\"resource\":" + a
                                + ",\"action\":\"create\",\"elapsed_seconds\":20}");
    }
}
