package dev.strata.providers.local;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/** The checksum attributes every local file resource and data source has. */
final class Checksums {

    private Checksums() {}

    static void checksumAttributes(Block.Builder b) {
        b.attribute(
                        "id",
                        Attribute.computed(Type.STRING)
                                .withDescription("The hexadecimal encoding of the SHA1 checksum of the file content."))
                .attribute(
                        "content_md5", Attribute.computed(Type.STRING).withDescription("MD5 checksum of file content."))
                .attribute(
                        "content_sha1",
                        Attribute.computed(Type.STRING).withDescription("SHA1 checksum of file content."))
                .attribute(
                        "content_sha256",
                        Attribute.computed(Type.STRING).withDescription("SHA256 checksum of file content."))
                .attribute(
                        "content_base64sha256",
                        Attribute.computed(Type.STRING)
                                .withDescription("Base64 encoded SHA256 checksum of file content."))
                .attribute(
                        "content_sha512",
                        Attribute.computed(Type.STRING).withDescription("SHA512 checksum of file content."))
                .attribute(
                        "content_base64sha512",
                        Attribute.computed(Type.STRING)
                                .withDescription("Base64 encoded SHA512 checksum of file content."));
    }

    /** Alternating names and values of the checksum attributes for {@code content}. */
    static Object[] checksums(byte[] content) {
        byte[] sha256 = digest("SHA-256", content);
        byte[] sha512 = digest("SHA-512", content);
        return new Object[] {
            "id", Value.string(sha1Hex(content)),
            "content_md5", Value.string(HexFormat.of().formatHex(digest("MD5", content))),
            "content_sha1", Value.string(sha1Hex(content)),
            "content_sha256", Value.string(HexFormat.of().formatHex(sha256)),
            "content_base64sha256", Value.string(Base64.getEncoder().encodeToString(sha256)),
            "content_sha512", Value.string(HexFormat.of().formatHex(sha512)),
            "content_base64sha512", Value.string(Base64.getEncoder().encodeToString(sha512)),
        };
    }

    static String sha1Hex(byte[] content) {
        return HexFormat.of().formatHex(digest("SHA-1", content));
    }

    private static byte[] digest(String algorithm, byte[] content) {
        try {
            return MessageDigest.getInstance(algorithm).digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks " + algorithm, e);
        }
    }
}
