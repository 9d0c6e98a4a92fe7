package dev.strata.providers.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.value.Value;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectionUriTest {
    @Test
    void partsFillOnlyWhatTheConfigurationLeavesUnset() {
        ConnectionUri u = ConnectionUri.parse(
                "postgresql://app:p%40ss@db.example:6543/sales?sslmode=verify-full" + "&connect_timeout=7");
        assertThat(u).isEqualTo(new ConnectionUri("db.example", 6543, "sales", "app", "p@ss", "verify-full", 7));
        Value merged = u.under(Value.object(
                Map.of("host", Value.string("override"), "port", Value.nullValue(dev.strata.lang.types.Type.NUMBER))));
        assertThat(merged.attributes().get("host").asString()).isEqualTo("override");
        assertThat(merged.attributes().get("port").asNumber().intValue()).isEqualTo(6543);
        assertThat(u.toString()).doesNotContain("p@ss");
    }

    @Test
    void otherSchemesAndGarbageAreRejected() {
        assertThat(ConnectionUri.parse("mysql://x@y/z")).isNull();
        assertThat(ConnectionUri.parse("not a uri")).isNull();
        assertThat(ConnectionUri.parse("postgres://h/db?connect_timeout=soon")).isNull();
        assertThat(ConnectionUri.parse("postgres://h"))
                .isEqualTo(new ConnectionUri("h", null, null, null, null, null, null));
    }
}
