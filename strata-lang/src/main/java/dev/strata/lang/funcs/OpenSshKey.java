package dev.strata.lang.funcs;

import java.math.BigInteger;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.util.Arrays;

/**
 * The RSA key inside an OpenSSH private key file ("openssh-key-v1", as ssh-keygen writes by
 * default), for rsadecrypt. Only unencrypted files are readable: rsadecrypt has no passphrase.
 */
final class OpenSshKey {
    private OpenSshKey() {}

    private static final byte[] MAGIC = "openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII);

    /** The RSA private key in the decoded body of an OPENSSH PRIVATE KEY block. */
    static PrivateKey rsa(byte[] der) {
        try {
            if (der.length < MAGIC.length || !Arrays.equals(der, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
                throw invalid("invalid openssh private key format");
            }
            ByteBuffer in = ByteBuffer.wrap(der, MAGIC.length, der.length - MAGIC.length);
            String cipher = text(in);
            text(in); // key derivation function
            bytes(in); // its options
            if (!cipher.equals("none")) {
                throw invalid("this private key is passphrase protected");
            }
            if (in.getInt() != 1) {
                throw invalid("multi-key files are not supported");
            }
            bytes(in); // the public key, repeated in the private part
            ByteBuffer priv = ByteBuffer.wrap(bytes(in));
            if (priv.getInt() != priv.getInt()) {
                throw invalid("malformed OpenSSH key");
            }
            String type = text(priv);
            if (!type.equals("ssh-rsa")) {
                throw FunctionError.arg(1, "invalid private key: the key is " + Args.q(type) + ", not an RSA key");
            }
            BigInteger n = mpint(priv);
            BigInteger e = mpint(priv);
            BigInteger d = mpint(priv);
            BigInteger qInv = mpint(priv);
            BigInteger p = mpint(priv);
            BigInteger q = mpint(priv);
            BigInteger one = BigInteger.ONE;
            return KeyFactory.getInstance("RSA")
                    .generatePrivate(new RSAPrivateCrtKeySpec(
                            n, e, d, p, q, d.mod(p.subtract(one)), d.mod(q.subtract(one)), qInv));
        } catch (BufferUnderflowException | IllegalArgumentException | ArithmeticException e) {
            throw invalid("malformed OpenSSH key");
        } catch (GeneralSecurityException e) {
            throw invalid("malformed OpenSSH key");
        }
    }

    private static FunctionError invalid(String reason) {
        return FunctionError.arg(1, "invalid private key: ssh: " + reason);
    }

    private static byte[] bytes(ByteBuffer in) {
        int len = in.getInt();
        if (len < 0 || len > in.remaining()) {
            throw new IllegalArgumentException("length out of range");
        }
        byte[] out = new byte[len];
        in.get(out);
        return out;
    }

    private static String text(ByteBuffer in) {
        return new String(bytes(in), StandardCharsets.UTF_8);
    }

    private static BigInteger mpint(ByteBuffer in) {
        return new BigInteger(bytes(in));
    }
}
