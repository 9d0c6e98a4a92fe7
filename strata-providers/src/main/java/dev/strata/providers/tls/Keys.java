package dev.strata.providers.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.pkcs.RSAPrivateKey;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.jce.ECNamedCurveTable;
import org.bouncycastle.jce.interfaces.ECPublicKey;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jce.spec.ECNamedCurveParameterSpec;
import org.bouncycastle.jce.spec.ECPublicKeySpec;
import org.bouncycastle.math.ec.ECPoint;

/**
 * Key pairs and their encodings, byte for byte as Go's {@code crypto/x509} and
 * {@code x/crypto/ssh} produce them for HashiCorp's tls provider: PKCS#1 for RSA, SEC 1 for ECDSA
 * and PKCS#8 for ED25519 in {@code private_key_pem}; PKCS#8 in {@code private_key_pem_pkcs8};
 * PKIX public keys; OpenSSH {@code authorized_keys} lines and {@code openssh-key-v1} private keys.
 * Go's SSH package has no P-224, so those keys have empty OpenSSH forms and fingerprints.
 */
final class Keys {

    static final Provider BC = new BouncyCastleProvider();

    enum Algorithm {
        RSA,
        ECDSA,
        ED25519
    }

    /** An ECDSA curve: the tls provider's name, the SEC/X9 OID, Go's SSH name. */
    record Curve(String name, ASN1ObjectIdentifier oid, String stdName, int bits, String sshName) {}

    static final Map<String, Curve> CURVES = Map.of(
            "P224", new Curve("P224", SECObjectIdentifiers.secp224r1, "secp224r1", 224, null),
            "P256", new Curve("P256", X9ObjectIdentifiers.prime256v1, "secp256r1", 256, "nistp256"),
            "P384", new Curve("P384", SECObjectIdentifiers.secp384r1, "secp384r1", 384, "nistp384"),
            "P521", new Curve("P521", SECObjectIdentifiers.secp521r1, "secp521r1", 521, "nistp521"));

    /** A private key with its public half; {@code curve} is set for ECDSA only. */
    record Key(Algorithm algorithm, PrivateKey privateKey, PublicKey publicKey, Curve curve) {}

    private Keys() {}

    static Key generate(Algorithm alg, int rsaBits, String curve, SecureRandom random) throws GeneralSecurityException {
        return switch (alg) {
            case RSA -> {
                KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", BC);
                g.initialize(new RSAKeyGenParameterSpec(rsaBits, RSAKeyGenParameterSpec.F4), random);
                KeyPair kp = g.generateKeyPair();
                yield new Key(alg, kp.getPrivate(), kp.getPublic(), null);
            }
            case ECDSA -> {
                Curve c = CURVES.get(curve);
                KeyPairGenerator g = KeyPairGenerator.getInstance("EC", BC);
                g.initialize(new ECGenParameterSpec(c.stdName()), random);
                KeyPair kp = g.generateKeyPair();
                yield new Key(alg, kp.getPrivate(), kp.getPublic(), c);
            }
            case ED25519 -> fromEd25519Seed(new Ed25519PrivateKeyParameters(random).getEncoded());
        };
    }

