package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * States in an S3 bucket, laid out as Terraform's {@code s3} backend lays them out so that both can share
 * a bucket: the default workspace at {@code key}, the others at {@code workspace_key_prefix/NAME/key}.
 * Locked as Terraform 1.10+ locks with {@code use_lockfile}: a lock object {@code <state key>.tflock}
 * created with a conditional write ({@code If-None-Match: *}) holding the lock info JSON. Strata keeps
 * its journal beside the state as one small object per entry ({@code <state key>.journal/…}), folded
 * into the state and removed at compaction.
 */
public final class S3Backend implements Backend {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(S3Backend.class);
    static final String LOCK_SUFFIX = ".tflock";
    static final String JOURNAL_SUFFIX = ".journal/";

    private final S3Settings settings;
    private final S3Client client;
    private final String version;
    private final Encryption encryption;
    private final LockTiming timing;

    private S3Backend(S3Settings settings, S3Client client, String version, Encryption encryption, LockTiming timing) {
        this.settings = settings;
        this.client = client;
        this.version = version;
        this.encryption = encryption;
        this.timing = timing;
    }

    /** Builds the client from the settings (strings as a backend spec keeps them) and the environment. */
    public static Result<S3Backend> configure(Map<String, String> raw, Map<String, String> env, String version) {
        Result<S3Settings> r = S3Settings.read(raw, env);
        if (r.hasErrors()) {
            return Result.of(null, r.diagnostics());
        }
        S3Settings s = r.value();
        try {
            var b = S3Client.builder()
                    .httpClient(UrlConnectionHttpClient.builder()
                            .connectionTimeout(Duration.ofSeconds(10))
                            .socketTimeout(Duration.ofSeconds(60))
                            .build())
                    .region(Region.of(s.region()))
                    .forcePathStyle(s.usePathStyle())
                    .credentialsProvider(credentials(s, env))
                    .requestChecksumCalculation(
                            s.skipS3Checksum()
                                    ? RequestChecksumCalculation.WHEN_REQUIRED
                                    : RequestChecksumCalculation.WHEN_SUPPORTED)
                    .responseChecksumValidation(
                            s.skipS3Checksum()
                                    ? ResponseChecksumValidation.WHEN_REQUIRED
                                    : ResponseChecksumValidation.WHEN_SUPPORTED)
                    .overrideConfiguration(o -> o.retryStrategy(rs -> rs.maxAttempts(Math.max(1, s.maxRetries() + 1))));
            if (s.endpoint() != null && !s.endpoint().isEmpty()) {
                URI u = URI.create(s.endpoint());
                if (u.getScheme() == null || u.getHost() == null) {
                    return Result.of(
                            null,
                            Diagnostics.of(Diagnostic.error(
                                    "Invalid S3 endpoint",
                                    "endpoints.s3 must be a URL such as https://s3.example.com, not \"" + s.endpoint()
                                            + "\".",
                                    null)));
                }
                b.endpointOverride(u);
            }
            return Result.of(
                    new S3Backend(s, b.build(), version, Encryption.NONE, LockTiming.DEFAULT), r.diagnostics());
        } catch (IllegalArgumentException | SdkException e) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to configure the s3 backend", String.valueOf(e.getMessage()), null)));
        }
    }

    private static AwsCredentialsProvider credentials(S3Settings s, Map<String, String> env) {
        AwsCredentialsProvider base;
        if (s.accessKey() != null && s.secretKey() != null) {
            base = StaticCredentialsProvider.create(
                    s.token() == null
                            ? AwsBasicCredentials.create(s.accessKey(), s.secretKey())
                            : AwsSessionCredentials.create(s.accessKey(), s.secretKey(), s.token()));
        } else if (env.get("AWS_ACCESS_KEY_ID") != null
                && env.get("AWS_SECRET_ACCESS_KEY") != null
                && s.profile() == null) {
            // The environment given to us (not necessarily this JVM's): read it ourselves.
            String t = env.get("AWS_SESSION_TOKEN");
            base = StaticCredentialsProvider.create(
                    t == null || t.isEmpty()
                            ? AwsBasicCredentials.create(env.get("AWS_ACCESS_KEY_ID"), env.get("AWS_SECRET_ACCESS_KEY"))
                            : AwsSessionCredentials.create(
                                    env.get("AWS_ACCESS_KEY_ID"), env.get("AWS_SECRET_ACCESS_KEY"), t));
        } else if (s.profile() != null || !s.sharedCredentialsFiles().isEmpty() || env.get("AWS_PROFILE") != null) {
            var p = ProfileCredentialsProvider.builder()
                    .profileName(s.profile() != null ? s.profile() : env.getOrDefault("AWS_PROFILE", "default"));
            if (!s.sharedCredentialsFiles().isEmpty()) {
                var agg = ProfileFile.aggregator();
                for (String f : s.sharedCredentialsFiles()) {
                    String path = f.startsWith("~/") ? System.getProperty("user.home") + f.substring(1) : f;
                    agg.addFile(ProfileFile.builder()
                            .content(Path.of(path))
                            .type(ProfileFile.Type.CREDENTIALS)
                            .build());
                }
                p.profileFile(agg.build());
            }
            base = p.build();
        } else if (s.skipMetadataApiCheck()) {
            base = AwsCredentialsProviderChain.of(
                    EnvironmentVariableCredentialsProvider.create(), ProfileCredentialsProvider.create());
        } else {
            base = DefaultCredentialsProvider.builder().build();
        }
        if (s.assumeRoleArn() == null || s.assumeRoleArn().isEmpty()) {
            return base;
        }
        var sts = software.amazon.awssdk.services.sts.StsClient.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .region(Region.of(s.region()))
                .credentialsProvider(base)
                .build();
        return software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider.builder()
                .stsClient(sts)
                .refreshRequest(rq -> rq.roleArn(s.assumeRoleArn()).roleSessionName("strata"))
                .build();
    }

    /** The same backend, storing states encrypted (or reading them) as {@code e} says. */
    public S3Backend withEncryption(Encryption e) {
        return new S3Backend(settings, client, version, e, timing);
    }

    S3Backend withTiming(LockTiming t) {
        return new S3Backend(settings, client, version, encryption, t);
    }

    S3Settings settings() {
        return settings;
    }

    S3Client client() {
        return client;
    }

    Encryption encryption() {
        return encryption;
    }

    String version() {
        return version;
    }

    /** {@code s3://bucket/key}, for messages. */
    String display(String workspace) {
        return "s3://" + settings.bucket() + "/" + settings.stateKey(workspace);
    }

    @Override
    public Result<List<String>> workspaces() {
        TreeSet<String> names = new TreeSet<>();
        String prefix = settings.workspaceKeyPrefix() + "/";
        try {
            for (String k : S3Objects.list(client, settings.bucket(), prefix)) {
                // env:/NAME/KEY exactly; other objects under the prefix are not states of this key.
                String rest = k.substring(prefix.length());
                int slash = rest.indexOf('/');
                if (slash > 0 && rest.substring(slash + 1).equals(settings.key())) {
                    names.add(rest.substring(0, slash));
                }
            }
        } catch (SdkException e) {
            return Result.of(List.of(Workspaces.DEFAULT), Diagnostics.of(error("Failed to list workspaces", e)));
        }
        names.remove(Workspaces.DEFAULT);
        List<String> out = new ArrayList<>();
        out.add(Workspaces.DEFAULT);
        out.addAll(names);
        return Result.of(List.copyOf(out));
    }

    @Override
    public Result<String> createWorkspace(String name) {
        Diagnostic bad = Workspaces.checkName(name);
        if (bad != null) {
            return Result.of(name, Diagnostics.of(bad));
        }
        Result<List<String>> existing = workspaces();
        if (existing.hasErrors()) {
            return Result.of(name, existing.diagnostics());
        }
        if (existing.value().contains(name)) {
            return Result.of(
                    name,
                    Diagnostics.of(Diagnostic.error(
                            "Workspace already exists", "Workspace \"" + name + "\" already exists.", null)));
        }
        // As Terraform does: a workspace exists once its (empty) state object does.
        Result<StateManager> opened = openExisting(name, LockRequest.of("OperationTypeInvalid", Duration.ZERO), true);
        if (opened.hasErrors()) {
            return Result.of(name, opened.diagnostics());
        }
        try (StateManager m = opened.value()) {
            Result<StateSnapshot> w = m.persist(m.state());
            return Result.of(name, w.diagnostics());
        }
    }

    @Override
    public Result<String> deleteWorkspace(String name) {
        if (name.equals(Workspaces.DEFAULT)) {
            return Result.of(name, Diagnostics.of(Workspaces.defaultCannotBeDeleted()));
        }
        String key = settings.stateKey(name);
        try {
            if (S3Objects.head(client, settings.bucket(), key) == null) {
                return Result.of(name, Diagnostics.of(Workspaces.notFound(name)));
            }
            for (String j : S3Objects.list(client, settings.bucket(), key + JOURNAL_SUFFIX)) {
                client.deleteObject(d -> d.bucket(settings.bucket()).key(j));
            }
            client.deleteObject(d -> d.bucket(settings.bucket()).key(key));
            client.deleteObject(d -> d.bucket(settings.bucket()).key(key + LOCK_SUFFIX));
            return Result.of(name);
        } catch (SdkException e) {
            return Result.of(name, Diagnostics.of(error("Failed to delete workspace", e)));
        }
    }

    @Override
    public Result<StateManager> open(String workspace, LockRequest request) {
        return openExisting(workspace, request, workspace.equals(Workspaces.DEFAULT));
    }

    private Result<StateManager> openExisting(String workspace, LockRequest request, boolean mayBeNew) {
        Diagnostic bad = Workspaces.checkName(workspace);
        if (bad != null) {
            return Result.of(null, Diagnostics.of(bad));
        }
        String key = settings.stateKey(workspace);
        try {
            if (!mayBeNew && S3Objects.head(client, settings.bucket(), key) == null) {
                return Result.of(null, Diagnostics.of(Workspaces.notCreated(workspace)));
            }
            Diagnostics warnings = Diagnostics.NONE;
            LockInfo lock = null;
            if (request.enabled() && settings.useLockfile()) {
                Result<LockInfo> l = lock(workspace, request);
                if (l.hasErrors()) {
                    return Result.of(null, l.diagnostics());
                }
                lock = l.value();
                warnings = l.diagnostics();
            } else if (request.enabled()) {
                warnings = Diagnostics.of(Diagnostic.warning(
                        "The state is not locked",
                        "The s3 backend has use_lockfile unset, so " + display(workspace)
                                + " is read and written without a lock: concurrent runs may overwrite each other's"
                                + " changes. Set use_lockfile = true in the backend block.",
                        null));
            }
            S3StateManager m = new S3StateManager(this, workspace, lock);
            Diagnostics loaded = m.load();
            if (loaded.hasErrors()) {
                m.close();
                return Result.of(null, warnings.with(loaded));
            }
            return Result.of(m, warnings.with(loaded));
        } catch (SdkException e) {
            return Result.of(null, Diagnostics.of(error("Failed to open the state", e)));
        }
    }

    private Result<LockInfo> lock(String workspace, LockRequest request) {
        String lockKey = settings.stateKey(workspace) + LOCK_SUFFIX;
        LockWait wait = new LockWait(request, timing);
        Diagnostics warnings = Diagnostics.NONE;
        while (true) {
            Instant now = timing.clock().instant();
            LockInfo mine = new LockInfo(
                    UUID.randomUUID().toString(),
                    request.operation(),
                    request.info(),
                    Hosts.who(),
                    version,
                    now,
                    settings.bucket() + "/" + settings.stateKey(workspace),
                    Hosts.hostName(),
                    Hosts.pid(),
                    Hosts.processStart(),
                    now);
            try {
                client.putObject(
                        withEncryption(PutObjectRequest.builder()
                                        .bucket(settings.bucket())
                                        .key(lockKey)
                                        .ifNoneMatch("*")
                                        .contentType("application/json"))
                                .build(),
                        RequestBody.fromBytes(mine.toJson()));
                LOG.debug(
                        "lock {} on {} acquired for {} in {} ms",
                        mine.id(),
                        display(workspace),
                        request.operation(),
                        wait.waited().toMillis());
                return Result.of(mine, warnings);
            } catch (S3Exception e) {
                if (e.statusCode() != 412 && e.statusCode() != 409) {
                    return Result.of(null, Diagnostics.of(error("Error acquiring the state lock", e)));
                }
            } catch (SdkException e) {
                return Result.of(null, Diagnostics.of(error("Error acquiring the state lock", e)));
            }
            S3Objects.Read held;
            try {
                held = S3Objects.get(client, settings.bucket(), lockKey);
            } catch (SdkException e) {
                return Result.of(null, Diagnostics.of(error("Error acquiring the state lock", e)));
            }
            LockInfo holder =
                    held == null ? null : LockInfo.parse(held.bytes(), lockKey).value();
            if (held != null && holder != null && staleHere(holder)) {
                // The holder ran on this host and its process is gone (killed): take over, once, with a warning.
                try {
                    client.deleteObject(
                            d -> d.bucket(settings.bucket()).key(lockKey).ifMatch(held.etag()));
                } catch (SdkException e) {
                    LOG.debug("removing the stale lock {} failed: {}", lockKey, e.getMessage());
                }
                warnings = Diagnostics.of(Diagnostic.warning(
                        "Previous lock holder ended without unlocking",
                        "Lock " + holder.id() + " of " + holder.who() + " for " + holder.operation() + " on "
                                + display(workspace) + " was left by process " + holder.pid()
                                + ", which no longer runs; Strata removed it. If that operation was interrupted, check"
                                + " that the state matches your infrastructure (strata plan) before applying.",
                        null));
                continue;
            }
            if (wait.expired()) {
                return Result.of(null, Diagnostics.of(lockedError(workspace, holder, request, wait.waited())));
            }
            if (!wait.pause()) {
                return Result.of(null, Diagnostics.of(LockWait.interrupted()));
            }
        }
    }

    private static boolean staleHere(LockInfo holder) {
        return holder.pid() > 0
                && holder.host().equals(Hosts.hostName())
                && !Hosts.isAlive(holder.pid(), holder.processStart());
    }

    private Diagnostic lockedError(String workspace, LockInfo holder, LockRequest request, Duration waited) {
        StringBuilder d = new StringBuilder("Error message: the state lock object "
                + settings.stateKey(workspace) + LOCK_SUFFIX + " in bucket " + settings.bucket() + " already exists"
                + (holder == null ? " (its lock info could not be read)" : "") + ".\n");
        if (holder != null) {
            d.append(holder.describe());
        }
        if (!request.timeout().isZero()) {
            d.append("\nGave up after waiting ").append(Durations.human(waited)).append(".\n");
        }
        d.append("\nTerraform acquires a state lock to protect the state from being written\n"
                + "by multiple users at the same time. Please resolve the issue above and try\n"
                + "again. For most commands, you can disable locking with the \"-lock=false\"\n"
                + "flag, but this is not recommended.");
        return Diagnostic.error("Error acquiring the state lock", d.toString(), null);
    }

    /** Deletes the lock object if it is still ours. */
    void unlock(String workspace, LockInfo lock) {
        if (lock == null) {
            return;
        }
        String lockKey = settings.stateKey(workspace) + LOCK_SUFFIX;
        try {
            S3Objects.Read held = S3Objects.get(client, settings.bucket(), lockKey);
            LockInfo holder =
                    held == null ? null : LockInfo.parse(held.bytes(), lockKey).value();
            if (holder != null && holder.id().equals(lock.id())) {
                client.deleteObject(d -> d.bucket(settings.bucket()).key(lockKey));
            } else {
                LOG.warn("lock {} on {} was already removed (force-unlock?)", lock.id(), display(workspace));
            }
        } catch (SdkException e) {
            LOG.warn("releasing lock {} on {} failed: {}", lock.id(), display(workspace), e.getMessage());
        }
    }

    @Override
    public Result<LockInfo> forceUnlock(String workspace, String lockId) {
        String lockKey = settings.stateKey(workspace) + LOCK_SUFFIX;
        try {
            S3Objects.Read held = S3Objects.get(client, settings.bucket(), lockKey);
            if (held == null) {
                return Result.of(
                        null,
                        Diagnostics.of(Diagnostic.error(
                                "Failed to unlock state",
                                "The state of workspace \"" + workspace + "\" is not locked (no " + lockKey
                                        + " in bucket " + settings.bucket() + ").",
                                null)));
            }
            Result<LockInfo> holder = LockInfo.parse(held.bytes(), lockKey);
            if (holder.hasErrors()) {
                return Result.of(null, holder.diagnostics());
            }
            if (!holder.value().id().equals(lockId)) {
                return Result.of(
                        null,
                        Diagnostics.of(Diagnostic.error(
                                "Failed to unlock state",
                                "lock ID \"" + lockId + "\" does not match existing lock ID \""
                                        + holder.value().id() + "\"",
                                null)));
            }
            client.deleteObject(d -> d.bucket(settings.bucket()).key(lockKey));
            return Result.of(holder.value());
        } catch (SdkException e) {
            return Result.of(null, Diagnostics.of(error("Failed to unlock state", e)));
        }
    }

    /** Server-side encryption of every object written, as the settings ask. */
    PutObjectRequest.Builder withEncryption(PutObjectRequest.Builder b) {
        if (settings.kmsKeyId() != null && !settings.kmsKeyId().isEmpty()) {
            b.serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(settings.kmsKeyId());
        } else if (settings.encrypt()) {
            b.serverSideEncryption(ServerSideEncryption.AES256);
        }
        if (settings.acl() != null && !settings.acl().isEmpty()) {
            b.acl(settings.acl());
        }
        return b;
    }

    /** A diagnostic in words: what S3 answered, and what to check. Never the credentials. */
    Diagnostic error(String summary, SdkException e) {
        String where = "bucket \"" + settings.bucket() + "\""
                + (settings.endpoint() == null ? "" : " at " + settings.endpoint());
        String detail = switch (e) {
            case NoSuchKeyException n -> "The object does not exist in " + where + ".";
            case S3Exception s
            when s.statusCode() == 404 ->
                "S3 answered 404 (" + code(s) + ") for " + where + ": check that the bucket exists and the region.";
            case S3Exception s
            when s.statusCode() == 403 ->
                "S3 refused access (403 " + code(s) + ") to " + where
                        + ": check the credentials (access_key/secret_key, profile or AWS_* variables) and the bucket policy.";
            case S3Exception s -> "S3 answered " + s.statusCode() + " (" + code(s) + ") for " + where + ".";
            case SdkClientException c ->
                "Could not reach S3 for " + where + ": " + String.valueOf(c.getMessage())
                        + " Check the endpoint, the region and the network.";
            default -> "S3 request for " + where + " failed: " + e.getMessage();
        };
        return Diagnostic.error(summary, detail, null);
    }

    private static String code(S3Exception s) {
        return s.awsErrorDetails() == null || s.awsErrorDetails().errorCode() == null
                ? "no error code"
                : s.awsErrorDetails().errorCode();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
