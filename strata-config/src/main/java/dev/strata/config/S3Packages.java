package dev.strata.config;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Fetches {@code s3::} module packages with the AWS SDK's S3 client (the one backend "s3" uses): an
 * object whose name ends in an archive extension is downloaded and unpacked, any other key is a prefix
 * whose objects are the package's files. Credentials come from the environment
 * ({@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}, {@code AWS_SESSION_TOKEN}), else the shared
 * profile ({@code AWS_PROFILE}), else the SDK's default chain, as Terraform's S3 getter does.
 */
final class S3Packages {
    private S3Packages() {}

    /** Fills {@code into} with the package; problems are a {@link FetchException} saying what failed. */
    static void fetch(ModuleSource.S3 s, Path into, Map<String, String> env, Duration timeout)
            throws FetchException, IOException, InterruptedException {
        try (S3Client c = client(s, env, timeout)) {
            String archive = PackageFetcher.archiveOf(s.key().toLowerCase(Locale.ROOT));
            if (archive != null) {
                Path file = Files.createTempFile(into.getParent(), "download", "." + archive);
                try {
                    Files.delete(file);
                    GetObjectRequest.Builder get =
                            GetObjectRequest.builder().bucket(s.bucket()).key(s.key());
                    if (s.version() != null) {
                        get.versionId(s.version());
                    }
                    c.getObject(get.build(), file);
                    PackageFetcher.unpackArchive(file, archive, into);
                } finally {
                    Files.deleteIfExists(file);
                }
                return;
            }
            if (s.version() != null) {
                throw new FetchException("?version= selects an object version, but \"" + s.key()
                        + "\" is a key prefix (not an archive), which has none");
            }
            String prefix = s.key().endsWith("/") ? s.key() : s.key() + "/";
            List<String> keys = keys(c, s.bucket(), prefix);
            if (keys.isEmpty()) {
                throw new FetchException("there is no object named \"" + s.key() + "\" or under \"" + prefix
                        + "\" in the bucket \"" + s.bucket() + "\"");
            }
            Files.createDirectories(into);
            for (String k : keys) {
                Path out = into.resolve(k.substring(prefix.length())).normalize();
                if (!out.startsWith(into) || out.equals(into)) {
                    throw new FetchException("the object " + k + " would be written outside the module");
                }
                Files.createDirectories(out.getParent());
                c.getObject(b -> b.bucket(s.bucket()).key(k), out);
            }
        } catch (S3Exception e) {
            String code =
                    e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            throw new FetchException(
                    switch (e.statusCode()) {
                        case 404 ->
                            "there is no object \"" + s.key() + "\""
                                    + (s.version() == null ? "" : " at version \"" + s.version() + "\"")
                                    + " in the bucket \"" + s.bucket() + "\" (" + (code == null ? "404" : code) + ")";
                        case 403 ->
                            "access to s3://" + s.bucket() + "/" + s.key() + " was denied ("
                                    + (code == null ? "403" : code)
                                    + "); check the AWS credentials in the environment or "
                                    + "profile";
                        default ->
                            "S3 answered " + e.statusCode() + (code == null ? "" : " " + code) + " for s3://"
                                    + s.bucket() + "/" + s.key();
                    });
        } catch (SdkClientException e) {
            String m = String.valueOf(e.getMessage());
            if (m.startsWith("Unable to load credentials")) {
                // The SDK's text lists its credential providers by class name: say what to set instead.
                throw new FetchException("no AWS credentials were found to read s3://" + s.bucket() + "/" + s.key()
                        + ": set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary "
                        + "credentials), or AWS_PROFILE naming a profile that has credentials");
            }
            throw new FetchException(
                    "could not reach S3" + (s.endpoint() == null ? "" : " at " + s.endpoint()) + ": " + m);
        } catch (SdkException | IllegalArgumentException e) {
            throw new FetchException("S3: " + e.getMessage());
        }
    }

    /** The keys of the package's files under the prefix, sorted; "folder/" marker objects are no files. */
    private static List<String> keys(S3Client c, String bucket, String prefix) {
        return c.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix)).contents().stream()
                .map(S3Object::key)
                .filter(k -> !k.endsWith("/"))
                .sorted()
                .toList();
    }

    private static S3Client client(ModuleSource.S3 s, Map<String, String> env, Duration timeout) {
        var b = S3Client.builder()
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(timeout)
                        .socketTimeout(Duration.ofSeconds(60))
                        .build())
                .region(Region.of(s.region()))
                .credentialsProvider(credentials(env));
        if (s.endpoint() != null) {
            b.endpointOverride(URI.create(s.endpoint())).forcePathStyle(true);
        }
        return b.build();
    }

    private static AwsCredentialsProvider credentials(Map<String, String> env) {
        String id = env.get("AWS_ACCESS_KEY_ID");
        String secret = env.get("AWS_SECRET_ACCESS_KEY");
        if (id != null && !id.isEmpty() && secret != null && !secret.isEmpty()) {
            // The environment given to the command (not necessarily this JVM's): read it here.
            String token = env.get("AWS_SESSION_TOKEN");
            return StaticCredentialsProvider.create(
                    token == null || token.isEmpty()
                            ? AwsBasicCredentials.create(id, secret)
                            : AwsSessionCredentials.create(id, secret, token));
        }
        String profile = env.get("AWS_PROFILE");
        if (profile != null && !profile.isEmpty()) {
            return ProfileCredentialsProvider.builder().profileName(profile).build();
        }
        return DefaultCredentialsProvider.builder().build();
    }
}
