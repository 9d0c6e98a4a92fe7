package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.StringReader;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * The TLS context of {@code backend "http"}: {@code client_ca_certificate_pem} as the only trusted roots
 * for the server's certificate, and {@code client_certificate_pem} with {@code client_private_key_pem} as
 * the client's identity for mutual TLS. The PEM texts come from the settings or {@code TF_HTTP_CLIENT_*};
 * messages name the setting, never its content.
 */
final class HttpTls {
    private static final char[] NO_PASSWORD = new char[0];

    private HttpTls() {}

    /**
     * The context for these settings, or null when none of them asks for one (the JDK's default applies).
     * {@code skip_cert_verification} trusts any server but still presents the client certificate.
     */
    static Result<SSLContext> context(HttpSettings s) {
        if (s.clientCaCertificatePem() == null
                && s.clientCertificatePem() == null
                && s.clientPrivateKeyPem() == null
                && !s.skipCertVerification()) {
            return Result.of(null);
        }
        if ((s.clientCertificatePem() == null) != (s.clientPrivateKeyPem() == null)) {
            return error(
                    "Invalid client certificate configuration",
                    "client_certificate_pem and client_private_key_pem must be set together (or neither): mutual"
                            + " TLS needs the certificate and its private key.");
        }
        try {
            TrustManager[] trust = null;
            if (s.skipCertVerification()) {
                trust = new TrustManager[] {new HttpBackend.TrustAll()};
            } else if (s.clientCaCertificatePem() != null) {
                List<X509Certificate> ca = certificates(s.clientCaCertificatePem());
                if (ca.isEmpty()) {
                    return error(
                            "Invalid client_ca_certificate_pem",
                            "client_ca_certificate_pem holds no PEM certificate (\"-----BEGIN CERTIFICATE-----\").");
                }
                KeyStore roots = KeyStore.getInstance("PKCS12");
                roots.load(null, null);
                for (int i = 0; i < ca.size(); i++) {
                    roots.setCertificateEntry("ca-" + i, ca.get(i));
                }
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(roots);
                trust = tmf.getTrustManagers();
            }
            javax.net.ssl.KeyManager[] keys = null;
            if (s.clientCertificatePem() != null) {
                List<X509Certificate> chain = certificates(s.clientCertificatePem());
                if (chain.isEmpty()) {
                    return error(
                            "Invalid client_certificate_pem",
                            "client_certificate_pem holds no PEM certificate (\"-----BEGIN CERTIFICATE-----\").");
                }
                PrivateKey key = privateKey(s.clientPrivateKeyPem());
                if (key == null) {
                    return error(
                            "Invalid client_private_key_pem",
                            "client_private_key_pem holds no PEM private key (\"-----BEGIN PRIVATE KEY-----\", \"RSA"
                                    + " PRIVATE KEY\" or \"EC PRIVATE KEY\"; encrypted keys are not supported).");
                }
                if (!chain.get(0).getPublicKey().getAlgorithm().equals(key.getAlgorithm())) {
                    return error(
                            "Invalid client certificate configuration",
                            "client_private_key_pem is a " + key.getAlgorithm() + " key, but client_certificate_pem"
                                    + " certifies a "
                                    + chain.get(0).getPublicKey().getAlgorithm() + " key: they"
                                    + " must be a pair.");
                }
                KeyStore identity = KeyStore.getInstance("PKCS12");
                identity.load(null, null);
                identity.setKeyEntry("client", key, NO_PASSWORD, chain.toArray(X509Certificate[]::new));
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(identity, NO_PASSWORD);
                keys = kmf.getKeyManagers();
            }
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(keys, trust, null);
            return Result.of(c);
        } catch (IOException | GeneralSecurityException e) {
            // The reason names the PEM structure at fault, never key material.
            return error(
                    "Invalid client certificate configuration",
                    "The PEM text of client_ca_certificate_pem, client_certificate_pem or client_private_key_pem"
                            + " could not be read: " + e.getMessage() + ".");
        }
    }

    private static List<X509Certificate> certificates(String pem) throws IOException, GeneralSecurityException {
        List<X509Certificate> out = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (PEMParser p = new PEMParser(new StringReader(pem))) {
            for (Object o = p.readObject(); o != null; o = p.readObject()) {
                if (o instanceof X509CertificateHolder h) {
                    out.add(converter.getCertificate(h));
                }
            }
        }
        return out;
    }

    private static PrivateKey privateKey(String pem) throws IOException {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser p = new PEMParser(new StringReader(pem))) {
            for (Object o = p.readObject(); o != null; o = p.readObject()) {
                if (o instanceof PEMKeyPair pair) {
                    return converter.getKeyPair(pair).getPrivate();
                }
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
        }
        return null;
    }

    private static Result<SSLContext> error(String summary, String detail) {
        return Result.of(null, dev.strata.hcl.Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }
}
