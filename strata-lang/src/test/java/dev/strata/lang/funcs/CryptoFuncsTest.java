package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import at.favre.lib.crypto.bcrypt.BCrypt;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import javax.crypto.Cipher;
import org.junit.jupiter.api.Test;

class CryptoFuncsTest {
    static final FunctionTable T = ConsoleCasesTest.table();

    static CallResult call(String name, Value... args) {
        return T.lookup(name).orElseThrow().call(args);
    }

    @Test
    void bcryptHashesVerify() {
        String h =
                call("bcrypt", Value.string("hello"), Value.number(5)).value().asString();
        assertThat(h).startsWith("$2a$05$");
        assertThat(BCrypt.verifyer().verify("hello".toCharArray(), h).verified).isTrue();
        assertThat(call("bcrypt", Value.string("hello")).value().asString()).startsWith("$2a$10$");
        assertThat(call("bcrypt", Value.string("x"), Value.number(32)).isSuccess())
                .isFalse();
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    @Test
    void rsadecryptWithPkcs8AndPkcs1Keys() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(1024);
        KeyPair kp = g.generateKeyPair();
        Cipher c = Cipher.getInstance("RSA/ECB/PKCS1Padding");
        c.init(Cipher.ENCRYPT_MODE, kp.getPublic());
        String ct = Base64.getEncoder().encodeToString(c.doFinal("secret text".getBytes(StandardCharsets.UTF_8)));
        byte[] pkcs8 = kp.getPrivate().getEncoded();
        assertThat(call("rsadecrypt", Value.string(ct), Value.string(pem("PRIVATE KEY", pkcs8)))
                        .value())
                .isEqualTo(Value.string("secret text"));
        // PKCS#8 wraps the PKCS#1 structure in an OCTET STRING at the end of its sequence.
        byte[] pkcs1 = pkcs1From(pkcs8);
        assertThat(call("rsadecrypt", Value.string(ct), Value.string(pem("RSA PRIVATE KEY", pkcs1)))
                        .value())
                .isEqualTo(Value.string("secret text"));
        CallResult.Failure bad =
                (CallResult.Failure) call("rsadecrypt", Value.string("x"), Value.string(pem("PRIVATE KEY", pkcs8)));
        assertThat(bad.argIndex()).isZero();
        assertThat(bad.message()).isEqualTo("failed to decode input \"x\": cipher text must be base64-encoded");
        CallResult.Failure badKey = (CallResult.Failure) call("rsadecrypt", Value.string(ct), Value.string("nope"));
        assertThat(badKey.argIndex()).isEqualTo(1);
    }

    /** The key was made with ssh-keygen (OpenSSH format) only for this test; the text encrypted to it is "hello". */
    @Test
    void rsadecryptWithOpenSshKey() throws Exception {
        String key = resource("openssh-rsa-test-key");
        String ct = resource("openssh-rsa-test-key.ciphertext").strip();
        assertThat(key).startsWith("-----BEGIN OPENSSH PRIVATE KEY-----");
        assertThat(call("rsadecrypt", Value.string(ct), Value.string(key)).value())
                .isEqualTo(Value.string("hello"));
    }

    @Test
    void rsadecryptErrorsAsTerraform() {
        CallResult.Failure unpadded =
                (CallResult.Failure) call("rsadecrypt", Value.string("abc"), Value.string("nokey"));
        assertThat(unpadded.argIndex()).isZero();
        assertThat(unpadded.message()).isEqualTo("failed to decode input \"abc\": cipher text must be base64-encoded");
        CallResult.Failure noKey = (CallResult.Failure) call("rsadecrypt", Value.string("abc="), Value.string("x"));
        assertThat(noKey.message()).isEqualTo("invalid private key: ssh: no key found");
        CallResult.Failure foo = (CallResult.Failure) call(
                "rsadecrypt", Value.string("abc="), Value.string("-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n"));
        assertThat(foo.message()).isEqualTo("invalid private key: ssh: unsupported key type \"FOO\"");
    }

    private static String resource(String name) throws java.io.IOException {
        try (var in = CryptoFuncsTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] pkcs1From(byte[] pkcs8) {
        // Find the OCTET STRING (0x04) holding a SEQUENCE (0x30) after the algorithm identifier.
        for (int i = 0; i < pkcs8.length - 4; i++) {
            if (pkcs8[i] == 0x04 && (pkcs8[i + 1] & 0xff) == 0x82 && pkcs8[i + 4] == 0x30) {
                int len = ((pkcs8[i + 2] & 0xff) << 8) | (pkcs8[i + 3] & 0xff);
                return java.util.Arrays.copyOfRange(pkcs8, i + 4, i + 4 + len);
            }
        }
        throw new AssertionError("no PKCS#1 body found");
    }

    @Test
    void uuidv5Namespaces() {
        assertThat(call("uuidv5", Value.string("dns"), Value.string("www.terraform.io"))
                        .value())
                .isEqualTo(Value.string("a5008fae-b28c-5ba5-96cd-82b4c53552d6"));
    }
}