    private static Key fromEd25519Seed(byte[] seed) throws GeneralSecurityException {
        byte[] pub = new Ed25519PrivateKeyParameters(seed).generatePublicKey().getEncoded();
        KeyFactory f = KeyFactory.getInstance("Ed25519", BC);
        PrivateKey priv = f.generatePrivate(new PKCS8EncodedKeySpec(ed25519Pkcs8(seed)));
        try {
            PublicKey pk = f.generatePublic(new X509EncodedKeySpec(
                    new SubjectPublicKeyInfo(new AlgorithmIdentifier(EdECObjectIdentifiers.id_Ed25519), pub)
                            .getEncoded()));
            return new Key(Algorithm.ED25519, priv, pk, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] ed25519Pkcs8(byte[] seed) {
        try {
            return new PrivateKeyInfo(
                            new AlgorithmIdentifier(EdECObjectIdentifiers.id_Ed25519), new DEROctetString(seed))
                    .getEncoded();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] ed25519Seed(Key k) {
        try {
            return ASN1OctetString.getInstance(
                            PrivateKeyInfo.getInstance(k.privateKey().getEncoded())
                                    .parsePrivateKey())
                    .getOctets();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] ed25519Public(Key k) {
        return SubjectPublicKeyInfo.getInstance(k.publicKey().getEncoded())
                .getPublicKeyData()
                .getBytes();
    }

    // ---- PEM forms ----------------------------------------------------------------------------

    /** {@code private_key_pem}: PKCS#1, SEC 1 or PKCS#8, by algorithm. */
    static String privateKeyPem(Key k) {
        try {
            return switch (k.algorithm()) {
                case RSA ->
                    Pem.encode(
                            "RSA PRIVATE KEY",
                            PrivateKeyInfo.getInstance(k.privateKey().getEncoded())
                                    .parsePrivateKey()
                                    .toASN1Primitive()
                                    .getEncoded());
                case ECDSA -> Pem.encode("EC PRIVATE KEY", sec1(k, true));
                case ED25519 -> Pem.encode("PRIVATE KEY", ed25519Pkcs8(ed25519Seed(k)));
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code private_key_pem_pkcs8}. */
    static String privateKeyPkcs8Pem(Key k) {
        try {
            byte[] der = switch (k.algorithm()) {
                case RSA ->
                    new PrivateKeyInfo(
                                    new AlgorithmIdentifier(PKCSObjectIdentifiers.rsaEncryption, DERNull.INSTANCE),
                                    PrivateKeyInfo.getInstance(k.privateKey().getEncoded())
                                            .parsePrivateKey())
                            .getEncoded();
                case ECDSA ->
                    new PrivateKeyInfo(
                                    new AlgorithmIdentifier(
                                            X9ObjectIdentifiers.id_ecPublicKey,
                                            k.curve().oid()),
                                    ECPrivateKey.getInstance(sec1(k, false)))
                            .getEncoded();
                case ED25519 -> ed25519Pkcs8(ed25519Seed(k));
            };
            return Pem.encode("PRIVATE KEY", der);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // Go's marshalECPrivateKeyWithOID: version 1, the scalar padded to the curve size, the curve
    // (left out inside PKCS#8, where the algorithm identifier names it) and the public point.
    private static byte[] sec1(Key k, boolean withCurve) throws IOException {
        BigInteger d = ((org.bouncycastle.jce.interfaces.ECPrivateKey) k.privateKey()).getD();
        byte[] point = ((ECPublicKey) k.publicKey()).getQ().getEncoded(false);
        return new ECPrivateKey(
                        k.curve().bits(),
                        d,
                        new DERBitString(point),
                        withCurve ? k.curve().oid() : null)
                .getEncoded();
    }

    static byte[] publicKeyDer(Key k) {
        return k.publicKey().getEncoded();
    }

    static String publicKeyPem(Key k) {
        return Pem.encode("PUBLIC KEY", publicKeyDer(k));
    }

    /** The state id of a key: hex SHA-1 of the PKIX public key. */
    static String id(Key k) {
        return HexFormat.of().formatHex(digest("SHA-1", publicKeyDer(k)));
    }

    // ---- OpenSSH forms ------------------------------------------------------------------------

    static boolean sshSupported(Key k) {
        return k.algorithm() != Algorithm.ECDSA || k.curve().sshName() != null;
    }

    static String sshType(Key k) {
        return switch (k.algorithm()) {
            case RSA -> "ssh-rsa";
            case ECDSA -> "ecdsa-sha2-" + k.curve().sshName();
            case ED25519 -> "ssh-ed25519";
        };
    }

    /** The SSH wire encoding of the public key. */
    static byte[] sshPublicBlob(Key k) {
        SshWriter w = new SshWriter();
        w.string(sshType(k));
        switch (k.algorithm()) {
            case RSA -> {
                RSAPublicKey p = (RSAPublicKey) k.publicKey();
                w.mpint(p.getPublicExponent());
                w.mpint(p.getModulus());
            }
            case ECDSA -> {
                w.string(k.curve().sshName());
                w.string(((ECPublicKey) k.publicKey()).getQ().getEncoded(false));
            }
            case ED25519 -> w.string(ed25519Public(k));
        }
        return w.bytes();
    }

    /** {@code public_key_openssh}: an {@code authorized_keys} line with its newline, or empty. */
    static String publicKeyOpenSsh(Key k) {
        if (!sshSupported(k)) {
            return "";
        }
        return sshType(k) + " " + Base64.getEncoder().encodeToString(sshPublicBlob(k)) + "\n";
    }

    static String fingerprintMd5(Key k) {
        if (!sshSupported(k)) {
            return "";
        }
        String hex = HexFormat.of().formatHex(digest("MD5", sshPublicBlob(k)));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 2) {
            if (i > 0) {
                b.append(':');
            }
            b.append(hex, i, i + 2);
        }
        return b.toString();
    }

    static String fingerprintSha256(Key k) {
        if (!sshSupported(k)) {
            return "";
        }
        return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest("SHA-256", sshPublicBlob(k)));
    }

    /** {@code private_key_openssh}: an unencrypted {@code openssh-key-v1} key, or empty. */
    static String privateKeyOpenSsh(Key k, SecureRandom random) {
        if (!sshSupported(k)) {
            return "";
        }
        SshWriter priv = new SshWriter();
        int check = random.nextInt();
        priv.uint32(check);
        priv.uint32(check);
        priv.string(sshType(k));
        switch (k.algorithm()) {
            case RSA -> {
                RSAPrivateCrtKey p = (RSAPrivateCrtKey) k.privateKey();
                priv.mpint(p.getModulus());
                priv.mpint(p.getPublicExponent());
                priv.mpint(p.getPrivateExponent());
                priv.mpint(p.getCrtCoefficient());
                priv.mpint(p.getPrimeP());
                priv.mpint(p.getPrimeQ());
            }
            case ECDSA -> {
                priv.string(k.curve().sshName());
                priv.string(((ECPublicKey) k.publicKey()).getQ().getEncoded(false));
                priv.mpint(((org.bouncycastle.jce.interfaces.ECPrivateKey) k.privateKey()).getD());
            }
            case ED25519 -> {
                byte[] pub = ed25519Public(k);
                byte[] both = Arrays.copyOf(ed25519Seed(k), 64);
                System.arraycopy(pub, 0, both, 32, 32);
                priv.string(pub);
                priv.string(both);
            }
        }
        priv.string("");
        for (int pad = 1; priv.size() % 8 != 0; pad++) {
            priv.raw(new byte[] {(byte) pad});
        }
        SshWriter w = new SshWriter();
        w.raw("openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII));
        w.string("none");
        w.string("none");
        w.string("");
        w.uint32(1);
        w.string(sshPublicBlob(k));
        w.string(priv.bytes());
        return Pem.encode("OPENSSH PRIVATE KEY", w.bytes());
    }

    // ---- parsing ------------------------------------------------------------------------------

    /** A private key from PEM: PKCS#1 RSA, SEC 1 EC or PKCS#8 (RSA, EC, ED25519). */
    static Optional<Key> parsePrivateKeyPem(String pem) {
        List<Pem.Block> blocks = Pem.decodeAll(pem);
        if (blocks.isEmpty()) {
            return Optional.empty();
        }
        Pem.Block b = blocks.get(0);
        try {
            return switch (b.type()) {
                case "RSA PRIVATE KEY" ->
                    Optional.of(rsa(new PrivateKeyInfo(
                                    new AlgorithmIdentifier(PKCSObjectIdentifiers.rsaEncryption, DERNull.INSTANCE),
                                    RSAPrivateKey.getInstance(b.der()))
                            .getEncoded()));
                case "EC PRIVATE KEY" -> ec(ECPrivateKey.getInstance(b.der()), null);
                case "PRIVATE KEY" -> pkcs8(b.der());
                case "OPENSSH PRIVATE KEY" -> parseOpenSsh(b.der());
                default -> Optional.empty();
            };
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Key> pkcs8(byte[] der) throws GeneralSecurityException, IOException {
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(der);
        ASN1ObjectIdentifier alg = info.getPrivateKeyAlgorithm().getAlgorithm();
        if (alg.equals(PKCSObjectIdentifiers.rsaEncryption)) {
            return Optional.of(rsa(der));
        }
        if (alg.equals(X9ObjectIdentifiers.id_ecPublicKey)) {
            return ec(
                    ECPrivateKey.getInstance(info.parsePrivateKey()),
                    ASN1ObjectIdentifier.getInstance(
                            info.getPrivateKeyAlgorithm().getParameters()));
        }
        if (alg.equals(EdECObjectIdentifiers.id_Ed25519)) {
            return Optional.of(fromEd25519Seed(
                    ASN1OctetString.getInstance(info.parsePrivateKey()).getOctets()));
        }
        return Optional.empty();
    }

    private static Key rsa(byte[] pkcs8) throws GeneralSecurityException {
        KeyFactory f = KeyFactory.getInstance("RSA", BC);
        RSAPrivateCrtKey priv = (RSAPrivateCrtKey) f.generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        PublicKey pub = f.generatePublic(new RSAPublicKeySpec(priv.getModulus(), priv.getPublicExponent()));
        return new Key(Algorithm.RSA, priv, pub, null);
    }

    private static Optional<Key> ec(ECPrivateKey sec1, ASN1ObjectIdentifier curveOid)
            throws GeneralSecurityException, IOException {
        ASN1ObjectIdentifier oid =
                curveOid != null ? curveOid : ASN1ObjectIdentifier.getInstance(sec1.getParametersObject());
        Curve curve = CURVES.values().stream()
                .filter(c -> c.oid().equals(oid))
                .findFirst()
                .orElse(null);
        if (curve == null) {
            return Optional.empty();
        }
        return Optional.of(ecFromScalar(curve, sec1.getKey()));
    }

    private static Key ecFromScalar(Curve curve, BigInteger d) throws GeneralSecurityException, IOException {
        ECNamedCurveParameterSpec spec = ECNamedCurveTable.getParameterSpec(curve.stdName());
        KeyFactory f = KeyFactory.getInstance("EC", BC);
        PrivateKey priv = f.generatePrivate(new org.bouncycastle.jce.spec.ECPrivateKeySpec(d, spec));
        ECPoint q = spec.getG().multiply(d).normalize();
        PublicKey pub = f.generatePublic(new ECPublicKeySpec(q, spec));
        return new Key(Algorithm.ECDSA, priv, pub, curve);
    }

    /** An unencrypted {@code openssh-key-v1} private key. */
    static Optional<Key> parseOpenSshText(String text) {
        List<Pem.Block> blocks = Pem.decodeAll(text);
        if (blocks.isEmpty() || !blocks.get(0).type().equals("OPENSSH PRIVATE KEY")) {
            return Optional.empty();
        }
        try {
            return parseOpenSsh(blocks.get(0).der());
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Key> parseOpenSsh(byte[] der) throws GeneralSecurityException, IOException {
        byte[] magic = "openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII);
        if (der.length < magic.length || !Arrays.equals(Arrays.copyOf(der, magic.length), magic)) {
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(der, magic.length, der.length - magic.length);
        if (!text(in).equals("none") || !text(in).equals("none")) {
            return Optional.empty();
        }
        bytes(in);
        if (in.getInt() != 1) {
            return Optional.empty();
        }
        bytes(in);
        ByteBuffer p = ByteBuffer.wrap(bytes(in));
        if (p.getInt() != p.getInt()) {
            return Optional.empty();
        }
        String type = text(p);
        return switch (type) {
            case "ssh-rsa" -> {
                BigInteger n = new BigInteger(bytes(p));
                BigInteger e = new BigInteger(bytes(p));
                BigInteger d = new BigInteger(bytes(p));
                BigInteger iqmp = new BigInteger(bytes(p));
                BigInteger pp = new BigInteger(bytes(p));
                BigInteger q = new BigInteger(bytes(p));
                RSAPrivateKey k = new RSAPrivateKey(
                        n, e, d, pp, q, d.mod(pp.subtract(BigInteger.ONE)), d.mod(q.subtract(BigInteger.ONE)), iqmp);
                yield Optional.of(rsa(new PrivateKeyInfo(
                                new AlgorithmIdentifier(PKCSObjectIdentifiers.rsaEncryption, DERNull.INSTANCE), k)
                        .getEncoded()));
            }
            case "ssh-ed25519" -> {
                bytes(p);
                yield Optional.of(fromEd25519Seed(Arrays.copyOf(bytes(p), 32)));
            }
            default -> {
                if (!type.startsWith("ecdsa-sha2-")) {
                    yield Optional.empty();
                }
                String name = text(p);
                bytes(p);
                BigInteger d = new BigInteger(bytes(p));
                Curve curve = CURVES.values().stream()
                        .filter(c -> name.equals(c.sshName()))
                        .findFirst()
                        .orElse(null);
                yield curve == null ? Optional.empty() : Optional.of(ecFromScalar(curve, d));
            }
        };
    }

    private static byte[] bytes(ByteBuffer in) {
        byte[] b = new byte[in.getInt()];
        in.get(b);
        return b;
    }

    private static String text(ByteBuffer in) {
        return new String(bytes(in), StandardCharsets.UTF_8);
    }

    static byte[] digest(String alg, byte[] data) {
        try {
            return MessageDigest.getInstance(alg).digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Builds SSH wire-format data. */
    private static final class SshWriter {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        void uint32(int v) {
            out.write(v >>> 24);
            out.write(v >>> 16);
            out.write(v >>> 8);
            out.write(v);
        }

        void string(byte[] b) {
            uint32(b.length);
            out.writeBytes(b);
        }

        void string(String s) {
            string(s.getBytes(StandardCharsets.UTF_8));
        }

        void mpint(BigInteger v) {
            string(v.signum() == 0 ? new byte[0] : v.toByteArray());
        }

        void raw(byte[] b) {
            out.writeBytes(b);
        }

        int size() {
            return out.size();
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
