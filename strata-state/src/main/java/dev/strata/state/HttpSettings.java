package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The settings of {@code backend "http"}, with the defaults and {@code TF_HTTP_*} environment variables of
 * Terraform's http backend.
 */
public record HttpSettings(
        URI address,
        String updateMethod,
        URI lockAddress,
        String lockMethod,
        URI unlockAddress,
        String unlockMethod,
        String username,
        String password,
        boolean skipCertVerification,
        int retryMax,
        Duration retryWaitMin,
        Duration retryWaitMax,
        String clientCaCertificatePem,
        String clientCertificatePem,
        String clientPrivateKeyPem) {

    public static final Set<String> SUPPORTED = Set.of(
            "address",
            "update_method",
            "lock_address",
            "lock_method",
            "unlock_address",
            "unlock_method",
            "username",
            "password",
            "skip_cert_verification",
            "retry_max",
            "retry_wait_min",
            "retry_wait_max",
            "client_ca_certificate_pem",
            "client_certificate_pem",
            "client_private_key_pem");

    public static Set<String> names() {
        return new TreeSet<>(SUPPORTED);
    }

    /** Without the password and the private key: a record's own text would show them. */
    @Override
    public String toString() {
        return "HttpSettings[address=" + HttpBackend.display(address) + ", lockAddress="
                + (lockAddress == null ? null : HttpBackend.display(lockAddress)) + ", username=" + username
                + ", password=" + (password == null ? null : "(sensitive)") + ", clientCertificate="
                + (clientCertificatePem != null) + "]";
    }

    public static Result<HttpSettings> read(Map<String, String> s, Map<String, String> env) {
        Diagnostics.Builder diags = Diagnostics.builder();
        URI address = uri(s, env, "address", "TF_HTTP_ADDRESS", diags);
        if (address == null && !diags.hasErrors()) {
            diags.add(Diagnostic.error(
                    "Missing required argument",
                    "The http backend needs \"address\", the URL the state is read from (GET) and written to (POST),"
                            + " or TF_HTTP_ADDRESS.",
                    null));
        }
        URI lock = uri(s, env, "lock_address", "TF_HTTP_LOCK_ADDRESS", diags);
        URI unlock = uri(s, env, "unlock_address", "TF_HTTP_UNLOCK_ADDRESS", diags);
        int retryMax = number(s, env, "retry_max", "TF_HTTP_RETRY_MAX", 2, diags);
        int waitMin = number(s, env, "retry_wait_min", "TF_HTTP_RETRY_WAIT_MIN", 1, diags);
        int waitMax = number(s, env, "retry_wait_max", "TF_HTTP_RETRY_WAIT_MAX", 30, diags);
        String skip = value(s, env, "skip_cert_verification", null);
        Diagnostics d = diags.build();
        if (d.hasErrors()) {
            return Result.of(null, d);
        }
        return Result.of(
                new HttpSettings(
                        address,
                        value(s, env, "update_method", null) == null ? "POST" : value(s, env, "update_method", null),
                        lock,
                        orDefault(value(s, env, "lock_method", "TF_HTTP_LOCK_METHOD"), "LOCK"),
                        unlock,
                        orDefault(value(s, env, "unlock_method", "TF_HTTP_UNLOCK_METHOD"), "UNLOCK"),
                        value(s, env, "username", "TF_HTTP_USERNAME"),
                        value(s, env, "password", "TF_HTTP_PASSWORD"),
                        "true".equals(skip),
                        retryMax,
                        Duration.ofSeconds(waitMin),
                        Duration.ofSeconds(Math.max(waitMin, waitMax)),
                        value(s, env, "client_ca_certificate_pem", "TF_HTTP_CLIENT_CA_CERTIFICATE_PEM"),
                        value(s, env, "client_certificate_pem", "TF_HTTP_CLIENT_CERTIFICATE_PEM"),
                        value(s, env, "client_private_key_pem", "TF_HTTP_CLIENT_PRIVATE_KEY_PEM")),
                d);
    }

    private static String orDefault(String v, String d) {
        return v == null || v.isEmpty() ? d : v;
    }

    private static String value(Map<String, String> s, Map<String, String> env, String k, String envName) {
        String v = s.get(k);
        if ((v == null || v.isEmpty()) && envName != null) {
            v = env.get(envName);
        }
        return v == null || v.isEmpty() ? null : v;
    }

    private static URI uri(
            Map<String, String> s, Map<String, String> env, String k, String envName, Diagnostics.Builder diags) {
        String v = value(s, env, k, envName);
        if (v == null) {
            return null;
        }
        try {
            URI u = new URI(v);
            if (u.getScheme() != null
                    && (u.getScheme().equals("http") || u.getScheme().equals("https"))
                    && u.getHost() != null) {
                return u;
            }
        } catch (java.net.URISyntaxException e) {
            // reported below
        }
        diags.add(Diagnostic.error(
                "Invalid Value", "\"" + k + "\" must be an http:// or https:// URL; \"" + v + "\" is not one.", null));
        return null;
    }

    private static int number(
            Map<String, String> s,
            Map<String, String> env,
            String k,
            String envName,
            int d,
            Diagnostics.Builder diags) {
        String v = value(s, env, k, envName);
        if (v == null) {
            return d;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        diags.add(Diagnostic.error(
                "Invalid Value", "\"" + k + "\" must be a whole number of at least 0, not \"" + v + "\".", null));
        return d;
    }
}
