package dev.strata.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A state server with the semantics of Terraform's {@code http} backend, on a free port of 127.0.0.1:
 * {@code GET /state} answers the stored state (404 before the first write), {@code POST /state} stores one
 * (refused with 409 while locked unless {@code ?ID=} names the lock), {@code LOCK /state} with lock info
 * takes the lock (423 and the holder's lock info when held), {@code UNLOCK /state} releases it (409 when the
 * body names another lock; a body without an ID, as {@code terraform force-unlock} sends, always releases).
 * Optionally wants HTTP Basic credentials (401 without, 403 with wrong ones).
 */
public final class HttpStateServer implements AutoCloseable {
    private static final Pattern ID = Pattern.compile("\"ID\"\\s*:\\s*\"([^\"]*)\"");

    private final HttpServer server;
    private final String username;
    private final String password;
    private byte[] state;
    private byte[] lockInfo;
    private String lockId;
    private final AtomicInteger failNext = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();

    private HttpStateServer(HttpServer server, String username, String password) {
        this.server = server;
        this.username = username;
        this.password = password;
    }

    /** A server without authentication. */
    public static HttpStateServer start() throws IOException {
        return start(null, null);
    }

    /** A server that wants these Basic credentials (none when null). */
    public static HttpStateServer start(String username, String password) throws IOException {
        return serve(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 32), username, password);
    }

    /**
     * An https server with {@code tls}'s identity that, when {@code clientCertificates} is set, completes the
     * handshake only with a client certificate its trust material accepts (mutual TLS).
     */
    public static HttpStateServer startTls(javax.net.ssl.SSLContext tls, boolean clientCertificates)
            throws IOException {
        com.sun.net.httpserver.HttpsServer s =
                com.sun.net.httpserver.HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 32);
        s.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(tls) {
            @Override
            public void configure(com.sun.net.httpserver.HttpsParameters params) {
                javax.net.ssl.SSLParameters p = tls.getDefaultSSLParameters();
                p.setNeedClientAuth(clientCertificates);
                params.setSSLParameters(p);
            }
        });
        return serve(s, null, null);
    }

    private static HttpStateServer serve(HttpServer s, String username, String password) {
        HttpStateServer h = new HttpStateServer(s, username, password);
        s.createContext("/state", h::handle);
        s.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "http-state-server");
            t.setDaemon(true);
            return t;
        }));
        s.start();
        return h;
    }

    /** {@code http://127.0.0.1:PORT/state} ({@code https} for a TLS server). */
    public String address() {
        String scheme = server instanceof com.sun.net.httpserver.HttpsServer ? "https" : "http";
        return scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/state";
    }

    /** The stored state, or null. */
    public synchronized byte[] state() {
        return state;
    }

    /** The lock ID held, or null. */
    public synchronized String lockId() {
        return lockId;
    }

    /** Answers the next {@code n} requests with 503 (to exercise retries). */
    public void failNext(int n) {
        failNext.set(n);
    }

    /** How many requests were received. */
    public int requests() {
        return requests.get();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            requests.incrementAndGet();
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                reply(ex, 503, new byte[0]);
                return;
            }
            if (username != null) {
                String auth = ex.getRequestHeaders().getFirst("Authorization");
                if (auth == null) {
                    reply(ex, 401, new byte[0]);
                    return;
                }
                String want = "Basic "
                        + Base64.getEncoder()
                                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
                if (!want.equals(auth)) {
                    reply(ex, 403, new byte[0]);
                    return;
                }
            }
            synchronized (this) {
                switch (ex.getRequestMethod()) {
                    case "GET" -> {
                        if (state == null) {
                            reply(ex, 404, new byte[0]);
                        } else {
                            ex.getResponseHeaders().set("Content-Type", "application/json");
                            reply(ex, 200, state);
                        }
                    }
                    case "POST" -> {
                        String q = ex.getRequestURI().getQuery();
                        String id = q != null && q.startsWith("ID=") ? q.substring(3) : null;
                        if (lockId != null && !lockId.equals(id)) {
                            reply(ex, 409, lockInfo);
                        } else {
                            state = body;
                            reply(ex, 200, new byte[0]);
                        }
                    }
                    case "LOCK" -> {
                        if (lockId != null) {
                            ex.getResponseHeaders().set("Content-Type", "application/json");
                            reply(ex, 423, lockInfo);
                        } else {
                            Matcher m = ID.matcher(new String(body, StandardCharsets.UTF_8));
                            if (!m.find()) {
                                reply(ex, 400, new byte[0]);
                                return;
                            }
                            lockId = m.group(1);
                            lockInfo = body;
                            reply(ex, 200, new byte[0]);
                        }
                    }
                    case "UNLOCK" -> {
                        Matcher m = ID.matcher(new String(body, StandardCharsets.UTF_8));
                        if (lockId != null
                                && m.find()
                                && !m.group(1).isEmpty()
                                && !m.group(1).equals(lockId)) {
                            reply(ex, 409, lockInfo);
                        } else {
                            lockId = null;
                            lockInfo = null;
                            reply(ex, 200, new byte[0]);
                        }
                    }
                    case "DELETE" -> {
                        state = null;
                        reply(ex, 200, new byte[0]);
                    }
                    default -> reply(ex, 405, new byte[0]);
                }
            }
        }
    }

    private static void reply(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            ex.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
