package dev.strata.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.BlobMetadata;

/**
 * What S3Proxy 2.6 lacks of S3's conditional writes, in front of it: a PUT with {@code If-None-Match: *}
 * fails with 412 when the object exists, a PUT or DELETE with {@code If-Match: ETAG} fails with 412 when the
 * object's ETag differs; the check and the write happen under one lock, so two conditional writes of the same
 * key cannot both succeed (as on S3). Every request is otherwise passed on unchanged (its Host header too, so
 * the client's signature stays valid) and S3Proxy's answer passed back.
 */
final class ConditionalS3Front {
    static {
        // The Host header must be forwarded as the client signed it.
        System.setProperty("jdk.httpclient.allowRestrictedHeaders", "host");
    }

    private static final Set<String> HOP =
            Set.of("connection", "content-length", "expect", "transfer-encoding", "keep-alive", "upgrade", "date");

    private final HttpServer server;
    private final HttpClient client;
    private final int backendPort;
    private final BlobStore store;
    private final Object writes = new Object();

    private ConditionalS3Front(HttpServer server, int backendPort, BlobStore store) {
        this.server = server;
        this.backendPort = backendPort;
        this.store = store;
        this.client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    static ConditionalS3Front start(int backendPort, BlobStore store) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        ConditionalS3Front f = new ConditionalS3Front(s, backendPort, store);
        s.createContext("/", f::handle);
        s.setExecutor(Executors.newFixedThreadPool(16, r -> {
            Thread t = new Thread(r, "s3-front");
            t.setDaemon(true);
            return t;
        }));
        s.start();
        return f;
    }

    int port() {
        return server.getAddress().getPort();
    }

    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            String method = ex.getRequestMethod();
            String ifNoneMatch = ex.getRequestHeaders().getFirst("If-None-Match");
            String ifMatch = ex.getRequestHeaders().getFirst("If-Match");
            boolean conditional = (method.equals("PUT") && (ifNoneMatch != null || ifMatch != null))
                    || (method.equals("DELETE") && ifMatch != null);
            if (!(method.equals("PUT") || method.equals("DELETE"))) {
                forward(ex, body);
                return;
            }
            synchronized (writes) {
                if (conditional) {
                    String failed = precondition(ex.getRequestURI().getRawPath(), ifNoneMatch, ifMatch);
                    if (failed != null) {
                        byte[] xml =
                                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>PreconditionFailed</Code>"
                                                + "<Message>At least one of the pre-conditions you specified did not hold</Message>"
                                                + "<Condition>" + failed + "</Condition></Error>")
                                        .getBytes(StandardCharsets.UTF_8);
                        ex.getResponseHeaders().set("Content-Type", "application/xml");
                        ex.sendResponseHeaders(412, xml.length);
                        ex.getResponseBody().write(xml);
                        return;
                    }
                }
                forward(ex, body);
            }
        }
    }

    /** The failed condition's header name, or null when the request may go on. */
    private String precondition(String rawPath, String ifNoneMatch, String ifMatch) {
        String path = java.net.URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
        if (path.startsWith("/")) {
            path = path.substring(1);
        }
        int slash = path.indexOf('/');
        if (slash <= 0) {
            return null; // a bucket operation
        }
        BlobMetadata m = store.blobMetadata(path.substring(0, slash), path.substring(slash + 1));
        if (ifNoneMatch != null && ifNoneMatch.strip().equals("*") && m != null) {
            return "If-None-Match";
        }
        if (ifMatch != null) {
            String want = ifMatch.strip().replace("\"", "");
            String have = m == null || m.getETag() == null ? null : m.getETag().replace("\"", "");
            if (have == null || !(want.equals("*") || want.equals(have))) {
                return "If-Match";
            }
        }
        return null;
    }

    private void forward(HttpExchange ex, byte[] body) throws IOException {
        URI target = URI.create(
                "http://127.0.0.1:" + backendPort + ex.getRequestURI().toString());
        HttpRequest.Builder rb = HttpRequest.newBuilder(target)
                .method(
                        ex.getRequestMethod(),
                        body.length == 0 && !ex.getRequestMethod().equals("PUT")
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, List<String>> h : ex.getRequestHeaders().entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (HOP.contains(name)
                    || name.equals("if-none-match") && ex.getRequestMethod().equals("PUT")) {
                continue;
            }
            for (String v : h.getValue()) {
                try {
                    rb.header(h.getKey(), v);
                } catch (IllegalArgumentException restricted) {
                    // Host, when the HTTP client was set up before the property above could allow it (another
                    // test in this JVM used java.net.http first). S3Proxy here checks no signatures and is
                    // addressed path-style, so the request means the same without it.
                }
            }
        }
        HttpResponse<byte[]> r;
        try {
            r = client.send(rb.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while forwarding to S3Proxy", e);
        }
        r.headers().map().forEach((k, vs) -> {
            if (!HOP.contains(k.toLowerCase(Locale.ROOT)) && !k.startsWith(":")) {
                vs.forEach(v -> ex.getResponseHeaders().add(k, v));
            }
        });
        byte[] out = r.body();
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(r.statusCode(), head || out.length == 0 ? -1 : out.length);
        if (!head && out.length > 0) {
            try (OutputStream os = ex.getResponseBody()) {
                os.write(out);
            }
        }
    }
}
