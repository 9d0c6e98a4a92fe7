package dev.strata.providers.postgresql;

import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * A libpq connection URI ({@code postgres://user:password@host:port/database?sslmode=...}), as the
 * provider's {@code connection_string}: its parts fill the connection arguments the configuration
 * leaves unset.
 */
record ConnectionUri(
        String host,
        Integer port,
        String database,
        String user,
        String password,
        String sslmode,
        Integer connectTimeout) {

    /** Null when the text is not a postgres:// or postgresql:// URI. */
    static ConnectionUri parse(String text) {
        URI u;
        try {
            u = new URI(text);
        } catch (URISyntaxException e) {
            return null;
        }
        if (u.getScheme() == null
                || !(u.getScheme().equals("postgres") || u.getScheme().equals("postgresql"))) {
            return null;
        }
        String user = null;
        String password = null;
        if (u.getRawUserInfo() != null) {
            String[] up = u.getRawUserInfo().split(":", 2);
            user = decode(up[0]);
            password = up.length > 1 ? decode(up[1]) : null;
        }
        String db = u.getRawPath() == null || u.getRawPath().length() <= 1
                ? null
                : decode(u.getRawPath().substring(1));
        Map<String, String> q = new TreeMap<>();
        if (u.getRawQuery() != null) {
            for (String kv : u.getRawQuery().split("&")) {
                String[] p = kv.split("=", 2);
                q.put(decode(p[0]), p.length > 1 ? decode(p[1]) : "");
            }
        }
        Integer timeout;
        try {
            timeout = q.containsKey("connect_timeout") ? Integer.valueOf(q.get("connect_timeout")) : null;
        } catch (NumberFormatException e) {
            return null;
        }
        return new ConnectionUri(
                u.getHost(), u.getPort() < 0 ? null : u.getPort(), db, user, password, q.get("sslmode"), timeout);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** The configuration with this URI's parts where the configuration has none. */
    Value under(Value config) {
        Map<String, Value> m = new TreeMap<>(config.attributes());
        fill(m, "host", host == null ? null : Value.string(host));
        fill(m, "port", port == null ? null : Value.number(BigDecimal.valueOf(port)));
        fill(m, "database", database == null ? null : Value.string(database));
        fill(m, "username", user == null ? null : Value.string(user));
        fill(m, "password", password == null ? null : Value.string(password));
        fill(m, "sslmode", sslmode == null ? null : Value.string(sslmode));
        fill(m, "connect_timeout", connectTimeout == null ? null : Value.number(BigDecimal.valueOf(connectTimeout)));
        return Value.object(m);
    }

    private static void fill(Map<String, Value> m, String key, Value v) {
        Value cur = m.get(key);
        if (v != null && (cur == null || cur.isNull())) {
            m.put(key, v);
        }
    }

    @Override
    public String toString() {
        return "ConnectionUri[host=" + host + ", port=" + port + ", database=" + database + ", user=" + user
                + ", password=" + (password == null ? "none" : "(sensitive)") + "]";
    }
}
