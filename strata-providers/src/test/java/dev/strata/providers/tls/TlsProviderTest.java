package dev.strata.providers.tls;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.strata.addr.AttributePath;
import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.testkit.Action;
import dev.strata.provider.testkit.ProviderTester;
import dev.strata.provider.testkit.ResourceTester;
import dev.strata.provider.testkit.Step;
import dev.strata.testing.ManualClock;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsProviderTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2025-06-01T12:00:00.500Z"));

    @TempDir
    Path dir;

    private ProviderTester tester() {
        return ProviderTester.configure(new TlsProvider(clock, new SecureRandom()));
    }

    private static String str(Value v, String a) {
        return v.attributes().get(a).asString();
    }

    private static byte[] pemBody(String pem) {
        return Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
    }

    private Value key(String algorithm, Map<String, Value> extra) {
        Map<String, Value> cfg = new java.util.HashMap<>(extra);
        cfg.put("algorithm", Value.string(algorithm));
        return tester().resource("tls_private_key").apply(cfg).state();
    }

    @Test
    void registered() {
        assertThat(ProviderRegistry.load()
                        .resolve(
                                Provider.hashicorp("tls"),
                                VersionConstraint.parse("~> 4.0").value())
                        .hasErrors())
                .isFalse();
    }

    @Test
    void rsaKeyFormats() throws Exception {
        Value k = key("RSA", Map.of("rsa_bits", Value.number(2048)));
        assertThat(str(k, "private_key_pem"))
                .startsWith("-----BEGIN RSA PRIVATE KEY-----\n")
                .endsWith("-----END RSA PRIVATE KEY-----\n");
        assertThat(str(k, "private_key_pem")
                        .lines()
                        .filter(l -> !l.startsWith("-----"))
                        .allMatch(l -> l.length() <= 64))
                .isTrue();
        PrivateKey priv = KeyFactory.getInstance("RSA")
                .generatePrivate(new PKCS8EncodedKeySpec(pemBody(str(k, "private_key_pem_pkcs8"))));
        PublicKey pub =
                KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(pemBody(str(k, "public_key_pem"))));
        assertThat(((java.security.interfaces.RSAPublicKey) pub).getModulus().bitLength())
                .isEqualTo(2048);
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initSign(priv);
        s.update(new byte[] {1});
        byte[] sig = s.sign();
        s.initVerify(pub);
        s.update(new byte[] {1});
        assertThat(s.verify(sig)).isTrue();
        assertThat(str(k, "public_key_openssh")).matches("ssh-rsa AAAA[0-9A-Za-z+/]+=*\n");
        assertThat(str(k, "public_key_fingerprint_md5")).matches("([0-9a-f]{2}:){15}[0-9a-f]{2}");
        assertThat(str(k, "public_key_fingerprint_sha256")).matches("SHA256:[0-9A-Za-z+/]{43}");
        assertThat(str(k, "id"))
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-1").digest(pub.getEncoded())));
        assertThat(k.attributes().get("ecdsa_curve")).isEqualTo(Value.string("P224"));
        sshKeygenAgrees(k);
    }

    @Test
    void ecdsaAndEd25519KeyFormats() throws Exception {
        Value ec = key("ECDSA", Map.of("ecdsa_curve", Value.string("P256")));
        assertThat(str(ec, "private_key_pem")).startsWith("-----BEGIN EC PRIVATE KEY-----\n");
        KeyFactory.getInstance("EC")
                .generatePrivate(new PKCS8EncodedKeySpec(pemBody(str(ec, "private_key_pem_pkcs8"))));
        assertThat(str(ec, "public_key_openssh"))
                .startsWith("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABB");
        sshKeygenAgrees(ec);
        Value ed = key("ED25519", Map.of());
        assertThat(str(ed, "private_key_pem")).startsWith("-----BEGIN PRIVATE KEY-----\n");
        assertThat(pemBody(str(ed, "private_key_pem"))).hasSize(48);
        KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(pemBody(str(ed, "private_key_pem"))));
        assertThat(str(ed, "public_key_openssh")).startsWith("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI");
        sshKeygenAgrees(ed);
        Value p224 = key("ECDSA", Map.of());
        assertThat(str(p224, "ecdsa_curve")).isEqualTo("P224");
        assertThat(str(p224, "public_key_openssh")).isEmpty();
        assertThat(str(p224, "private_key_openssh")).isEmpty();
        assertThat(str(p224, "public_key_fingerprint_sha256")).isEmpty();
        assertThat(str(p224, "public_key_pem")).startsWith("-----BEGIN PUBLIC KEY-----\n");
    }

    /** ssh-keygen, where installed, must read our OpenSSH private key and derive the same public key and fingerprint. */
    private void sshKeygenAgrees(Value k) throws Exception {
        Path keygen = Path.of("/usr/bin/ssh-keygen");
        if (!Files.isExecutable(keygen)) {
            return;
        }
        Path f = dir.resolve("key" + System.nanoTime());
        Files.writeString(f, str(k, "private_key_openssh"));
        Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        assertThat(run(keygen.toString(), "-y", "-f", f.toString()).strip())
                .isEqualTo(str(k, "public_key_openssh").strip());
        assertThat(run(keygen.toString(), "-l", "-E", "sha256", "-f", f.toString()))
                .contains(str(k, "public_key_fingerprint_sha256"));
        assertThat(run(keygen.toString(), "-l", "-E", "md5", "-f", f.toString()))
                .contains("MD5:" + str(k, "public_key_fingerprint_md5"));
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void publicKeyDataSourceFromPemAndOpenSsh() {
        for (String alg : List.of("RSA", "ECDSA", "ED25519")) {
            Value k = key(alg, alg.equals("ECDSA") ? Map.of("ecdsa_curve", Value.string("P384")) : Map.of());
            for (String from : List.of("private_key_pem", "private_key_pem_pkcs8", "private_key_openssh")) {
                Value d = tester().readData(
                                "tls_public_key",
                                Map.of(
                                        from.equals("private_key_openssh") ? from : "private_key_pem",
                                        k.attributes().get(from)));
                assertThat(str(d, "public_key_pem")).isEqualTo(str(k, "public_key_pem"));
                assertThat(str(d, "public_key_openssh")).isEqualTo(str(k, "public_key_openssh"));
                assertThat(str(d, "id")).isEqualTo(str(k, "id"));
                assertThat(str(d, "algorithm")).isEqualTo(alg);
            }
        }
        assertThat(tester().validateDataSource("tls_public_key", Map.of()).hasErrors())
                .isTrue();
        assertThat(tester().tryReadData("tls_public_key", Map.of("private_key_pem", Value.string("nope")))
                        .diagnostics()
                        .hasErrors())
                .isTrue();
    }

    private static Value subject(String cn) {
        return Value.tuple(List.of(Value.objectOf(
                "common_name",
                Value.string(cn),
                "organization",
                Value.string("ACME, Inc."),
                "country",
                Value.string("US"))));
    }

    private static Value strings(String... s) {
        return Value.list(
                Type.STRING, java.util.Arrays.stream(s).map(Value::string).toList());
    }

    private static X509Certificate parse(String pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void selfSignedCertificateAndRenewal() throws Exception {
        Value k = key("ECDSA", Map.of("ecdsa_curve", Value.string("P256")));
        ResourceTester r = tester().resource("tls_self_signed_cert");
        Map<String, Value> cfg = new java.util.HashMap<>(Map.of(
                "private_key_pem",
                k.attributes().get("private_key_pem"),
                "subject",
                subject("example.com"),
                "validity_period_hours",
                Value.number(12),
                "early_renewal_hours",
                Value.number(2),
                "allowed_uses",
                strings("key_encipherment", "digital_signature", "server_auth"),
                "dns_names",
                strings("example.com", "www.example.com"),
                "ip_addresses",
                strings("127.0.0.1")));
        Value s = r.apply(cfg).state();
        X509Certificate c = parse(str(s, "cert_pem"));
        c.verify(c.getPublicKey());
        assertThat(c.getSubjectX500Principal().getName()).isEqualTo("CN=example.com,O=ACME\\, Inc.,C=US");
        assertThat(c.getNotBefore().toInstant()).isEqualTo(Instant.parse("2025-06-01T12:00:00Z"));
        assertThat(str(s, "validity_start_time")).isEqualTo("2025-06-01T12:00:00Z");
        assertThat(str(s, "validity_end_time")).isEqualTo("2025-06-02T00:00:00Z");
        assertThat(c.getSubjectAlternativeNames())
                .extracting(l -> l.get(1).toString())
                .containsExactly("example.com", "www.example.com", "127.0.0.1");
        assertThat(c.getKeyUsage()[0]).isTrue();
        assertThat(c.getKeyUsage()[2]).isTrue();
        assertThat(c.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(c.getBasicConstraints()).isEqualTo(-1);
        assertThat(c.getSigAlgName()).isEqualTo("SHA256withECDSA");
        assertThat(str(s, "id")).isEqualTo(c.getSerialNumber().toString());
        assertThat(str(s, "key_algorithm")).isEqualTo("ECDSA");
        assertThat(s.attributes().get("ready_for_renewal")).isEqualTo(Value.FALSE);

        cfg.put("early_renewal_hours", Value.number(1));
        Step inPlace = r.apply(cfg);
        assertThat(inPlace.action()).isEqualTo(Action.UPDATE);
        assertThat(str(inPlace.state(), "cert_pem")).isEqualTo(str(s, "cert_pem"));

        clock.advance(Duration.ofHours(11));
        assertThat(r.refresh().attributes().get("ready_for_renewal")).isEqualTo(Value.TRUE);
        Step renewed = r.apply(cfg);
        assertThat(renewed.action()).isEqualTo(Action.REPLACE);
        assertThat(renewed.requiresReplace()).containsExactly(AttributePath.of("ready_for_renewal"));
        assertThat(str(renewed.state(), "validity_start_time")).isEqualTo("2025-06-01T23:00:00Z");
        r.destroy();
    }

    @Test
    void requestAndLocallySignedCertificate() throws Exception {
        Value caKey = key("RSA", Map.of());
        Value ca = tester().resource("tls_self_signed_cert")
                .apply(Map.of(
                        "private_key_pem",
                        caKey.attributes().get("private_key_pem"),
                        "subject",
                        subject("Test CA"),
                        "validity_period_hours",
                        Value.number(100),
                        "is_ca_certificate",
                        Value.TRUE,
                        "allowed_uses",
                        strings("cert_signing", "crl_signing")))
                .state();
        X509Certificate caCert = parse(str(ca, "cert_pem"));
        assertThat(caCert.getBasicConstraints()).isGreaterThanOrEqualTo(0);
        assertThat(caCert.getExtensionValue("2.5.29.14")).isNotNull();

        Value leafKey = key("ED25519", Map.of());
        Value csr = tester().resource("tls_cert_request")
                .apply(Map.of(
                        "private_key_pem",
                        leafKey.attributes().get("private_key_pem"),
                        "subject",
                        subject("leaf.example.com"),
                        "dns_names",
                        strings("leaf.example.com"),
                        "uris",
                        strings("spiffe://example/leaf")))
                .state();
        assertThat(str(csr, "cert_request_pem")).startsWith("-----BEGIN CERTIFICATE REQUEST-----\n");
        assertThat(str(csr, "key_algorithm")).isEqualTo("ED25519");

        ResourceTester signed = tester().resource("tls_locally_signed_cert");
        Value s = signed.apply(Map.of(
                        "cert_request_pem",
                        csr.attributes().get("cert_request_pem"),
                        "ca_private_key_pem",
                        caKey.attributes().get("private_key_pem"),
                        "ca_cert_pem",
                        ca.attributes().get("cert_pem"),
                        "validity_period_hours",
                        Value.number(24),
                        "allowed_uses",
                        strings("digital_signature", "client_auth")))
                .state();
        X509Certificate leaf = parse(str(s, "cert_pem"));
        leaf.verify(caCert.getPublicKey());
        assertThat(leaf.getIssuerX500Principal()).isEqualTo(caCert.getSubjectX500Principal());
        assertThat(leaf.getSubjectX500Principal().getName()).startsWith("CN=leaf.example.com");
        assertThat(leaf.getSubjectAlternativeNames())
                .extracting(l -> l.get(1).toString())
                .containsExactly("leaf.example.com", "spiffe://example/leaf");
        assertThat(leaf.getExtensionValue("2.5.29.35")).isNotNull();
        assertThat(leaf.getSigAlgName()).isEqualTo("SHA256withRSA");
        assertThat(str(s, "ca_key_algorithm")).isEqualTo("RSA");

        Value otherKey = key("RSA", Map.of());
        var mismatch = tester().resource("tls_locally_signed_cert");
        var resp = tester().provider()
                .applyResourceChange(new dev.strata.provider.Provider.ApplyRequest(
                        "tls_locally_signed_cert",
                        mismatch.state(),
                        dev.strata.provider.sdk.Attrs.with(
                                s, "ca_private_key_pem", otherKey.attributes().get("private_key_pem")),
                        s,
                        null,
                        "t"));
        assertThat(resp.diagnostics().hasErrors()).isTrue();
        assertThat(resp.diagnostics().toString())
                .doesNotContain(str(otherKey, "private_key_pem").substring(40, 80));
        signed.destroy();
    }

    @Test
    void certificateDataFromContentAndUrl() throws Exception {
        Value k = key("RSA", Map.of());
        Value cert = tester().resource("tls_self_signed_cert")
                .apply(Map.of(
                        "private_key_pem",
                        k.attributes().get("private_key_pem"),
                        "subject",
                        subject("localhost"),
                        "validity_period_hours",
                        Value.number(1000000),
                        "allowed_uses",
                        strings("server_auth"),
                        "dns_names",
                        strings("localhost"),
                        "ip_addresses",
                        strings("127.0.0.1")))
                .state();
        clock.set(Instant.now());
        Value d = tester().readData(
                        "tls_certificate", Map.of("content", cert.attributes().get("cert_pem")));
        Value c0 = d.attributes().get("certificates").elements().get(0);
        X509Certificate x = parse(str(cert, "cert_pem"));
        assertThat(str(c0, "subject")).isEqualTo("CN=localhost,O=ACME\\, Inc.,C=US");
        assertThat(str(c0, "issuer")).isEqualTo(str(c0, "subject"));
        assertThat(str(c0, "signature_algorithm")).isEqualTo("SHA256-RSA");
        assertThat(str(c0, "public_key_algorithm")).isEqualTo("RSA");
        assertThat(str(c0, "serial_number")).isEqualTo(x.getSerialNumber().toString());
        assertThat(str(c0, "sha1_fingerprint"))
                .isEqualTo(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-1").digest(x.getEncoded())));
        assertThat(c0.attributes().get("version")).isEqualTo(Value.number(3));
        assertThat(c0.attributes().get("is_ca")).isEqualTo(Value.FALSE);
        assertThat(str(c0, "cert_pem")).isEqualTo(str(cert, "cert_pem"));

        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry(
                "k",
                KeyFactory.getInstance("RSA")
                        .generatePrivate(new PKCS8EncodedKeySpec(pemBody(str(k, "private_key_pem_pkcs8")))),
                new char[0],
                new java.security.cert.Certificate[] {x});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, new char[0]);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ctx));
        server.createContext("/", ex -> {
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.start();
        try {
            String url = "https://127.0.0.1:" + server.getAddress().getPort();
            Value fromUrl =
                    tester().readData("tls_certificate", Map.of("url", Value.string(url), "verify_chain", Value.FALSE));
            assertThat(str(fromUrl.attributes().get("certificates").elements().get(0), "cert_pem"))
                    .isEqualTo(str(cert, "cert_pem"));
            var untrusted = tester().tryReadData("tls_certificate", Map.of("url", Value.string(url)));
            assertThat(untrusted.diagnostics().asList().get(0).summary())
                    .isEqualTo("Unable to verify certificate chain");
        } finally {
            server.stop(0);
        }
        assertThat(tester().validateDataSource("tls_certificate", Map.of("url", Value.string("http://x")))
                        .hasErrors())
                .isTrue();
    }

    @Test
    void certificatesFromAClosedPortAreAPermanentErrorNamingTheServer() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        var r = tester().tryReadData("tls_certificate", Map.of("url", Value.string("https://127.0.0.1:" + port)));
        assertThat(r.diagnostics().failure()).containsInstanceOf(dev.strata.provider.Failure.Permanent.class);
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo(
                        "The TLS connection failed: could not connect to 127.0.0.1:" + port + ": connection refused.");
    }
}
