package dev.strata.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Throwaway certificates for TLS tests: a CA and certificates it signs for 127.0.0.1 (a server) or a named
 * client, with their PEM texts and an {@link SSLContext} for a test server.
 */
public final class TestCertificates {
    private static final char[] NO_PASSWORD = new char[0];
    private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

    /** One certificate and its key pair. */
    public record Issued(X509Certificate certificate, KeyPair keys) {
        public String certificatePem() {
            return pem(certificate);
        }

        /** The private key as PKCS#8 PEM ("BEGIN PRIVATE KEY"). */
        public String privateKeyPem() {
            try {
                return pem(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(keys.getPrivate(), null));
            } catch (org.bouncycastle.util.io.pem.PemGenerationException e) {
                throw new IllegalStateException("PKCS#8", e);
            }
        }
    }

    private final Issued ca;

    private TestCertificates(Issued ca) {
        this.ca = ca;
    }

    /** A new self-signed CA. */
    public static TestCertificates newAuthority(String name) {
        KeyPair keys = keyPair();
        return new TestCertificates(new Issued(sign("CN=" + name, keys, "CN=" + name, keys, true, false), keys));
    }

    public Issued authority() {
        return ca;
    }

    /** A server certificate for 127.0.0.1 and localhost. */
    public Issued server() {
        KeyPair keys = keyPair();
        return new Issued(sign("CN=127.0.0.1", keys, subject(), ca.keys(), false, true), keys);
    }

    /** A client certificate with this common name. */
    public Issued client(String name) {
        KeyPair keys = keyPair();
        return new Issued(sign("CN=" + name, keys, subject(), ca.keys(), false, false), keys);
    }

    /** A server context presenting {@code identity} and trusting clients this CA signed. */
    public SSLContext serverContext(Issued identity) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry(
                    "server", identity.keys().getPrivate(), NO_PASSWORD, new X509Certificate[] {identity.certificate()
                    });
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, NO_PASSWORD);
            KeyStore ts = KeyStore.getInstance("PKCS12");
            ts.load(null, null);
            ts.setCertificateEntry("ca", ca.certificate());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ts);
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return c;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("test TLS context", e);
        }
    }

    private String subject() {
        return ca.certificate().getSubjectX500Principal().getName();
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("EC keys", e);
        }
    }

    private static X509Certificate sign(
            String subject, KeyPair subjectKeys, String issuer, KeyPair issuerKeys, boolean ca, boolean server) {
        try {
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                    new X500Name(issuer),
                    BigInteger.valueOf(SERIAL.incrementAndGet()),
                    Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(Duration.ofDays(1))),
                    new X500Name(subject),
                    subjectKeys.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (server) {
                b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(GeneralName.dNSName, "localhost")
                }));
            }
            return new JcaX509CertificateConverter()
                    .getCertificate(
                            b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new IllegalStateException("test certificate", e);
        }
    }

    private static String pem(Object o) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        } catch (IOException e) {
            throw new IllegalStateException("PEM", e);
        }
        return out.toString();
    }
}
