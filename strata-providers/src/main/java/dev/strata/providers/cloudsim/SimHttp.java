package dev.strata.providers.cloudsim;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * A blocking HTTP/1.1 client for one endpoint, on kept-alive connections taken from and returned to a
 * pool. Each request runs on its caller's thread from start to end: no selector thread, no futures and
 * no hand-offs between threads, which were most of the JDK client's cost per request (a create is one
 * small request and one small answer). Requests on a pooled connection that the server closed meanwhile
 * (an idle timeout) are sent again on a new connection when nothing of the answer had arrived.
 */
final class SimHttp implements AutoCloseable {

    /** An answer: status, headers by lower-case name (the last of repeated ones), body. */
    record Reply(int status, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Connections idle longer are closed rather than reused: servers drop idle connections after a while. */
    static final Duration MAX_IDLE = Duration.ofSeconds(20);

    /** Idle connections kept beyond this are closed (more were open at a peak than will be needed again). */
    private static final int MAX_POOLED = 512;

    private static final int MAX_LINE = 64 * 1024;

    private final String scheme;
    private final String host;
    private final int port;
    private final String hostHeader;
    private final String basePath;
    private final int connectTimeoutMs;
    private final int readTimeoutMs;
    private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
    /** How many {@link #idle} holds, kept apart: the deque counts by walking itself. */
    private final AtomicInteger idleCount = new AtomicInteger();

    private volatile boolean closed;

    SimHttp(String endpoint, Duration connectTimeout, Duration readTimeout) {
        URI u = URI.create(endpoint);
        this.scheme = u.getScheme() == null ? "http" : u.getScheme().toLowerCase(Locale.ROOT);
        this.host = u.getHost();
        if (host == null) {
            throw new IllegalArgumentException("endpoint has no host: " + endpoint);
        }
        this.port = u.getPort() >= 0 ? u.getPort() : scheme.equals("https") ? 443 : 80;
        this.hostHeader = u.getPort() >= 0 ? hostPart(host) + ":" + port : hostPart(host);
        String p = u.getRawPath() == null ? "" : u.getRawPath();
        this.basePath = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
        this.connectTimeoutMs = (int) connectTimeout.toMillis();
        this.readTimeoutMs = (int) readTimeout.toMillis();
    }

    private static String hostPart(String h) {
        return h.contains(":") && !h.startsWith("[") ? "[" + h + "]" : h;
    }

    /** How many idle connections the pool holds (for tests). */
    int idleConnections() {
        return idleCount.get();
    }

    /**
     * Sends one request ({@code path} below the endpoint's own path) and reads the whole answer.
     * {@code headers} are name/value pairs. I/O failures come back as they are, for the caller to
     * classify (a connection that could not be made, or one that broke).
     */
    Reply exchange(String method, String path, byte[] body, String... headers) throws IOException {
        byte[] head = head(method, path, body, headers);
        while (true) {
            Connection c = pooled();
            boolean reused = c != null;
            if (c == null) {
                c = open();
            }
            boolean answered = false;
            try {
                c.out.write(head);
                if (body != null) {
                    c.out.write(body);
                }
                c.out.flush();
                int first = c.in.read();
                if (first < 0) {
                    throw new EOFException("connection closed before the response");
                }
                answered = true;
                Read r = read(c, first, method);
                if (r.keepAlive()) {
                    release(c);
                } else {
                    c.close();
                }
                return r.reply();
            } catch (IOException | RuntimeException e) {
                c.close();
                // A kept-alive connection the server had closed fails before any answer: the request never
                // reached the server's handler, so it is sent again on a new connection.
                if (reused
                        && !answered
                        && e instanceof IOException
                        && !Thread.currentThread().isInterrupted()) {
                    continue;
                }
                throw e;
            }
        }
    }

    private byte[] head(String method, String path, byte[] body, String... headers) {
        StringBuilder b = new StringBuilder(160);
        b.append(method).append(' ').append(basePath).append(path).append(" HTTP/1.1\r\n");
        b.append("Host: ").append(hostHeader).append("\r\n");
        if (body != null) {
            b.append("Content-Length: ").append(body.length).append("\r\n");
        } else if (!method.equals("GET") && !method.equals("DELETE") && !method.equals("HEAD")) {
            b.append("Content-Length: 0\r\n");
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            String name = headers[i];
            String value = headers[i + 1];
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("header " + name + " holds a line break");
            }
            b.append(name).append(": ").append(value).append("\r\n");
        }
        b.append("\r\n");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private Connection pooled() {
        long now = System.nanoTime();
        Connection c;
        while ((c = idle.pollFirst()) != null) {
            idleCount.decrementAndGet();
            if (now - c.idleSince < MAX_IDLE.toNanos()) {
                return c;
            }
            c.close();
        }
        return null;
    }

    private void release(Connection c) {
        if (closed || idleCount.get() >= MAX_POOLED) {
            c.close();
            return;
        }
        c.idleSince = System.nanoTime();
        // Most recently used first: the fewest connections stay warm, the rest age out.
        idleCount.incrementAndGet();
        idle.offerFirst(c);
        if (closed) {
            close();
        }
    }

    private Connection open() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), connectTimeoutMs);
            s.setSoTimeout(readTimeoutMs);
            if (scheme.equals("https")) {
                SSLSocket tls = (SSLSocket)
                        ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(s, host, port, true);
                SSLParameters p = tls.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS");
                tls.setSSLParameters(p);
                tls.startHandshake();
                s = tls;
            }
            return new Connection(s);
        } catch (IOException | RuntimeException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // the failure to connect is what matters
            }
            throw e;
        }
    }

    private record Read(Reply reply, boolean keepAlive) {}

    private static Read read(Connection c, int first, String method) throws IOException {
        while (true) {
            String status = line(c.in, first);
            first = -1;
            // "HTTP/1.1 201 Created"
            if (!status.startsWith("HTTP/") || status.length() < 12) {
                throw new IOException("malformed status line from the server");
            }
            int code;
            try {
                code = Integer.parseInt(status.substring(9, 12));
            } catch (NumberFormatException e) {
                throw new IOException("malformed status line from the server");
            }
            boolean http10 = status.startsWith("HTTP/1.0");
            Map<String, String> headers = new TreeMap<>();
            String h;
            while (!(h = line(c.in, -1)).isEmpty()) {
                int colon = h.indexOf(':');
                if (colon > 0) {
                    headers.put(
                            h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            h.substring(colon + 1).trim());
                }
            }
            if (code >= 100 && code < 200) {
                continue; // interim answers (100 Continue) precede the real one
            }
            String connection = headers.getOrDefault("connection", "").toLowerCase(Locale.ROOT);
            boolean keepAlive = http10 ? connection.contains("keep-alive") : !connection.contains("close");
            byte[] body;
            String te = headers.getOrDefault("transfer-encoding", "").toLowerCase(Locale.ROOT);
            String length = headers.get("content-length");
            if (method.equals("HEAD") || code == 204 || code == 304) {
                body = new byte[0];
            } else if (te.contains("chunked")) {
                body = chunked(c.in);
            } else if (length != null) {
                long n;
                try {
                    n = Long.parseLong(length);
                } catch (NumberFormatException e) {
                    throw new IOException("malformed Content-Length from the server");
                }
                if (n < 0 || n > Integer.MAX_VALUE - 8) {
                    throw new IOException("malformed Content-Length from the server");
                }
                body = c.in.readNBytes((int) n);
                if (body.length < n) {
                    throw new EOFException("connection closed before the response was complete");
                }
            } else {
                // No length: the body ends when the server closes the connection.
                body = c.in.readAllBytes();
                keepAlive = false;
            }
            return new Read(new Reply(code, headers, body), keepAlive);
        }
    }

    private static byte[] chunked(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line(in, -1);
            int semi = sizeLine.indexOf(';');
            String hex = (semi >= 0 ? sizeLine.substring(0, semi) : sizeLine).trim();
            int size;
            try {
                size = Integer.parseInt(hex, 16);
            } catch (NumberFormatException e) {
                throw new IOException("malformed chunk size from the server");
            }
            if (size < 0) {
                throw new IOException("malformed chunk size from the server");
            }
            if (size == 0) {
                while (!line(in, -1).isEmpty()) {
                    // trailers: none are used
                }
                return out.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length < size) {
                throw new EOFException("connection closed before the response was complete");
            }
            out.write(chunk);
            if (!line(in, -1).isEmpty()) {
                throw new IOException("malformed chunk from the server");
            }
        }
    }

    /** One CRLF- (or LF-) terminated line in ISO-8859-1; {@code first} is a byte already read, or -1. */
    private static String line(InputStream in, int first) throws IOException {
        StringBuilder b = new StringBuilder(64);
        int ch = first >= 0 ? first : in.read();
        while (ch != '\n') {
            if (ch < 0) {
                throw new EOFException("connection closed before the response was complete");
            }
            if (ch != '\r') {
                if (b.length() >= MAX_LINE) {
                    throw new IOException("response line too long");
                }
                b.append((char) ch);
            }
            ch = in.read();
        }
        return b.toString();
    }

    /** Closes the idle connections; requests under way close theirs when they end. */
    @Override
    public void close() {
        closed = true;
        Connection c;
        while ((c = idle.pollFirst()) != null) {
            idleCount.decrementAndGet();
            c.close();
        }
    }

    private static final class Connection {
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        long idleSince;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 8192);
            this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // nothing more to release
            }
        }
    }
}
