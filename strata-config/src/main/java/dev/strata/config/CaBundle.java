package dev.strata.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A TLS context that trusts exactly the CA certificates of a PEM bundle, for {@code SSL_CERT_FILE}: Go
 * programs on Linux (Terraform among them) read their roots from the file it names instead of the
 * system's, which is how a private registry's CA is usually trusted.
 */
final class CaBundle {
    private CaBundle() {}

    static SSLContext context(Path bundle) throws IOException, GeneralSecurityException {
        Collection<? extends Certificate> certs;
        // Read whole: the certificate parser reads its stream a byte at a time, one system call each
        // on an unbuffered file (220,000 for a distribution's bundle).
        try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(bundle))) {
            certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
        }
        if (certs.isEmpty()) {
            throw new CertificateException("the file holds no PEM certificate");
        }
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        int i = 0;
        for (Certificate c : certs) {
            trusted.setCertificateEntry("ca-" + i++, c);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trusted);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }
}
