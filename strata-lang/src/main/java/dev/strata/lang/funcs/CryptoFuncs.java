package dev.strata.lang.funcs;

import static dev.strata.lang.funcs.Args.str;

import at.favre.lib.crypto.bcrypt.BCrypt;
import at.favre.lib.crypto.bcrypt.LongPasswordStrategies;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;

/** Hashes (md5, sha*, base64sha*, their file* forms), bcrypt, uuid, uuidv5, rsadecrypt. */
final class CryptoFuncs {
    private CryptoFuncs() {}

    /** Made on first use (bcrypt): setting up the security providers would cost every function table. */
    private static final class Salt {
        static final SecureRandom RANDOM = new SecureRandom();
    }

    static void register(Functions.Registry r, FunctionContext ctx) {
        hash(r, "md5", "MD5", CryptoFuncs::hex, ctx);
        hash(r, "sha1", "SHA-1", CryptoFuncs::hex, ctx);
        hash(r, "sha256", "SHA-256", CryptoFuncs::hex, ctx);
        hash(r, "sha512", "SHA-512", CryptoFuncs::hex, ctx);
        hash(r, "base64sha256", "SHA-256", CryptoFuncs::b64, ctx);
        hash(r, "base64sha512", "SHA-512", CryptoFuncs::b64, ctx);
        r.add(dev.strata.lang.funcs.Function.builder("bcrypt")
                .param("str", Type.STRING)
                .varParam(Dsl.p("cost", Type.NUMBER))
                .returns(Type.STRING)
                .impl(CryptoFuncs::bcrypt)
                .build());
        r.add(dev.strata.lang.funcs.Function.builder("uuid")
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(ctx.uuids().get().toString()))
                .build());
        r.add(dev.strata.lang.funcs.Function.builder("uuidv5")
                .param("namespace", Type.STRING)
                .param("name", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(uuidv5(str(a, 0), str(a, 1)).toString()))
                .build());
        r.add(dev.strata.lang.funcs.Function.builder("rsadecrypt")
                .param("ciphertext", Type.STRING)
                .param("privatekey", Type.STRING)
                .returns(Type.STRING)
                .impl(CryptoFuncs::rsadecrypt)
                .build());
    }

    private static void hash(
            Functions.Registry r, String name, String alg, Function<byte[], String> enc, FunctionContext ctx) {
        r.add(dev.strata.lang.funcs.Function.builder(name)
                .param("str", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(enc.apply(digest(alg, str(a, 0).getBytes(StandardCharsets.UTF_8)))))
                .build());
        r.add(dev.strata.lang.funcs.Function.builder("file" + name)
                .param("path", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(enc.apply(digest(alg, FilesystemFuncs.readForHash(ctx, a, 0)))))
                .build());
    }

    static byte[] digest(String alg, byte[] data) {
        try {
            return MessageDigest.getInstance(alg).digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks " + alg, e);
        }
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static Value bcrypt(List<Value> a, Type t) {
        if (a.size() > 2) {
            throw FunctionError.call("bcrypt() takes no more than two arguments");
        }
        int cost = 10;
        if (a.size() == 2) {
            cost = Args.integer(a, 1, true, "cost");
        }
        if (cost > 31) {
            throw FunctionError.callRevealing("error occurred generating password crypto/bcrypt: cost " + cost
                    + " is outside allowed range (4,31)");
        }
        if (cost < 4) {
            // Go's bcrypt quietly uses its default cost below the minimum; Terraform inherits that.
            cost = 10;
        }
        byte[] pw = str(a, 0).getBytes(StandardCharsets.UTF_8);
        if (pw.length > 72) {
            throw FunctionError.call("error occurred generating password bcrypt: password length exceeds 72 bytes");
        }
        byte[] h = BCrypt.with(BCrypt.Version.VERSION_2A, Salt.RANDOM, LongPasswordStrategies.none())
                .hash(cost, pw);
        return Value.string(new String(h, StandardCharsets.UTF_8));
    }

    static UUID uuidv5(String ns, String name) {
        UUID namespace = switch (ns) {
            case "dns" -> UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
            case "url" -> UUID.fromString("6ba7b811-9dad-11d1-80b4-00c04fd430c8");
            case "oid" -> UUID.fromString("6ba7b812-9dad-11d1-80b4-00c04fd430c8");
            case "x500" -> UUID.fromString("6ba7b814-9dad-11d1-80b4-00c04fd430c8");
            default -> parseUuid(ns);
        };
        ByteBuffer in = ByteBuffer.allocate(16 + name.getBytes(StandardCharsets.UTF_8).length);
        in.putLong(namespace.getMostSignificantBits()).putLong(namespace.getLeastSignificantBits());
        in.put(name.getBytes(StandardCharsets.UTF_8));
        byte[] h = digest("SHA-1", in.array());
        h[6] = (byte) ((h[6] & 0x0f) | 0x50);
        h[8] = (byte) ((h[8] & 0x3f) | 0x80);
        ByteBuffer out = ByteBuffer.wrap(h, 0, 16);
        return new UUID(out.getLong(), out.getLong());
    }

    private static UUID parseUuid(String s) {
        String hex = s.replace("-", "");
        if (s.startsWith("urn:uuid:")) {
            hex = s.substring(9).replace("-", "");
        } else if (s.startsWith("{") && s.endsWith("}")) {
            hex = s.substring(1, s.length() - 1).replace("-", "");
        }
        if (hex.length() != 32 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            String why = hex.length() != 32 ? "invalid UUID length: " + s.length() : "invalid UUID format";
            throw FunctionError.callRevealing("uuidv5() doesn't support namespace " + s + " (" + why + ")");
        }
        return new UUID(
                Long.parseUnsignedLong(hex.substring(0, 16), 16), Long.parseUnsignedLong(hex.substring(16), 16));
    }

    private static Value rsadecrypt(List<Value> a, Type t) {
        byte[] cipher;
        try {
            String text = str(a, 0).replaceAll("[\r\n]", "");
            // Padding is required, as with Terraform's decoder (the JDK's would accept "abc").
            if (text.length() % 4 != 0) {
                throw new IllegalArgumentException("unpadded");
            }
            cipher = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw FunctionError.argRevealing(
                    0, "failed to decode input " + Args.q(str(a, 0)) + ": cipher text must be base64-encoded");
        }
        PrivateKey key = parsePrivateKey(str(a, 1));
        try {
            Cipher c = Cipher.getInstance("RSA/ECB/PKCS1Padding");
            c.init(Cipher.DECRYPT_MODE, key);
            byte[] plain = c.doFinal(cipher);
            return Value.string(EncodingFuncs.utf8(plain, -1, "the decrypted value is not valid UTF-8"));
        } catch (GeneralSecurityException e) {
            throw FunctionError.call("failed to decrypt: crypto/rsa: decryption error");
        }
    }

    private static final Pattern PEM_BEGIN = Pattern.compile("-----BEGIN ([^-\\r\\n]*)-----");

    /**
     * Reads a PEM private key: PKCS#1 "RSA PRIVATE KEY", PKCS#8 "PRIVATE KEY" or an unencrypted
     * OpenSSH "OPENSSH PRIVATE KEY" holding an RSA key.
     */
    static PrivateKey parsePrivateKey(String pem) {
        String s = pem.trim();
        Matcher begin = PEM_BEGIN.matcher(s);
        if (!begin.find()) {
            throw FunctionError.arg(1, "invalid private key: ssh: no key found");
        }
        String kind = begin.group(1);
        boolean pkcs1 = kind.equals("RSA PRIVATE KEY");
        boolean pkcs8 = kind.equals("PRIVATE KEY");
        boolean openssh = kind.equals("OPENSSH PRIVATE KEY");
        if (!pkcs1 && !pkcs8 && !openssh) {
            throw FunctionError.arg(1, "invalid private key: ssh: unsupported key type " + Args.q(kind));
        }
        String body = s.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        byte[] der;
        try {
            der = Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw FunctionError.arg(1, "invalid private key: failed to parse key: malformed PEM data");
        }
        if (openssh) {
            return OpenSshKey.rsa(der);
        }
        try {
            KeyFactory kf = KeyFactory.getInstance("RSA");
            if (pkcs8) {
                return kf.generatePrivate(new PKCS8EncodedKeySpec(der));
            }
            List<BigInteger> ints = Der.sequenceOfIntegers(der);
            if (ints.size() < 9) {
                throw FunctionError.arg(1, "invalid private key: failed to parse key: not an RSA private key");
            }
            return kf.generatePrivate(new RSAPrivateCrtKeySpec(
                    ints.get(1),
                    ints.get(2),
                    ints.get(3),
                    ints.get(4),
                    ints.get(5),
                    ints.get(6),
                    ints.get(7),
                    ints.get(8)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw FunctionError.arg(1, "invalid private key: failed to parse key: asn1: structure error");
        }
    }

    /** Just enough DER to read PKCS#1 RSAPrivateKey: a SEQUENCE of INTEGERs. */
    static final class Der {
        private Der() {}

        static List<BigInteger> sequenceOfIntegers(byte[] der) {
            int[] pos = {0};
            if ((der[pos[0]++] & 0xff) != 0x30) {
                throw new IllegalArgumentException("not a sequence");
            }
            int end = length(der, pos) + pos[0];
            List<BigInteger> out = new java.util.ArrayList<>();
            while (pos[0] < end) {
                if ((der[pos[0]++] & 0xff) != 0x02) {
                    throw new IllegalArgumentException("not an integer");
                }
                int len = length(der, pos);
                byte[] v = java.util.Arrays.copyOfRange(der, pos[0], pos[0] + len);
                out.add(new BigInteger(v));
                pos[0] += len;
            }
            return out;
        }

        private static int length(byte[] der, int[] pos) {
            int b = der[pos[0]++] & 0xff;
            if (b < 0x80) {
                return b;
            }
            int n = b & 0x7f;
            int len = 0;
            for (int i = 0; i < n; i++) {
                len = (len << 8) | (der[pos[0]++] & 0xff);
            }
            return len;
        }
    }
}
