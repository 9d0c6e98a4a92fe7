package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The state behind a REST endpoint, spoken as Terraform's {@code http} backend speaks it (GitLab's
 * managed state among others): GET the state from {@code address} (404 or an empty body: none yet), POST
 * it there (with {@code ?ID=<lock id>} while locked, and {@code Content-MD5}), lock with
 * {@code lock_method} on {@code lock_address} sending the lock info (423 or 409 with the holder's lock
 * info when it is held), unlock with {@code unlock_method} on {@code unlock_address}. Only the default
 * workspace exists. Failed requests (connection errors and 5xx answers) are retried as {@code retry_*} say.
 */
public final class HttpBackend implements Backend {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(HttpBackend.class);
    private final HttpSettings settings;
    private final HttpClient client;
    private final String version;
    private final Encryption encryption;

    private HttpBackend(HttpSettings settings, HttpClient client, String version, Encryption encryption) {
        this.settings = settings;
        this.client = client;
        this.version = version;
        this.encryption = encryption;
    }

    public static Result<HttpBackend> configure(Map<String, String> raw, Map<String, String> env, String version) {
        Result<HttpSettings> r = HttpSettings.read(raw, env);
        if (r.hasErrors()) {
            return Result.of(null, r.diagnostics());
        }
        HttpClient.Builder b = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL);
        Result<javax.net.ssl.SSLContext> tls = HttpTls.context(r.value());
        if (tls.hasErrors()) {
            return Result.of(null, tls.diagnostics());
        }
        if (tls.value() != null) {
            b.sslContext(tls.value());
        }
        return Result.of(new HttpBackend(r.value(), b.build(), version, Encryption.NONE), r.diagnostics());
    }

    public HttpBackend withEncryption(Encryption e) {
        return new HttpBackend(settings, client, version, e);
    }

    HttpSettings settings() {
        return settings;
    }

    Encryption encryption() {
        return encryption;
    }

    String version() {
        return version;
    }

    /** The address without user info or query, for messages (a token may be in the query). */
    static String display(URI u) {
        return u.getScheme() + "://" + u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "") + u.getRawPath();
    }

    @Override
    public Result<List<String>> workspaces() {
        return Result.of(List.of(Workspaces.DEFAULT));
    }

    @Override
    public Result<String> createWorkspace(String name) {
        return Result.of(name, Diagnostics.of(workspacesNotSupported()));
    }

    @Override
    public Result<String> deleteWorkspace(String name) {
        return Result.of(name, Diagnostics.of(workspacesNotSupported()));
    }

    private static Diagnostic workspacesNotSupported() {
        return Diagnostic.error(
                "Failed to create/delete workspace",
                "workspaces not supported: the http backend keeps one state at its address. Use one address per"
                        + " environment (one working directory or -backend-config each).",
                null);
    }

    @Override
    public Result<StateManager> open(String workspace, LockRequest request) {
        if (!workspace.equals(Workspaces.DEFAULT)) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Workspace does not exist",
                            "The http backend has only the \"default\" workspace; \"" + workspace
                                    + "\" is selected (TF_WORKSPACE or strata workspace select).",
                            null)));
        }
        LockInfo lock = null;
        if (request.enabled() && settings.lockAddress() != null) {
            Result<LockInfo> l = lock(request);
            if (l.hasErrors()) {
                return Result.of(null, l.diagnostics());
            }
            lock = l.value();
        }
        HttpStateManager m = new HttpStateManager(this, lock);
        Diagnostics loaded = m.load();
        if (loaded.hasErrors()) {
            m.close();
            return Result.of(null, loaded);
        }
        return Result.of(m, loaded);
    }

    private Result<LockInfo> lock(LockRequest request) {
        // The http backend keeps its own pauses (it takes no LockTiming): 100 ms first, at most 2 s.
        LockWait wait = new LockWait(request.timeout(), Duration.ofMillis(100), Duration.ofSeconds(2));
        while (true) {
            Instant now = Instant.now();
            LockInfo mine = new LockInfo(
                    UUID.randomUUID().toString(),
                    request.operation(),
                    request.info(),
                    Hosts.who(),
                    version,
                    now,
                    "",
                    Hosts.hostName(),
                    Hosts.pid(),
                    Hosts.processStart(),
                    null);
            Answer a;
            try {
                a = send(settings.lockMethod(), settings.lockAddress(), mine.toJson(), "lock");
            } catch (IOException e) {
                return Result.of(
                        null, Diagnostics.of(unreachable("Error acquiring the state lock", settings.lockAddress(), e)));
            }
            switch (a.status()) {
                case 200, 201, 204 -> {
                    return Result.of(mine);
                }
                case 423, 409 -> {
                    if (wait.expired()) {
                        LockInfo holder = a.body().length == 0
                                ? null
                                : LockInfo.parse(a.body(), "lock response").value();
                        return Result.of(null, Diagnostics.of(locked(holder, request, wait.waited())));
                    }
                    if (!wait.pause()) {
                        return Result.of(null, Diagnostics.of(LockWait.interrupted()));
                    }
                }
                default -> {
                    return Result.of(
                            null, Diagnostics.of(status("Error acquiring the state lock", settings.lockAddress(), a)));
                }
            }
        }
    }

    private Diagnostic locked(LockInfo holder, LockRequest request, Duration waited) {
        StringBuilder d = new StringBuilder(
                holder == null
                        ? "Error message: HTTP remote state already locked, failed to unmarshal body\n"
                        : "Error message: HTTP remote state already locked: ID=" + holder.id() + "\n"
                                + holder.describe());
        if (!request.timeout().isZero()) {
            d.append("\nGave up after waiting ").append(Durations.human(waited)).append(".\n");
        }
        d.append("\nTerraform acquires a state lock to protect the state from being written\n"
                + "by multiple users at the same time. Please resolve the issue above and try\n"
                + "again. For most commands, you can disable locking with the \"-lock=false\"\n"
                + "flag, but this is not recommended.");
        return Diagnostic.error("Error acquiring the state lock", d.toString(), null);
    }

    void unlock(LockInfo lock) {
        if (lock == null || settings.unlockAddress() == null) {
            return;
        }
        try {
            Answer a = send(settings.unlockMethod(), settings.unlockAddress(), lock.toJson(), "unlock");
            if (a.status() != 200 && a.status() != 204) {
                LOG.warn("unlocking {} answered {}", display(settings.unlockAddress()), a.status());
            }
        } catch (IOException e) {
            LOG.warn("unlocking {} failed: {}", display(settings.unlockAddress()), e.getMessage());
        }
    }

    @Override
    public Result<LockInfo> forceUnlock(String workspace, String lockId) {
        if (settings.unlockAddress() == null) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to unlock state",
                            "The http backend has no unlock_address, so its state is never locked.",
                            null)));
        }
        LockInfo info = new LockInfo(lockId, "", "", "", "", null, "", "", 0, null, null);
        try {
            Answer a = send(settings.unlockMethod(), settings.unlockAddress(), info.toJson(), "unlock");
            if (a.status() == 200 || a.status() == 204) {
                return Result.of(info);
            }
            return Result.of(null, Diagnostics.of(status("Failed to unlock state", settings.unlockAddress(), a)));
        } catch (IOException e) {
            return Result.of(null, Diagnostics.of(unreachable("Failed to unlock state", settings.unlockAddress(), e)));
        }
    }

    /** An HTTP answer: status and body. */
    record Answer(int status, byte[] body, String contentMd5) {}

    /** One request, retried on connection failures and 5xx answers as retry_max/retry_wait_* say. */
    Answer send(String method, URI uri, byte[] body, String what) throws IOException {
        IOException last = null;
        Duration wait = settings.retryWaitMin();
        for (int attempt = 0; attempt <= settings.retryMax(); attempt++) {
            if (attempt > 0) {
                try {
                    Thread.sleep(wait.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
                wait = wait.multipliedBy(2).compareTo(settings.retryWaitMax()) > 0
                        ? settings.retryWaitMax()
                        : wait.multipliedBy(2);
            }
            HttpRequest.Builder rb = HttpRequest.newBuilder(uri)
                    .timeout(Duration.ofSeconds(60))
                    .method(
                            method,
                            body == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofByteArray(body));
            if (body != null) {
                rb.header("Content-Type", "application/json");
                rb.header("Content-MD5", Base64.getEncoder().encodeToString(md5(body)));
            }
            if (settings.username() != null || settings.password() != null) {
                String up = (settings.username() == null ? "" : settings.username()) + ":"
                        + (settings.password() == null ? "" : settings.password());
                rb.header(
                        "Authorization",
                        "Basic " + Base64.getEncoder().encodeToString(up.getBytes(StandardCharsets.UTF_8)));
            }
            try {
                HttpResponse<byte[]> r = client.send(rb.build(), HttpResponse.BodyHandlers.ofByteArray());
                LOG.debug("http backend {} {} ({}): {}", method, display(uri), what, r.statusCode());
                if (r.statusCode() >= 500 && r.statusCode() != 501 && attempt < settings.retryMax()) {
                    continue;
                }
                return new Answer(
                        r.statusCode(),
                        r.body(),
                        r.headers().firstValue("Content-MD5").orElse(null));
            } catch (IOException e) {
                LOG.debug("http backend {} {} ({}) failed: {}", method, display(uri), what, e.toString());
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        throw last;
    }

    static byte[] md5(byte[] b) {
        try {
            return MessageDigest.getInstance("MD5").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }

    /** The diagnostic of an answer that is not what the protocol expects, worded as Terraform words them. */
    Diagnostic status(String summary, URI uri, Answer a) {
        String detail = switch (a.status()) {
            case 401 ->
                "HTTP remote state endpoint requires auth: " + display(uri)
                        + " answered 401. Set username and password (or TF_HTTP_USERNAME/TF_HTTP_PASSWORD).";
            case 403 ->
                "HTTP remote state endpoint invalid auth: " + display(uri)
                        + " answered 403. Check username and password.";
            case 500 -> "HTTP remote state internal server error: " + display(uri) + " answered 500.";
            default -> "Unexpected HTTP response code " + a.status() + " from " + display(uri) + ".";
        };
        return Diagnostic.error(summary, detail, null);
    }

    Diagnostic unreachable(String summary, URI uri, IOException e) {
        String reason = e instanceof java.net.ConnectException
                ? "connection refused"
                : e instanceof java.net.http.HttpTimeoutException
                        ? "timed out"
                        : e instanceof javax.net.ssl.SSLException
                                ? "TLS failed (" + e.getMessage()
                                        + "); set skip_cert_verification = true only for a test server"
                                : String.valueOf(e.getMessage());
        return Diagnostic.error(
                summary,
                "Could not reach the http backend at " + display(uri) + ": " + reason + " (after "
                        + (settings.retryMax() + 1) + " attempts). Check the address and that the server runs.",
                null);
    }

    /** Trusts any server certificate and name: skip_cert_verification. */
    static final class TrustAll extends javax.net.ssl.X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a, java.net.Socket s) {}

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a, java.net.Socket s) {}

        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a, javax.net.ssl.SSLEngine e) {}

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a, javax.net.ssl.SSLEngine e) {}

        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a) {}

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a) {}

        @Override
        public java.security.cert.X509Certificate[] getAcceptedIssuers() {
            return new java.security.cert.X509Certificate[0];
        }
    }
}
