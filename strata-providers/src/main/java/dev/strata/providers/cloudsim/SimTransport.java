package dev.strata.providers.cloudsim;

import dev.strata.provider.ConnectionFailure;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.classic.MinimalHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * The simulator's HTTP transport: Apache HttpClient 5's classic (blocking) client for one endpoint, on a
 * pool of kept-alive connections. A request runs on its caller's thread from start to end; an interrupt
 * of that (virtual) thread closes its socket and ends the request. Nothing is retried here except one
 * case: a request on a pooled connection that the server had closed meanwhile (an idle timeout) fails
 * before its answer arrives, and is sent again once on a new connection: it never reached the server's
 * handler. Server errors, throttling and broken answers are {@link SimClient}'s to retry.
 */
final class SimTransport implements AutoCloseable {

    /** An answer: status, headers, body. */
    record Reply(int status, Header[] headers, byte[] body) {
        /** The last header of that name, or null. */
        String header(String name) {
            for (int i = headers.length - 1; i >= 0; i--) {
                if (headers[i].getName().equalsIgnoreCase(name)) {
                    return headers[i].getValue();
                }
            }
            return null;
        }
    }

    /** Connections idle longer are closed rather than reused: servers drop idle connections after a while. */
    static final Duration MAX_IDLE = Duration.ofSeconds(20);

    /**
     * Connections to the endpoint at most: above any parallelism the engine runs a provider with, so a call
     * never waits for a connection another call holds.
     */
    static final int MAX_CONNECTIONS = 512;

    private final HttpHost target;
    private final String basePath;
    private final PoolingHttpClientConnectionManager pool;
    private final MinimalHttpClient client;

    SimTransport(String endpoint, Duration connectTimeout, Duration readTimeout) {
        URI u = URI.create(endpoint);
        String scheme = u.getScheme() == null ? "http" : u.getScheme().toLowerCase(Locale.ROOT);
        if (u.getHost() == null) {
            throw new IllegalArgumentException("endpoint has no host: " + endpoint);
        }
        this.target = new HttpHost(scheme, u.getHost(), u.getPort());
        String p = u.getRawPath() == null ? "" : u.getRawPath();
        this.basePath = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
        this.pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(MAX_CONNECTIONS)
                .setMaxConnPerRoute(MAX_CONNECTIONS)
                .setTlsSocketStrategy(SimTransport::tls)
                .setDefaultSocketConfig(SocketConfig.custom()
                        .setTcpNoDelay(true)
                        .setSoTimeout(Timeout.of(readTimeout))
                        .build())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .setSocketTimeout(Timeout.of(readTimeout))
                        .setIdleTimeout(Timeout.of(MAX_IDLE))
                        .build())
                .build();
        // The minimal client: no redirects, cookies, authentication, decompression or automatic retries,
        // and no chain of handlers for them either, whose cost per request was about the JDK client's.
        this.client = HttpClients.createMinimal(pool);
    }

    /**
     * Sends one request ({@code path} below the endpoint's own path) as JSON and reads the whole answer.
     * I/O failures come back as they are, for the caller to classify (a connection that could not be
     * made, or one that broke).
     */
    Reply exchange(String method, String path, byte[] body, String clientId, String idempotencyKey) throws IOException {
        for (int attempt = 1; ; attempt++) {
            // A request of its own for each attempt: the client adds its headers to the one it sends.
            ClassicHttpRequest request = request(method, path, body, clientId, idempotencyKey);
            HttpClientContext context = HttpClientContext.create();
            boolean[] answered = {false};
            try {
                return client.execute(target, request, context, response -> {
                    answered[0] = true;
                    return new Reply(
                            response.getCode(),
                            response.getHeaders(),
                            response.getEntity() == null ? new byte[0] : EntityUtils.toByteArray(response.getEntity()));
                });
            } catch (IOException e) {
                if (attempt == 1 && !answered[0] && resendable(e, context)) {
                    continue;
                }
                throw e;
            }
        }
    }

    private ClassicHttpRequest request(
            String method, String path, byte[] body, String clientId, String idempotencyKey) {
        ClassicHttpRequest request = new BasicClassicHttpRequest(method, target, basePath + path);
        request.addHeader("Content-Type", "application/json");
        if (clientId != null) {
            request.addHeader("X-Client-Id", clientId);
        }
        if (idempotencyKey != null) {
            request.addHeader("Idempotency-Key", idempotencyKey);
        }
        if (body != null) {
            // No content type of its own: the header above says it, once.
            request.setEntity(new ByteArrayEntity(body, null));
        }
        return request;
    }

    /**
     * Whether a request that failed before its answer arrived went over a connection that had served an
     * earlier answer and was found closed (nothing at all came back, or the write or read was refused by
     * a reset): the request then never reached the server's handler, whatever its method.
     */
    private static boolean resendable(IOException e, HttpClientContext context) {
        EndpointDetails details = context.getEndpointDetails();
        return details != null
                && details.getResponseCount() > 0
                && (e instanceof NoHttpResponseException || e instanceof SocketException)
                && !Thread.currentThread().isInterrupted();
    }

    /**
     * The JVM's default TLS context and trust store, with host name verification; made on the first https
     * connection, not with the client: loading the trust store costs a plain http run a few hundred ms of
     * CPU.
     */
    private static SSLSocket tls(Socket socket, String target, int port, Object attachment, HttpContext context)
            throws IOException {
        return SystemTls.STRATEGY.upgrade(socket, target, port, attachment, context);
    }

    /** Holds the TLS strategy until it is first used. */
    private static final class SystemTls {
        static final TlsSocketStrategy STRATEGY = DefaultClientTlsStrategy.createSystemDefault();
    }

    /** How many idle connections the pool holds (for tests). */
    int idleConnections() {
        return pool.getTotalStats().getAvailable();
    }

    /**
     * Any I/O failure of an established connection in words for a message, without Java names; the
     * client's own exceptions for a connection closed early get the same words as the JDK's.
     */
    static String describe(IOException e) {
        if (e instanceof NoHttpResponseException) {
            return "the connection was closed before a response arrived";
        }
        if (e instanceof ConnectionClosedException) {
            return "the connection was closed before the response was complete";
        }
        return ConnectionFailure.describe(e);
    }

    /** Closes the idle connections; requests under way close theirs when they end. */
    @Override
    public void close() {
        client.close(CloseMode.GRACEFUL);
    }
}
