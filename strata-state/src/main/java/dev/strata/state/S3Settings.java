package dev.strata.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The settings of {@code backend "s3"} (and of {@code terraform_remote_state} with it), read from the
 * strings a backend spec keeps: scalars as written, objects ({@code endpoints}, {@code assume_role}) and
 * lists ({@code shared_credentials_files}) as JSON text. Defaults and environment variables as Terraform's
 * s3 backend takes them.
 */
public record S3Settings(
        String bucket,
        String key,
        String region,
        String workspaceKeyPrefix,
        boolean encrypt,
        String kmsKeyId,
        String acl,
        boolean useLockfile,
        String dynamodbTable,
        String endpoint,
        boolean usePathStyle,
        boolean skipS3Checksum,
        boolean skipMetadataApiCheck,
        String accessKey,
        String secretKey,
        String token,
        String profile,
        List<String> sharedCredentialsFiles,
        String assumeRoleArn,
        int maxRetries) {

    /** Every setting of Terraform's s3 backend that Strata uses. */
    public static final Set<String> SUPPORTED = Set.of(
            "bucket",
            "key",
            "region",
            "workspace_key_prefix",
            "encrypt",
            "kms_key_id",
            "acl",
            "use_lockfile",
            "dynamodb_table",
            "endpoints",
            "endpoint",
            "use_path_style",
            "force_path_style",
            "skip_credentials_validation",
            "skip_region_validation",
            "skip_requesting_account_id",
            "skip_metadata_api_check",
            "skip_s3_checksum",
            "access_key",
            "secret_key",
            "token",
            "profile",
            "shared_credentials_files",
            "shared_credentials_file",
            "shared_config_files",
            "assume_role",
            "max_retries");

    /** Settings of Terraform's s3 backend that Strata accepts and does not use (docs/backends.md says why). */
    public static final Set<String> IGNORED = Set.of(
            "allowed_account_ids",
            "forbidden_account_ids",
            "retry_mode",
            "use_dualstack_endpoint",
            "use_fips_endpoint",
            "ec2_metadata_service_endpoint",
            "ec2_metadata_service_endpoint_mode",
            "http_proxy",
            "https_proxy",
            "no_proxy",
            "insecure",
            "custom_ca_bundle",
            "sts_region",
            "dynamodb_endpoint",
            "iam_endpoint",
            "sts_endpoint");

    /** Settings of Terraform's s3 backend that Strata refuses: using them would change what is stored. */
    public static final Set<String> UNSUPPORTED = Set.of("sse_customer_key", "assume_role_with_web_identity");

    /** Every name the block may hold. */
    public static Set<String> names() {
        Set<String> all = new java.util.TreeSet<>(SUPPORTED);
        all.addAll(IGNORED);
        all.addAll(UNSUPPORTED);
        return all;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads the settings; missing required ones and bad values are errors, ignored ones warnings. */
    public static Result<S3Settings> read(Map<String, String> s, Map<String, String> env) {
        Diagnostics.Builder diags = Diagnostics.builder();
        for (String k : new TreeMap<>(s).keySet()) {
            if (UNSUPPORTED.contains(k)) {
                diags.add(Diagnostic.error(
                        "Unsupported s3 backend setting",
                        "Strata's s3 backend does not support \"" + k + "\""
                                + (k.equals("sse_customer_key")
                                        ? " (SSE-C encryption with a customer key); use kms_key_id or encrypt instead."
                                        : "; use access_key/secret_key, a profile or the AWS_* environment variables.")
                                + " See docs/backends.md.",
                        null));
            } else if (IGNORED.contains(k)) {
                diags.add(Diagnostic.warning(
                        "Ignored s3 backend setting",
                        "Strata's s3 backend accepts \"" + k + "\" but does not use it (see docs/backends.md).",
                        null));
            }
        }
        String bucket = s.get("bucket");
        String key = s.get("key");
        if (bucket == null || bucket.isEmpty()) {
            diags.add(missing("bucket", "The name of the S3 bucket the state is kept in."));
        }
        if (key == null || key.isEmpty()) {
            diags.add(missing("key", "The path of the state object in the bucket, e.g. \"prod/terraform.tfstate\"."));
        } else if (key.startsWith("/") || key.endsWith("/")) {
            diags.add(Diagnostic.error(
                    "Invalid Value",
                    "The value of \"key\" must not start or end with \"/\"; \"" + key + "\" does.",
                    null));
        }
        String region = first(s.get("region"), env.get("AWS_REGION"), env.get("AWS_DEFAULT_REGION"));
        if (region == null || region.isEmpty()) {
            diags.add(missing("region", "The AWS region of the bucket, or set AWS_REGION."));
        }
        String prefix = s.getOrDefault("workspace_key_prefix", "env:");
        if (prefix.startsWith("/") || prefix.endsWith("/")) {
            diags.add(Diagnostic.error(
                    "Invalid Value",
                    "The value of \"workspace_key_prefix\" must not start or end with \"/\"; \"" + prefix + "\" does.",
                    null));
        }
        Map<String, String> endpoints = object(s, "endpoints", diags);
        String endpoint = first(endpoints.get("s3"), s.get("endpoint"), env.get("AWS_ENDPOINT_URL_S3"));
        Map<String, String> assume = object(s, "assume_role", diags);
        String dynamo = s.get("dynamodb_table");
        boolean lockfile = bool(s, "use_lockfile", false, diags);
        if (dynamo != null && !dynamo.isEmpty()) {
            if (lockfile) {
                diags.add(Diagnostic.warning(
                        "DynamoDB locking is not supported",
                        "Strata locks the state of the s3 backend with the lock object (use_lockfile) only; the DynamoDB table \""
                                + dynamo
                                + "\" is neither locked nor updated. Terraform runs that lock only with DynamoDB are not"
                                + " excluded: set use_lockfile = true in every configuration that shares this state.",
                        null));
            } else {
                diags.add(Diagnostic.error(
                        "DynamoDB locking is not supported",
                        "Strata does not lock S3 states with a DynamoDB table (dynamodb_table = \"" + dynamo
                                + "\"): no DynamoDB client is built in. Set use_lockfile = true to lock with an S3"
                                + " lock object as Terraform 1.10 and later do (both can be set while migrating).",
                        null));
            }
        }
        List<String> files = new ArrayList<>(list(s, "shared_credentials_files", diags));
        if (s.get("shared_credentials_file") != null) {
            files.add(s.get("shared_credentials_file"));
        }
        int retries = 5;
        if (s.get("max_retries") != null) {
            try {
                retries = Integer.parseInt(s.get("max_retries").strip());
            } catch (NumberFormatException e) {
                diags.add(Diagnostic.error(
                        "Invalid Value",
                        "max_retries must be a whole number, not \"" + s.get("max_retries") + "\".",
                        null));
            }
        }
        boolean pathStyle = bool(s, "use_path_style", false, diags) || bool(s, "force_path_style", false, diags);
        S3Settings out = new S3Settings(
                bucket,
                key,
                region,
                prefix,
                bool(s, "encrypt", false, diags),
                s.get("kms_key_id"),
                s.get("acl"),
                lockfile,
                dynamo,
                endpoint,
                pathStyle,
                bool(s, "skip_s3_checksum", false, diags),
                bool(s, "skip_metadata_api_check", false, diags),
                first(s.get("access_key"), null, null),
                s.get("secret_key"),
                s.get("token"),
                s.get("profile"),
                List.copyOf(files),
                assume.get("role_arn"),
                retries);
        Diagnostics d = diags.build();
        return Result.of(d.hasErrors() ? null : out, d);
    }

    /** The object key of a workspace's state, laid out as Terraform lays it out. */
    public String stateKey(String workspace) {
        return workspace.equals(Workspaces.DEFAULT) ? key : workspaceKeyPrefix + "/" + workspace + "/" + key;
    }

    private static Diagnostic missing(String name, String what) {
        return Diagnostic.error(
                "Missing required argument",
                "The s3 backend needs \"" + name + "\": " + what
                        + " Set it in the backend block or with -backend-config=\"" + name + "=...\".",
                null);
    }

    private static String first(String a, String b, String c) {
        return a != null && !a.isEmpty() ? a : b != null && !b.isEmpty() ? b : c;
    }

    private static boolean bool(Map<String, String> s, String k, boolean dflt, Diagnostics.Builder diags) {
        String v = s.get(k);
        if (v == null) {
            return dflt;
        }
        return switch (v.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> {
                diags.add(Diagnostic.error("Invalid Value", k + " must be true or false, not \"" + v + "\".", null));
                yield dflt;
            }
        };
    }

    private static Map<String, String> object(Map<String, String> s, String k, Diagnostics.Builder diags) {
        String v = s.get(k);
        Map<String, String> out = new TreeMap<>();
        if (v == null || v.isEmpty()) {
            return out;
        }
        try {
            JsonNode n = JSON.readTree(v);
            if (n != null && n.isObject()) {
                n.properties().forEach(e -> {
                    if (!e.getValue().isNull()) {
                        out.put(
                                e.getKey(),
                                e.getValue().isTextual()
                                        ? e.getValue().asText()
                                        : e.getValue().toString());
                    }
                });
                return out;
            }
        } catch (IOException e) {
            // reported below
        }
        diags.add(Diagnostic.error(
                "Invalid Value", "\"" + k + "\" must be an object, e.g. " + k + " = { s3 = \"https://...\" }.", null));
        return out;
    }

    private static List<String> list(Map<String, String> s, String k, Diagnostics.Builder diags) {
        String v = s.get(k);
        if (v == null || v.isEmpty()) {
            return List.of();
        }
        try {
            JsonNode n = JSON.readTree(v);
            if (n != null && n.isArray()) {
                List<String> out = new ArrayList<>();
                n.forEach(e -> out.add(e.asText()));
                return out;
            }
        } catch (IOException e) {
            // a single path given as a plain string
        }
        return List.of(v);
    }
}
