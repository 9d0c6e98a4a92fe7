package dev.strata.providers.http;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ConnectionFailure;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.DataSource;
import dev.strata.resilience.Retrying;
import dev.strata.resilience.Sleeper;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code http} data source: one HTTP request, its status, headers and body. As in HashiCorp's
 * provider since 3.0, a non-2xx status is not an error (check {@code status_code}); connection
 * errors, 429 and 5xx responses other than 501 are retried when a {@code retry} block asks for it,
 * with exponential backoff between {@code min_delay_ms} and {@code max_delay_ms} (a resilience4j retry).
 */
final class HttpData implements DataSource {

    private static final Logger LOG = LoggerFactory.getLogger(HttpData.class);

    // Headers java.net.http computes itself and refuses to take from callers.
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private static final Block RETRY = Block.builder()
            .attribute(
                    "attempts",
                    Attribute.optional(Type.NUMBER)
                            .withDescription(
                                    "The number of times the request is to be retried. For example, if 2 is specified, the request will be"
                                            + " tried a maximum of 3 times."))
            .attribute(
                    "min_delay_ms",
                    Attribute.optional(Type.NUMBER)
                            .withDescription("The minimum delay between retry requests in milliseconds."))
            .attribute(
                    "max_delay_ms",
                    Attribute.optional(Type.NUMBER)
                            .withDescription("The maximum delay between retry requests in milliseconds."))
            .build();

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(
                    "url",
                    Attribute.required(Type.STRING)
                            .withDescription("The URL for the request. Supported schemes are `http` and `https`."))
            .attribute(
                    "method",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "The HTTP Method for the request. Allowed methods are a subset of methods defined in RFC7231 namely,"
                                            + " `GET`, `HEAD`, and `POST`. `POST` support is only intended for read-only URLs, such as"
                                            + " submitting a search."))
            .attribute(
                    "request_headers",
                    Attribute.optional(Type.map(Type.STRING))
                            .withDescription("A map of request header field names and values."))
            .attribute("request_body", Attribute.optional(Type.STRING).withDescription("The request body as a string."))
            .attribute(
                    "request_timeout_ms",
                    Attribute.optional(Type.NUMBER).withDescription("The request timeout in milliseconds."))
            .attribute(
                    "ca_cert_pem",
                    Attribute.optional(Type.STRING)
                            .withDescription("Certificate Authority (CA) in PEM (RFC 1421) format."))
            .attribute(
                    "client_cert_pem",
                    Attribute.optional(Type.STRING).withDescription("Client certificate in PEM (RFC 1421) format."))
            .attribute(
                    "client_key_pem",
                    Attribute.optional(Type.STRING).withDescription("Client key in PEM (RFC 1421) format."))
            .attribute(
                    "insecure",
                    Attribute.optional(Type.BOOL)
                            .withDescription(
                                    "Disables verification of the server's certificate chain and hostname. Defaults to `false`"))
            .attribute(
                    "response_body",
                    Attribute.computed(Type.STRING).withDescription("The response body returned as a string."))
            .attribute(
                    "body",
                    Attribute.computed(Type.STRING)
                            .withDeprecated()
                            .withDescription(
                                    "The response body returned as a string. **NOTE**: This is deprecated, use `response_body` instead."))
            .attribute(
                    "response_body_base64",
                    Attribute.computed(Type.STRING)
                            .withDescription("The response body encoded as base64 (standard) as defined in RFC 4648."))
            .attribute("status_code", Attribute.computed(Type.NUMBER).withDescription("The HTTP response status code."))
            .attribute(
                    "response_headers",
                    Attribute.computed(Type.map(Type.STRING))
                            .withDescription(
                                    "A map of response header field names and values. Duplicate headers are concatenated according to"
                                            + " RFC2616."))
            .attribute("id", Attribute.computed(Type.STRING).withDescription("The URL used for the request."))
            .block("retry", NestedBlock.of(NestingMode.SINGLE, RETRY))
            .build());

    private final Sleeper sleeper;

    HttpData(Sleeper sleeper) {
        this.sleeper = sleeper;
    }

    @Override
    public String typeName() {
        return "http";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value method = Attrs.get(config, "method").unmarkDeep();
        if (method.isKnownAndNotNull() && !Set.of("GET", "HEAD", "POST").contains(method.asString())) {
            diags.error(
                    "Invalid Attribute Value Match",
                    "Attribute method value must be one of: [\"GET\" \"HEAD\" \"POST\"]," + " got: \""
                            + method.asString() + "\"",
                    AttributePath.of("method"));
        }
        Value insecure = Attrs.get(config, "insecure").unmarkDeep();
        if (insecure.isKnownAndNotNull()
                && insecure.asBool()
                && !Attrs.get(config, "ca_cert_pem").isNull()) {
            diags.error(
                    "Invalid Attribute Combination",
                    "Attribute \"ca_cert_pem\" cannot be specified when \"insecure\" is" + " specified",
                    AttributePath.of("ca_cert_pem"));
        }
        if (Attrs.get(config, "client_cert_pem").isNull()
                != Attrs.get(config, "client_key_pem").isNull()) {
            diags.error(
                    "Invalid Attribute Combination",
                    "Attributes \"client_cert_pem\" and \"client_key_pem\" must be" + " specified together",
                    AttributePath.of("client_cert_pem"));
        }
        Value headers = Attrs.get(config, "request_headers").unmarkDeep();
        if (headers.isKnownAndNotNull()) {
            for (String h : headers.attributes().keySet()) {
                if (RESTRICTED.contains(h.toLowerCase(Locale.ROOT))) {
                    diags.error(
                            "Unsupported request header",
                            "The header \"" + h + "\" is set by Strata's HTTP client from"
                                    + " the request itself and cannot be overridden.",
                            AttributePath.of("request_headers").key(h));
                }
            }
        }
        for (String a : List.of("retry")) {
            Value r = Attrs.get(config, a);
            if (r.isKnownAndNotNull()) {
                BigDecimal min = Attrs.number(r, "min_delay_ms");
                BigDecimal max = Attrs.number(r, "max_delay_ms");
                if (min != null && max != null && max.compareTo(min) < 0) {
                    diags.error(
                            "Invalid Attribute Value",
                            "Attribute retry.max_delay_ms value must be at least sum of" + " <.min_delay_ms, got: "
                                    + max.toPlainString(),
                            AttributePath.of("retry", "max_delay_ms"));
                }
            }
        }
    }

    @Override
    public Value read(Value config, ProviderDiagnostics.Builder diags) {
        String url = Attrs.string(config, "url");
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            diags.error(
                    "Error creating request", "The URL is not valid: " + e.getReason() + ".", AttributePath.of("url"));
            return null;
        }
        if (uri.getScheme() == null
                || !Set.of("http", "https").contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
            diags.error("Error creating request", "The URL scheme must be http or https.", AttributePath.of("url"));
            return null;
        }
        HttpClient client;
        try {
            client = client(config);
        } catch (GeneralSecurityException | IOException e) {
            diags.error(
                    "Error configuring TLS client",
                    "The CA certificate or client certificate could not be used (" + ConnectionFailure.describe(e)
                            + ").",
                    AttributePath.of("ca_cert_pem"));
            return null;
        }
        String method = Attrs.string(config, "method", "GET");
        String body = Attrs.string(config, "request_body");
        HttpRequest.Builder rb = HttpRequest.newBuilder(uri)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        BigDecimal timeout = Attrs.number(config, "request_timeout_ms");
        if (timeout != null && timeout.signum() > 0) {
            rb.timeout(Duration.ofMillis(timeout.longValue()));
        }
        Attrs.stringMap(config, "request_headers").forEach((k, v) -> rb.header(k, v == null ? "" : v));
        HttpRequest request = rb.build();

        Value retry = Attrs.get(config, "retry");
        int attempts = retry.isKnownAndNotNull() && Attrs.number(retry, "attempts") != null
                ? Attrs.number(retry, "attempts").intValue()
                : 0;
        long minDelay = retry.isKnownAndNotNull() && Attrs.number(retry, "min_delay_ms") != null
                ? Attrs.number(retry, "min_delay_ms").longValue()
                : 0;
        long maxDelay = retry.isKnownAndNotNull() && Attrs.number(retry, "max_delay_ms") != null
                ? Attrs.number(retry, "max_delay_ms").longValue()
                : Math.max(minDelay, 0);

        // Only scheme, host and port: the path and query may carry a token.
        String endpoint = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
        int tries = Math.max(1, attempts + 1);
        Retry retrying = Retry.of(
                "http data source",
                RetryConfig.<Outcome>custom()
                        .maxAttempts(tries)
                        .retryOnResult(Outcome::retryable)
                        .intervalBiFunction((attempt, o) ->
                                Math.max(0, Math.min(maxDelay, minDelay * (1L << Math.min(attempt - 1, 30)))))
                        .failAfterMaxAttempts(false)
                        .build());
        int[] made = {0};
        Outcome last = Retrying.call(
                retrying,
                sleeper,
                () -> {
                    made[0]++;
                    return send(client, request, method, endpoint);
                },
                (attempt, o, wait) -> {
                    LOG.debug(
                            "http data source: retrying {} {} in {} ms (attempt {} of {})",
                            method,
                            endpoint,
                            wait.toMillis(),
                            attempt + 1,
                            tries);
                    return true;
                });
        if (!(last instanceof Outcome.Got(HttpResponse<byte[]> response))) {
            String after = made[0] > 1 ? " after " + made[0] + " attempts" : "";
            if (last instanceof Outcome.Failed f && f.unreachable().isPresent()) {
                // Not transient for the engine: the retry block already had its say, and a dead endpoint
                // must fail the run in seconds, not after the engine's throttling budget.
                diags.add(ProviderDiagnostic.error(
                        "Error making request",
                        "The " + method + " request failed" + after + ": "
                                + f.unreachable().get().message() + "."));
            } else {
                Exception error = switch (last) {
                    case Outcome.Failed f -> f.error();
                    case Outcome.Interrupted i -> i.error();
                    case Outcome.Got g -> throw new IllegalStateException("a response is not a failure");
                };
                diags.add(ProviderDiagnostic.transientError(
                        "Error making request",
                        "The " + method + " request to " + endpoint + " failed" + after + ": "
                                + ConnectionFailure.describe(error) + ".",
                        new dev.strata.provider.Failure.Transient(Optional.empty())));
            }
            return null;
        }
        byte[] bytes = response.body();
        Map<String, Value> headers = new TreeMap<>();
        response.headers().map().forEach((k, vs) -> {
            if (!k.startsWith(":")) {
                headers.merge(
                        canonical(k),
                        Value.string(String.join(", ", vs)),
                        (a, b) -> Value.string(a.asString() + ", " + b.asString()));
            }
        });
        String contentType = response.headers().firstValue("content-type").orElse("");
        if (!contentType.isEmpty() && !isText(contentType)) {
            diags.add(ProviderDiagnostic.warning(
                    "Content-Type is not recognized as a text type, got \"" + contentType + "\"",
                    "If the content is binary data, Terraform may not properly handle the contents of the response.",
                    null));
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        return Attrs.with(
                config,
                "response_body",
                Value.string(text),
                "body",
                Value.string(text),
                "response_body_base64",
                Value.string(Base64.getEncoder().encodeToString(bytes)),
                "status_code",
                Value.number(response.statusCode()),
                "response_headers",
                Value.map(Type.STRING, headers),
                "id",
                Value.string(url));
    }

    /** What one request got. */
    private sealed interface Outcome {
        /** A response; 429 and server errors other than 501 are worth another try. */
        record Got(HttpResponse<byte[]> response) implements Outcome {}

        /**
         * No response. The retry block covers refused connections, as HashiCorp's provider does; a name
         * that does not resolve or a certificate that is not trusted fails the same way every time.
         */
        record Failed(IOException error, Optional<ConnectionFailure> unreachable) implements Outcome {}

        record Interrupted(InterruptedException error) implements Outcome {}

        default boolean retryable() {
            return switch (this) {
                case Got g ->
                    g.response().statusCode() == 429
                            || g.response().statusCode() >= 500 && g.response().statusCode() != 501;
                case Failed f ->
                    f.unreachable().isEmpty() || f.unreachable().get().reason().equals("connection refused");
                case Interrupted i -> false;
            };
        }
    }

    private static Outcome send(HttpClient client, HttpRequest request, String method, String endpoint) {
        long started = System.nanoTime();
        try {
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            LOG.debug(
                    "http data source: {} {} -> {} in {} ms ({} bytes)",
                    method,
                    endpoint,
                    response.statusCode(),
                    (System.nanoTime() - started) / 1_000_000,
                    response.body().length);
            return new Outcome.Got(response);
        } catch (IOException e) {
            LOG.debug(
                    "http data source: {} {} failed after {} ms: {}",
                    method,
                    endpoint,
                    (System.nanoTime() - started) / 1_000_000,
                    ConnectionFailure.describe(e));
            return new Outcome.Failed(e, ConnectionFailure.of(endpoint, e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Interrupted(e);
        }
    }

    /** Go's canonical header key: the first letter and each letter after a hyphen upper case, the rest lower. */
    static String canonical(String key) {
        StringBuilder b = new StringBuilder(key.length());
        boolean upper = true;
        for (char c : key.toCharArray()) {
            b.append(upper ? Character.toUpperCase(c) : Character.toLowerCase(c));
            upper = c == '-';
        }
        return b.toString();
    }

    private static boolean isText(String contentType) {
        String t = contentType.toLowerCase(Locale.ROOT);
        int semi = t.indexOf(';');
        String media = (semi < 0 ? t : t.substring(0, semi)).strip();
        if (media.startsWith("text/")) {
            return true;
        }
        for (String suffix : List.of("+json", "+xml", "+yaml")) {
            if (media.endsWith(suffix)) {
                return true;
            }
        }
        return Set.of(
                                "application/json",
                                "application/xml",
                                "application/yaml",
                                "application/x-yaml",
                                "application/javascript",
                                "application/x-www-form-urlencoded")
                        .contains(media)
                || t.contains("charset=utf-8")
                || t.contains("charset=us-ascii");
    }

    private static HttpClient client(Value config) throws GeneralSecurityException, IOException {
        HttpClient.Builder b = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL);
        Boolean insecure = Attrs.bool(config, "insecure");
        String ca = Attrs.string(config, "ca_cert_pem");
        KeyManager[] keys = clientKeys(Attrs.string(config, "client_cert_pem"), Attrs.string(config, "client_key_pem"));
        if (Boolean.TRUE.equals(insecure)) {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(keys, new TrustManager[] {new TrustAll()}, new SecureRandom());
            b.sslContext(ctx);
        } else if (ca != null || keys != null) {
            TrustManager[] trust = null;
            if (ca != null) {
                trust = trustManagers(ca);
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(keys, trust, new SecureRandom());
            b.sslContext(ctx);
        }
        return b.build();
    }

    private static TrustManager[] trustManagers(String ca) throws GeneralSecurityException, IOException {
        {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(ca.getBytes(StandardCharsets.US_ASCII)))) {
                ks.setCertificateEntry("ca" + i++, c);
            }
            if (i == 0) {
                throw new java.security.cert.CertificateException("no certificate in ca_cert_pem");
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            return tmf.getTrustManagers();
        }
    }

    /**
     * The client certificate and key for mutual TLS. The key must be PKCS#8 ({@code PRIVATE KEY}),
     * the form {@code tls_private_key.private_key_pem_pkcs8} produces.
     */
    private static KeyManager[] clientKeys(String certPem, String keyPem) throws GeneralSecurityException, IOException {
        if (certPem == null || keyPem == null) {
            return null;
        }
        List<Certificate> chain = new ArrayList<>(CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(certPem.getBytes(StandardCharsets.US_ASCII))));
        String b64 = keyPem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
        if (!keyPem.contains("BEGIN PRIVATE KEY")) {
            throw new java.security.spec.InvalidKeySpecException("the client key must be PKCS#8 (BEGIN PRIVATE KEY)");
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(b64));
        PrivateKey key = null;
        for (String alg : List.of("RSA", "EC", "Ed25519")) {
            try {
                key = KeyFactory.getInstance(alg).generatePrivate(spec);
                break;
            } catch (java.security.spec.InvalidKeySpecException e) {
                // try the next algorithm
            }
        }
        if (key == null) {
            throw new java.security.spec.InvalidKeySpecException("unsupported client key algorithm");
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        char[] pw = new char[0];
        ks.setKeyEntry("client", key, pw, chain.toArray(new Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, pw);
        return kmf.getKeyManagers();
    }

    /** What {@code insecure = true} asks for: no verification of the server's certificate. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
