package dev.strata.tfplugin;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The ephemeral key and self-signed certificate with which Strata authenticates to one plugin
 * process (go-plugin's AutoMTLS). The plugin trusts exactly this certificate, handed to it in
 * {@code PLUGIN_CLIENT_CERT}, so no other local process can drive the provider. The private key
 * never leaves this object.
 */
final class ClientIdentity {
    // go-plugin's server verifies the client certificate as its own root, so it must be usable as
    // a CA and for client authentication, like the certificates go-plugin's own client makes.
    private static final Duration VALIDITY = Duration.ofDays(1);

    private final PrivateKey privateKey;
    private final X509Certificate certificate;

    private ClientIdentity(PrivateKey privateKey, X509Certificate certificate) {
        this.privateKey = privateKey;
        this.certificate = certificate;
    }

    static ClientIdentity generate() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair kp = gen.generateKeyPair();
            X500Name name = new X500Name("CN=localhost,O=HashiCorp");
            Instant now = Instant.now();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                    name,
                    new BigInteger(127, new SecureRandom()),
                    Date.from(now.minus(Duration.ofSeconds(30))),
                    Date.from(now.plus(VALIDITY)),
                    name,
                    kp.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment | KeyUsage.keyCertSign));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                KeyPurposeId.id_kp_clientAuth, KeyPurposeId.id_kp_serverAuth
            }));
            b.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
            X509Certificate cert = new JcaX509CertificateConverter()
                    .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(kp.getPrivate())));
            return new ClientIdentity(kp.getPrivate(), cert);
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("the JDK's EC provider cannot make a client certificate", e);
        }
    }

    PrivateKey privateKey() {
        return privateKey;
    }

    X509Certificate certificate() {
        return certificate;
    }

    String certificatePem() {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(certificate);
        } catch (IOException e) {
            throw new IllegalStateException("writing PEM to memory does not fail", e);
        }
        return out.toString();
    }
}
