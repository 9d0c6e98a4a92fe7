package dev.strata.providers.cloudsim;

import dev.strata.provider.ConnectionFailure;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.http.impl.bootstrap.HttpRequester;
import org.apache.hc.core5.http.impl.bootstrap.RequesterBootstrap;
import org.apache.hc.core5.http.impl.io.DefaultBHttpClientConnection;
import org.apache.hc.core5.http.impl.io.DefaultBHttpClientConnectionFactory;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.http.protocol.DefaultHttpProcessor;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.http.protocol.RequestContent;
import org.apache.hc.core5.http.protocol.RequestTargetHost;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The simulator's HTTP transport: Apache HttpCore 5's classic (blocking) {@link HttpRequester} for one
 * endpoint, on its own pool of kept-alive connections. HttpClient 5's execution runtime on top of it (a
 * route, a lease request and an endpoint object per request, a client context, the client's connection
 * manager around the same HttpCore pool) cost about a tenth of a create's CPU in a short, cold run and
 * added nothing the simulator needs. A request runs on its caller's thread from start to end; an
 * interrupt of that (virtual) thread closes its socket and ends the request. Nothing is retried here
 * except one case: a request on a pooled connection that the server had closed meanwhile (an idle
 * timeout) fails before its answer arrives, and is sent again once on a new connection: it never reached
 * the server's handler. Server errors, throttling and broken answers are {@link SimClient}'s to retry.
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

    /** How often at most a request first closes the connections idle longer than {@link #MAX_IDLE}. */
    private static final long IDLE_SWEEP_NANOS = Duration.ofSeconds(1).toNanos();

    /**
     * Connections to the endpoint at most: above any parallelism the engine runs a provider with, so a call
     * never waits for a connection another call holds.
     */
    static final int MAX_CONNECTIONS = 512;

    private static final byte[] NO_BODY = new byte[0];

    private final HttpHost target;
    private final String basePath;
    private final Timeout connectTimeout;
    private final HttpRequester requester;
    private volatile long lastIdleSweep = System.nanoTime();

    SimTransport(String endpoint, Duration connectTimeout, Duration readTimeout) {
        URI u = URI.create(endpoint);
        String scheme = u.getScheme() == null ? "http" : u.getScheme().toLowerCase(Locale.ROOT);
        if (u.getHost() == null) {
            throw new IllegalArgumentException("endpoint has no host: " + endpoint);
        }
        this.target = new HttpHost(scheme, u.getHost(), u.getPort());
        String p = u.getRawPath() == null ? "" : u.getRawPath();
        this.basePath = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
        this.connectTimeout = Timeout.of(connectTimeout);
        this.requester = RequesterBootstrap.bootstrap()
                // Content-Length and Host; the request carries its own Content-Type.
                .setHttpProcessor(new DefaultHttpProcessor(new RequestContent(), new RequestTargetHost()))
                // The requester connects (and shakes hands) with its socket timeout: the connect timeout
                // here, the read timeout set once the connection is made (below).
                .setSocketConfig(SocketConfig.custom()
                        .setTcpNoDelay(true)
                        .setSoTimeout(this.connectTimeout)
                        .build())
                .setConnectionFactory(new ReadTimeout(Timeout.of(readTimeout).toMillisecondsIntBound()))
                .setSslSocketFactory(new SystemTls())
                .setSslSetupHandler(params -> params.setEndpointIdentificationAlgorithm("HTTPS"))
                .setMaxTotal(MAX_CONNECTIONS)
                .setDefaultMaxPerRoute(MAX_CONNECTIONS)
                // Most recently used first, so connections left idle are the ones that age out; the lax
                // pool leases without the strict pool's one lock over every connection.
                .setPoolReusePolicy(PoolReusePolicy.LIFO)
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
                .create();
    }

    /** Connections whose socket reads time out after the read timeout, not the connect timeout. */
    private static final class ReadTimeout implements HttpConnectionFactory<DefaultBHttpClientConnection> {
        private final DefaultBHttpClientConnectionFactory connections = new DefaultBHttpClientConnectionFactory();
        private final int readMillis;

        ReadTimeout(int readMillis) {
            this.readMillis = readMillis;
        }

        @Override
        public DefaultBHttpClientConnection createConnection(Socket socket) throws IOException {
            socket.setSoTimeout(readMillis);
            return connections.createConnection(socket);
        }

        @Override
        public DefaultBHttpClientConnection createConnection(SSLSocket tls, Socket socket) throws IOException {
            tls.setSoTimeout(readMillis);
            return connections.createConnection(tls, socket);
        }
    }

    /**
     * Sends one request ({@code path} below the endpoint's own path) as JSON and reads the whole answer.
     * I/O failures come back as they are, for the caller to classify (a connection that could not be
     * made, or one that broke).
     */
    Reply exchange(String method, String path, byte[] body, String clientId, String idempotencyKey) throws IOException {
        closeIdle();
        for (int attempt = 1; ; attempt++) {
            // A request of its own for each attempt: the requester adds its headers to the one it sends.
            ClassicHttpRequest request = request(method, path, body, clientId, idempotencyKey);
            HttpCoreContext context = HttpCoreContext.create();
            boolean[] answered = {false};
            try {
                return requester.execute(target, request, connectTimeout, context, response -> {
                    answered[0] = true;
                    return new Reply(
                            response.getCode(),
                            response.getHeaders(),
                            response.getEntity() == null ? NO_BODY : EntityUtils.toByteArray(response.getEntity()));
                });
            } catch (HttpException e) {
                // A malformed answer (status line, headers, framing): a broken exchange, as HttpClient reported it.
                throw new IOException(e.getMessage(), e);
            } catch (IOException e) {
                if (attempt == 1 && !answered[0] && resendable(e, context)) {
                    continue;
                }
                throw e;
            }
        }
    }

    /** Closes the connections idle longer than {@link #MAX_IDLE}, at most once a second. */
    private void closeIdle() {
        long now = System.nanoTime();
        if (now - lastIdleSweep > IDLE_SWEEP_NANOS) {
            lastIdleSweep = now;
            requester.closeIdle(TimeValue.of(MAX_IDLE));
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
    private static boolean resendable(IOException e, HttpCoreContext context) {
        EndpointDetails details = context.getEndpointDetails();
        return details != null
                && details.getResponseCount() > 0
                && (e instanceof NoHttpResponseException || e instanceof SocketException)
                && !Thread.currentThread().isInterrupted();
    }

    /**
     * The JVM's default TLS socket factory (its default context and trust store), host names verified by the
     * requester's setup above; made on the first https connection, not with the transport: loading the trust
     * store costs a plain http run a few hundred ms of CPU.
     */
    private static final class SystemTls extends SSLSocketFactory {
        private static SSLSocketFactory system() {
            return Holder.DEFAULT;
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return system().getDefaultCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return system().getSupportedCipherSuites();
        }

        @Override
        public Socket createSocket(Socket socket, String host, int port, boolean autoClose) throws IOException {
            return system().createSocket(socket, host, port, autoClose);
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return system().createSocket(host, port);
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            return system().createSocket(host, port, localHost, localPort);
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return system().createSocket(host, port);
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            return system().createSocket(address, port, localAddress, localPort);
        }

        /** Holds the JVM's factory until it is first used. */
        private static final class Holder {
            static final SSLSocketFactory DEFAULT = (SSLSocketFactory) SSLSocketFactory.getDefault();
        }
    }

    /** How many idle connections the pool holds (for tests). */
    int idleConnections() {
        return requester.getTotalStats().getAvailable();
    }

    /**
     * Any I/O failure of an established connection in words for a message, without Java names; the
     * library's own exceptions for a connection closed early get the same words as the JDK's.
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
        requester.close(CloseMode.GRACEFUL);
    }
}
