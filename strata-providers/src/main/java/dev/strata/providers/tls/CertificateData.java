package dev.strata.providers.tls;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ConnectionFailure;
import dev.strata.provider.Failure;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.DataSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.cert.X509CertificateHolder;

/**
 * Data source {@code tls_certificate}: the certificates in PEM {@code content}, in the order
 * given, or the chain an {@code https://} or {@code tls://} server presents, root first.
 */
final class CertificateData implements DataSource {

    static final ObjectType CERTIFICATE = Type.object(Map.ofEntries(
            Map.entry("signature_algorithm", Type.STRING),
            Map.entry("public_key_algorithm", Type.STRING),
            Map.entry("serial_number", Type.STRING),
            Map.entry("is_ca", Type.BOOL),
            Map.entry("version", Type.NUMBER),
            Map.entry("issuer", Type.STRING),
            Map.entry("subject", Type.STRING),
            Map.entry("not_before", Type.STRING),
            Map.entry("not_after", Type.STRING),
            Map.entry("sha1_fingerprint", Type.STRING),
            Map.entry("cert_pem", Type.STRING)));

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(
                    "url",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "URL of the endpoint to get the certificates from. Accepted schemes are: `https`, `tls`."))
            .attribute(
                    "content",
                    Attribute.optional(Type.STRING).withDescription("The content of the certificate in PEM format."))
            .attribute(
                    "verify_chain",
                    Attribute.optional(Type.BOOL)
                            .withDescription(
                                    "Whether to verify the certificate chain while parsing it or not (default: `true`)."))
            .attribute(
                    "certificates",
                    Attribute.computed(Type.list(CERTIFICATE))
                            .withDescription("The certificates protecting the site, with the root of the chain first."))
            .attribute(
                    "id",
                    Attribute.computed(Type.STRING)
                            .withDescription(
                                    "Unique identifier of this data source: hashing of the certificates in the chain."))
            .build());

    private static final Map<ASN1ObjectIdentifier, String> SIGNATURE_NAMES = Map.ofEntries(
            Map.entry(PKCSObjectIdentifiers.sha1WithRSAEncryption, "SHA1-RSA"),
            Map.entry(PKCSObjectIdentifiers.sha256WithRSAEncryption, "SHA256-RSA"),
            Map.entry(PKCSObjectIdentifiers.sha384WithRSAEncryption, "SHA384-RSA"),
            Map.entry(PKCSObjectIdentifiers.sha512WithRSAEncryption, "SHA512-RSA"),
            Map.entry(PKCSObjectIdentifiers.id_RSASSA_PSS, "SHA256-RSAPSS"),
            Map.entry(X9ObjectIdentifiers.ecdsa_with_SHA1, "ECDSA-SHA1"),
            Map.entry(X9ObjectIdentifiers.ecdsa_with_SHA256, "ECDSA-SHA256"),
            Map.entry(X9ObjectIdentifiers.ecdsa_with_SHA384, "ECDSA-SHA384"),
            Map.entry(X9ObjectIdentifiers.ecdsa_with_SHA512, "ECDSA-SHA512"),
            Map.entry(EdECObjectIdentifiers.id_Ed25519, "Ed25519"));

    @Override
    public String typeName() {
        return "tls_certificate";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value url = Attrs.get(config, "url");
        Value content = Attrs.get(config, "content");
        if (url.isKnown() && content.isKnown() && url.isNull() == content.isNull()) {
            diags.error(
                    "Invalid Attribute Combination",
                    "Exactly one of these attributes must be configured: [content,url]",
                    null);
        }
        if (!content.isNull() && !Attrs.get(config, "verify_chain").isNull()) {
            diags.error(
                    "Invalid Attribute Combination",
                    "Attribute \"verify_chain\" cannot be specified when \"content\"" + " is specified",
                    AttributePath.of("verify_chain"));
        }
        Value u = url.unmarkDeep();
        if (u.isKnownAndNotNull()) {
            String scheme = scheme(u.asString());
            if (!scheme.equals("https") && !scheme.equals("tls")) {
                diags.error(
                        "Invalid URL scheme", "The URL scheme must be one of: https, tls.", AttributePath.of("url"));
            }
        }
    }

    private static String scheme(String url) {
        int i = url.indexOf("://");
        return i < 0 ? "" : url.substring(0, i).toLowerCase(Locale.ROOT);
    }

    @Override
    public Value read(Value config, ProviderDiagnostics.Builder diags) {
        List<byte[]> ders = new ArrayList<>();
        String content = Attrs.string(config, "content");
        boolean verify = !Boolean.FALSE.equals(Attrs.bool(config, "verify_chain"));
        if (content != null) {
            for (Pem.Block b : Pem.decodeAll(content)) {
                if (b.type().equals("CERTIFICATE")) {
                    ders.add(b.der());
                }
            }
            if (ders.isEmpty()) {
                diags.error(
                        "Failed to decoded PEM",
                        "The content contains no PEM-encoded certificate.",
                        AttributePath.of("content"));
                return null;
            }
        } else {
            Optional<List<byte[]>> chain = fetch(Attrs.string(config, "url"), verify, diags);
            if (chain.isEmpty()) {
                return null;
            }
            ders.addAll(chain.get().reversed());
        }
        List<Value> certs = new ArrayList<>();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] der : ders) {
            try {
                certs.add(describe(new X509CertificateHolder(der), der));
                all.writeBytes(der);
            } catch (IOException | RuntimeException e) {
                diags.error(
                        "Unable to parse certificate",
                        "A certificate could not be parsed (" + e.getClass().getSimpleName() + ").",
                        null);
                return null;
            }
        }
        return Attrs.with(
                config,
                "certificates",
                Value.list(CERTIFICATE, certs),
                "id",
                Value.string(HexFormat.of().formatHex(Keys.digest("SHA-1", all.toByteArray()))));
    }

    private static Value describe(X509CertificateHolder c, byte[] der) {
        Extension bc = c.getExtension(Extension.basicConstraints);
        boolean isCa =
                bc != null && BasicConstraints.getInstance(bc.getParsedValue()).isCA();
        ASN1ObjectIdentifier keyAlg = c.getSubjectPublicKeyInfo().getAlgorithm().getAlgorithm();
        String pka = keyAlg.equals(PKCSObjectIdentifiers.rsaEncryption)
                ? "RSA"
                : keyAlg.equals(X9ObjectIdentifiers.id_ecPublicKey)
                        ? "ECDSA"
                        : keyAlg.equals(EdECObjectIdentifiers.id_Ed25519) ? "Ed25519" : keyAlg.getId();
        ASN1ObjectIdentifier sigAlg = c.getSignatureAlgorithm().getAlgorithm();
        Map<String, Value> m = new TreeMap<>();
        m.put("signature_algorithm", Value.string(SIGNATURE_NAMES.getOrDefault(sigAlg, sigAlg.getId())));
        m.put("public_key_algorithm", Value.string(pka));
        m.put("serial_number", Value.string(c.getSerialNumber().toString()));
        m.put("is_ca", Value.bool(isCa));
        m.put("version", Value.number(c.getVersionNumber()));
        m.put("issuer", Value.string(CertSupport.goString(c.getIssuer())));
        m.put("subject", Value.string(CertSupport.goString(c.getSubject())));
        m.put("not_before", Value.string(CertSupport.time(c.getNotBefore().toInstant())));
        m.put("not_after", Value.string(CertSupport.time(c.getNotAfter().toInstant())));
        m.put("sha1_fingerprint", Value.string(HexFormat.of().formatHex(Keys.digest("SHA-1", der))));
        m.put("cert_pem", Value.string(Pem.encode("CERTIFICATE", der)));
        return Value.object(m);
    }

    /** The chain the server presents, leaf first, verified against the JDK's trust store when asked. */
    private static Optional<List<byte[]>> fetch(String url, boolean verify, ProviderDiagnostics.Builder diags) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            diags.error("Invalid URL", "The URL is not valid: " + e.getReason() + ".", AttributePath.of("url"));
            return Optional.empty();
        }
        int port = uri.getPort() < 0 ? 443 : uri.getPort();
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {new Capture()}, null);
            try (java.net.Socket raw = new java.net.Socket()) {
                // A bounded connect: the OS default for an address that never answers is minutes.
                raw.connect(new java.net.InetSocketAddress(uri.getHost(), port), 10_000);
                SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket(raw, uri.getHost(), port, true);
                s.setSoTimeout(30_000);
                s.startHandshake();
                Certificate[] peer = s.getSession().getPeerCertificates();
                X509Certificate[] chain = new X509Certificate[peer.length];
                List<byte[]> out = new ArrayList<>();
                for (int i = 0; i < peer.length; i++) {
                    chain[i] = (X509Certificate) peer[i];
                    out.add(peer[i].getEncoded());
                }
                if (verify) {
                    TrustManagerFactory tmf =
                            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                    tmf.init((KeyStore) null);
                    for (TrustManager tm : tmf.getTrustManagers()) {
                        if (tm instanceof X509TrustManager x) {
                            x.checkServerTrusted(chain, "UNKNOWN");
                        }
                    }
                }
                return Optional.of(out);
            }
        } catch (java.security.cert.CertificateException e) {
            diags.error(
                    "Unable to verify certificate chain",
                    "The certificate chain presented by " + uri.getHost()
                            + " is not trusted. Set verify_chain = false to read it anyway.",
                    AttributePath.of("url"));
        } catch (GeneralSecurityException e) {
            diags.error(
                    "Unable to read certificates",
                    "TLS is not available (" + ConnectionFailure.describe(e) + ").",
                    null);
        } catch (IOException e) {
            Optional<ConnectionFailure> unreachable = ConnectionFailure.of(uri.getHost() + ":" + port, e);
            if (unreachable.isPresent()) {
                diags.error(
                        "Unable to read certificates",
                        "The TLS connection failed: " + unreachable.get().message() + ".",
                        AttributePath.of("url"));
            } else {
                diags.add(ProviderDiagnostic.transientError(
                        "Unable to read certificates",
                        "The connection to " + uri.getHost() + ":" + port + " failed: " + ConnectionFailure.describe(e)
                                + ".",
                        (Failure.Transient) Failure.transientFailure()));
            }
        }
        return Optional.empty();
    }

    /** Accepts any chain during the handshake; verification, if asked for, happens afterwards. */
    private static final class Capture implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
