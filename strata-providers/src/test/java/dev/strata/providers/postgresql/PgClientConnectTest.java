package dev.strata.providers.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.strata.provider.Failure;
import dev.strata.provider.ProviderDiagnostic;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A PostgreSQL server that cannot be reached is a permanent error for the engine, not a transient one retried for minutes. */
class PgClientConnectTest {

    @Test
    void aClosedPortIsAPermanentErrorNamingTheServer() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        PgClient client = new PgClient("127.0.0.1", port, "postgres", "strata", "pw-not-shown", "disable", 5, Map.of());
        SQLException e = catchThrowableOfType(SQLException.class, () -> client.connect(null));
        ProviderDiagnostic d = PgClient.error("Could not create role app", e, true);
        assertThat(d.failure()).isInstanceOf(Failure.Permanent.class);
        assertThat(d.detail())
                .isEqualTo("PostgreSQL could not connect to 127.0.0.1:" + port + ": connection refused. Check that "
                        + "the server is running and accepts connections there, and the provider's host and port.");
    }

    @Test
    void aLostSessionStaysTransient() {
        ProviderDiagnostic d = PgClient.error("Could not read role app", new SQLException("I/O error", "08006"), true);
        assertThat(d.failure()).isInstanceOf(Failure.Transient.class);
    }
}
