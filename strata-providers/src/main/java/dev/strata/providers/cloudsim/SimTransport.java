package dev.strata.providers.cloudsim;

import dev.strata.provider.ConnectionFailure;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import org.apache.hc.client5.http.HttpRequestRetryStrategy;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.HttpResponseInformationCallback;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The simulator's HTTP transport: Apache HttpClient 5's classic (blocking) client for one endpoint, on a
 * pool of kept-alive connections. A request runs on its caller's thread from start to end; an interrupt
 * of that (virtual) thread closes its socket and ends the request. Nothing is retried here except one
 * case: a request on a pooled connection that the server had closed meanwhile (an idle timeout) fails
 * before a byte of the answer arrives, and is sent again once on a new connection: it never reached the
 * server's handler. Server errors, throttling and broken answers are {@link SimClient}'s to retry.
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

    /** Set per attempt by {@link ResendMarking}: the attempt failed on a reused connection before any answer. */
    private static final String RESENDABLE = "dev.strata.cloudsim.resendable";

    private final HttpHost target;
    private final String basePath;
    private final PoolingHttpClientConnectionManager pool;
    private final CloseableHttpClient client;

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
                // The JVM's default TLS context and trust store, with host name verification.
                .setTlsSocketStrategy(DefaultClientTlsStrategy.createSystemDefault())
                .setDefaultSocketConfig(SocketConfig.custom()
                        .setTcpNoDelay(true)
                        .setSoTimeout(Timeout.of(readTimeout))
                        .build())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .setSocketTimeout(Timeout.of(readTimeout))
                        .build())
                .build();
        this.client = HttpClients.custom()
                .setConnectionManager(pool)
                .setRequestExecutor(new ResendMarking())
                .setRetryStrategy(new StaleConnectionResend())
                .setKeepAliveStrategy((response, context) -> TimeValue.of(MAX_IDLE))
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .disableConnectionState()
                .disableDefaultUserAgent()
                .build();
    }

    /**
     * Sends one request ({@code path} below the endpoint's own path) as JSON and reads the whole answer.
     * I/O failures come back as they are, for the caller to classify (a connection that could not be
     * made, or one that broke).
     */
    Reply exchange(String method, String path, byte[] body, String clientId, String idempotencyKey) throws IOException {
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
        return client.execute(
                target,
                request,
                response -> new Reply(
                        response.getCode(),
                        response.getHeaders(),
                        response.getEntity() == null ? new byte[0] : EntityUtils.toByteArray(response.getEntity())));
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

    /**
     * Marks an attempt that failed on a connection which had served an earlier answer, before a byte of
     * this one arrived: the request is then known not to have been handled, whatever its method.
     */
    private static final class ResendMarking extends HttpRequestExecutor {
        @Override
        public ClassicHttpResponse execute(
                ClassicHttpRequest request,
                HttpClientConnection conn,
                HttpResponseInformationCallback informationCallback,
                HttpContext context)
                throws IOException, HttpException {
            context.removeAttribute(RESENDABLE);
            EndpointDetails details = conn.getEndpointDetails();
            long answered = details == null ? 0 : details.getResponseCount();
            long received = details == null ? 0 : details.getReceivedBytesCount();
            try {
                return super.execute(request, conn, informationCallback, context);
            } catch (IOException e) {
                if (answered > 0 && details.getReceivedBytesCount() == received) {
                    context.setAttribute(RESENDABLE, Boolean.TRUE);
                }
                throw e;
            }
        }
    }

    /** Sends a request again once, only when {@link ResendMarking} marked its failure. */
    private static final class StaleConnectionResend implements HttpRequestRetryStrategy {
        @Override
        public boolean retryRequest(HttpRequest request, IOException exception, int execCount, HttpContext context) {
            return execCount == 1
                    && Boolean.TRUE.equals(context.getAttribute(RESENDABLE))
                    && !(exception instanceof InterruptedIOException)
                    && !Thread.currentThread().isInterrupted();
        }

        @Override
        public boolean retryRequest(HttpResponse response, int execCount, HttpContext context) {
            return false;
        }

        @Override
        public TimeValue getRetryInterval(HttpResponse response, int execCount, HttpContext context) {
            return TimeValue.ZERO_MILLISECONDS;
        }

        @Override
        public TimeValue getRetryInterval(
                HttpRequest request, IOException exception, int execCount, HttpContext context) {
            return TimeValue.ZERO_MILLISECONDS;
        }
    }
}
