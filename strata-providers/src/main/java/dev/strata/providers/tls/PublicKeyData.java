package dev.strata.providers.tls;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.DataSource;
import java.util.Optional;

/** Data source {@code tls_public_key}: the public half of a PEM or OpenSSH private key. */
final class PublicKeyData implements DataSource {

    private static final Schema SCHEMA;

    static {
        Block.Builder b = Block.builder()
                .attribute(
                        "private_key_pem",
                        Attribute.optional(Type.STRING)
                                .withSensitive()
                                .withDescription(
                                        "The private key (in PEM (RFC 1421) format) to extract the public key from. This is mutually"
                                                + " exclusive with `private_key_openssh`. Currently-supported algorithms for keys are:"
                                                + " `RSA`, `ECDSA`, `ED25519`."))
                .attribute(
                        "private_key_openssh",
                        Attribute.optional(Type.STRING)
                                .withSensitive()
                                .withDescription(
                                        "The private key (in OpenSSH PEM (RFC 4716) format) to extract the public key from. This is"
                                                + " mutually exclusive with `private_key_pem`."))
                .attribute(
                        "algorithm",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "The name of the algorithm used by the given private key. Possible values are: `RSA`, `ECDSA`,"
                                                + " `ED25519`."))
                .attribute(
                        "id",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "Unique identifier for this data source: hexadecimal representation of the SHA1 checksum of the data source."));
        publicAttributes(b);
        SCHEMA = Schema.of(b.build());
    }

    static void publicAttributes(Block.Builder b) {
        b.attribute(
                        "public_key_pem",
                        Attribute.computed(Type.STRING).withDescription("Public key data in PEM (RFC 1421) format."))
                .attribute(
                        "public_key_openssh",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "The public key data in \"Authorized Keys\" format. This is not populated for `ECDSA` with curve `P224`,"
                                                + " as it is not supported."))
                .attribute(
                        "public_key_fingerprint_md5",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "The fingerprint of the public key data in OpenSSH MD5 hash format, e.g. `aa:bb:cc:...`. Only"
                                                + " available if the selected private key format is compatible, similarly to"
                                                + " `public_key_openssh` and the ECDSA P224 limitations."))
                .attribute(
                        "public_key_fingerprint_sha256",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "The fingerprint of the public key data in OpenSSH SHA256 hash format, e.g. `SHA256:...`. Only"
                                                + " available if the selected private key format is compatible, similarly to"
                                                + " `public_key_openssh` and the ECDSA P224 limitations."));
    }

    static Value withPublic(Value object, Keys.Key key) {
        return Attrs.with(
                object,
                "public_key_pem",
                Value.string(Keys.publicKeyPem(key)),
                "public_key_openssh",
                Value.string(Keys.publicKeyOpenSsh(key)),
                "public_key_fingerprint_md5",
                Value.string(Keys.fingerprintMd5(key)),
                "public_key_fingerprint_sha256",
                Value.string(Keys.fingerprintSha256(key)));
    }

    @Override
    public String typeName() {
        return "tls_public_key";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value pem = Attrs.get(config, "private_key_pem");
        Value ssh = Attrs.get(config, "private_key_openssh");
        if (pem.isKnown() && ssh.isKnown() && pem.isNull() == ssh.isNull()) {
            diags.error(
                    "Invalid Attribute Combination",
                    "Exactly one of these attributes must be configured:" + " [private_key_pem,private_key_openssh]",
                    null);
        }
    }

    @Override
    public Value read(Value config, ProviderDiagnostics.Builder diags) {
        String pem = Attrs.string(config, "private_key_pem");
        Optional<Keys.Key> key = pem != null
                ? Keys.parsePrivateKeyPem(pem)
                : Keys.parseOpenSshText(Attrs.string(config, "private_key_openssh"));
        if (key.isEmpty()) {
            diags.error(
                    "Unable to parse private key",
                    "The private key is not a supported RSA, ECDSA or ED25519 key in"
                            + " PEM or unencrypted OpenSSH format.",
                    AttributePath.of(pem != null ? "private_key_pem" : "private_key_openssh"));
            return null;
        }
        Value v = Attrs.with(
                config,
                "id",
                Value.string(Keys.id(key.get())),
                "algorithm",
                Value.string(key.get().algorithm().name()));
        return withPublic(v, key.get());
    }
}
