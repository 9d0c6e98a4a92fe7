package dev.strata.testing;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.net.URI;
import java.util.Map;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 implementation on loopback: S3Proxy over jclouds' in-memory ("transient") blob store. It accepts
 * any credentials (clients sign with {@link #ACCESS_KEY} / {@link #SECRET_KEY}; signatures are not checked,
 * because forwarding through the front below changes what S3Proxy would verify). S3Proxy 2.6 ignores conditional writes
 * ({@code If-None-Match: *} and {@code If-Match} on PUT and DELETE, which Terraform's {@code use_lockfile}
 * relies on), so clients talk to a small front on a free port of 127.0.0.1 ({@link ConditionalS3Front}) that
 * evaluates those headers atomically and passes every request, signature untouched, to S3Proxy.
 * One server per JVM, started on first use and stopped when the JVM exits; each test uses its own bucket
 * ({@link #createBucket}). Tests are skipped, not failed, when it cannot start.
 */
public final class S3Server {
    public static final String ACCESS_KEY = "strata-test-access";
    public static final String SECRET_KEY = "strata-test-secret";
    public static final String REGION = "us-east-1";

    private static final S3Server SHARED = new S3Server();

    private S3Proxy proxy;
    private ConditionalS3Front front;
    private BlobStore store;
    private String failure;
    private int buckets;

    private S3Server() {}

    public static S3Server shared() {
        return SHARED;
    }

    /** {@code http://127.0.0.1:PORT}, or skips the calling test when the server cannot run. */
    public synchronized String endpoint() {
        if (proxy == null && failure == null) {
            try {
                start();
            } catch (Exception e) {
                failure = e.toString();
            }
        }
        assumeThat(failure).as("S3 test server: %s", failure).isNull();
        return "http://127.0.0.1:" + front.port();
    }

    /** A new empty bucket with a unique name starting with {@code prefix}. */
    public synchronized String createBucket(String prefix) {
        endpoint();
        String name =
                (prefix + "-" + (++buckets) + "-" + ProcessHandle.current().pid()).toLowerCase(java.util.Locale.ROOT);
        store.createContainerInLocation(null, name);
        return name;
    }

    /** The environment a client of this server signs with: {@link #ACCESS_KEY} and {@link #SECRET_KEY}. */
    public static Map<String, String> credentials() {
        return Map.of("AWS_ACCESS_KEY_ID", ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", SECRET_KEY);
    }

    /**
     * A {@code backend "s3"} block (for inside {@code terraform {}}) keeping {@code app/terraform.tfstate} in
     * {@code bucket} of this server, as terraform 1.11 and Strata both take it offline: path-style requests
     * to this endpoint, no account, region or metadata lookups, and plain uploads (the only ones this server
     * takes). {@code more} are further settings, a {@code name = value} each.
     */
    public String backendBlock(String bucket, String... more) {
        StringBuilder b = new StringBuilder("  backend \"s3\" {\n");
        java.util.List<String> settings = new java.util.ArrayList<>(java.util.List.of(
                "bucket = \"" + bucket + "\"",
                "key = \"app/terraform.tfstate\"",
                "region = \"" + REGION + "\"",
                "endpoints = { s3 = \"" + endpoint() + "\" }",
                "use_path_style = true",
                "skip_credentials_validation = true",
                "skip_requesting_account_id = true",
                "skip_metadata_api_check = true",
                "skip_region_validation = true",
                "skip_s3_checksum = true"));
        settings.addAll(java.util.List.of(more));
        settings.forEach(setting -> b.append("    ").append(setting).append('\n'));
        return b.append("  }\n").toString();
    }

    /** The keys stored in a bucket, sorted (to check layouts without going through a client). */
    public synchronized java.util.List<String> keys(String bucket) {
        endpoint();
        java.util.List<String> out = new java.util.ArrayList<>();
        String marker = null;
        do {
            var page = store.list(
                    bucket,
                    org.jclouds.blobstore.options.ListContainerOptions.Builder.recursive()
                            .afterMarker(marker == null ? "" : marker));
            page.forEach(m -> out.add(m.getName()));
            marker = page.getNextMarker();
        } while (marker != null);
        java.util.Collections.sort(out);
        return out;
    }

    /** An object's content, read from the store directly; null when it does not exist. */
    public synchronized byte[] object(String bucket, String key) throws java.io.IOException {
        endpoint();
        org.jclouds.blobstore.domain.Blob b = store.getBlob(bucket, key);
        if (b == null) {
            return null;
        }
        try (java.io.InputStream in = b.getPayload().openStream()) {
            return in.readAllBytes();
        }
    }

    /** Stores {@code content} under {@code key} in the store directly (to set up what a client under test reads). */
    public synchronized void putObject(String bucket, String key, byte[] content) {
        endpoint();
        store.putBlob(bucket, store.blobBuilder(key).payload(content).build());
    }

    private void start() throws Exception {
        Properties props = new Properties();
        props.setProperty("jclouds.provider", "transient");
        BlobStoreContext ctx = ContextBuilder.newBuilder("transient")
                .credentials("identity", "credential")
                .overrides(props)
                .build(BlobStoreContext.class);
        store = ctx.getBlobStore();
        S3Proxy p = S3Proxy.builder()
                .blobStore(store)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.NONE, null, null)
                .ignoreUnknownHeaders(true)
                .build();
        p.start();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!"STARTED".equals(p.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start within 20 s (state " + p.getState() + ")");
            }
            Thread.sleep(5);
        }
        proxy = p;
        front = ConditionalS3Front.start(p.getPort(), store);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                front.stop();
                p.stop();
            } catch (Exception e) {
                // the JVM is exiting; nothing is left to clean up in memory
            }
            ctx.close();
        }));
    }
}
