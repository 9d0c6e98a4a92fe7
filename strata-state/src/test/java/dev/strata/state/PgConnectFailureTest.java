package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.NoRouteToHostException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pg backend says why it could not reach the server, in words, and fails at once when nothing listens. */
class PgConnectFailureTest {

    @Test
    void theDriversCauseBecomesAReason() {
        assertThat(PgBackend.connectReason(new SQLException(
                        "Connection to 127.0.0.1:9 refused. Check that...",
                        "08001",
                        new ConnectException("Connection refused"))))
                .isEqualTo("connection refused");
        assertThat(PgBackend.connectReason(new SQLException(
                        "The connection attempt failed.", "08001", new UnknownHostException("db.example"))))
                .isEqualTo("host name not found (DNS lookup failed)");
        assertThat(PgBackend.connectReason(new SQLException(
                        "The connection attempt failed.", "08001", new SocketTimeoutException("Connect timed out"))))
                .isEqualTo("connection timed out");
        assertThat(PgBackend.connectReason(new SQLException(
                        "The connection attempt failed.", "08001", new NoRouteToHostException("No route to host"))))
                .isEqualTo("no route to host");
        // A login failure or a lost session is not a connect failure.
        assertThat(PgBackend.connectReason(new SQLException("password authentication failed", "28P01")))
                .isNull();
        assertThat(PgBackend.connectReason(
                        new SQLException("I/O error", "08006", new SocketTimeoutException("Read timed out"))))
                .isNull();
    }

    @Test
    void aClosedPortFailsAtOnceNamingServerAndReasonWithoutCredentials() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        long t0 = System.nanoTime();
        Result<PgBackend> r = PgBackend.connect(
                "postgres://strata:pw-not-shown@127.0.0.1:" + port + "/db?sslmode=disable", null, Map.of(), "test");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        assertThat(r.hasErrors()).isTrue();
        var d = r.diagnostics().asList().getFirst();
        assertThat(d.summary()).isEqualTo("Failed to prepare the PostgreSQL backend");
        assertThat(d.detail())
                .startsWith("Could not connect to PostgreSQL at 127.0.0.1:" + port + "/db: connection refused. ")
                .doesNotContain("pw-not-shown")
                .doesNotContain("Exception")
                .doesNotContain("..");
    }
}
