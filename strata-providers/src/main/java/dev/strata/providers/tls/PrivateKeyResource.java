package dev.strata.providers.tls;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Set;

/** {@code tls_private_key}: an RSA, ECDSA or ED25519 key pair in every format the provider documents. */
final class PrivateKeyResource implements ManagedResource {

    private static final Schema SCHEMA;

    static {
        Block.Builder b = Block.builder()
                .attribute(
                        "algorithm",
                        Attribute.required(Type.STRING)
                                .withDescription(
                                        "Name of the algorithm to use when generating the private key. Currently-supported values are:"
                                                + " `RSA`, `ECDSA`, `ED25519`."))
                .attribute(
                        "rsa_bits",
                        Attribute.optionalComputed(Type.NUMBER)
                                .withDescription(
                                        "When `algorithm` is `RSA`, the size of the generated RSA key, in bits (default: `2048`)."))
                .attribute(
                        "ecdsa_curve",
                        Attribute.optionalComputed(Type.STRING)
                                .withDescription(
                                        "When `algorithm` is `ECDSA`, the name of the elliptic curve to use. Currently-supported values"
                                                + " are: `P224`, `P256`, `P384`, `P521`. (default: `P224`)."))
                .attribute(
                        "private_key_pem",
                        Attribute.computed(Type.STRING)
                                .withSensitive()
                                .withDescription("Private key data in PEM (RFC 1421) format."))
                .attribute(
                        "private_key_openssh",
                        Attribute.computed(Type.STRING)
                                .withSensitive()
                                .withDescription("Private key data in OpenSSH PEM (RFC 4716) format."))
                .attribute(
                        "private_key_pem_pkcs8",
                        Attribute.computed(Type.STRING)
                                .withSensitive()
                                .withDescription("Private key data in PKCS#8 PEM (RFC 5208) format."))
                .attribute(
                        "id",
                        Attribute.computed(Type.STRING)
                                .withDescription(
                                        "Unique identifier for this resource: hexadecimal representation of the SHA1 checksum of the resource."));
        PublicKeyData.publicAttributes(b);
        SCHEMA = new Schema(1, b.build());
    }

    private final SecureRandom random;

    PrivateKeyResource(SecureRandom random) {
        this.random = random;
    }

    @Override
    public String typeName() {
        return "tls_private_key";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of("algorithm", "rsa_bits", "ecdsa_curve");
    }

    @Override
    public Map<String, Value> defaults() {
        return Map.of("rsa_bits", Value.number(2048), "ecdsa_curve", Value.string("P224"));
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value alg = Attrs.get(config, "algorithm").unmarkDeep();
        if (alg.isKnownAndNotNull() && !Set.of("RSA", "ECDSA", "ED25519").contains(alg.asString())) {
            diags.error(
                    "Invalid Attribute Value Match",
                    "Attribute algorithm value must be one of: [\"RSA\" \"ECDSA\"" + " \"ED25519\"], got: \""
                            + alg.asString() + "\"",
                    AttributePath.of("algorithm"));
        }
        Value curve = Attrs.get(config, "ecdsa_curve").unmarkDeep();
        if (curve.isKnownAndNotNull() && !Keys.CURVES.containsKey(curve.asString())) {
            diags.error(
                    "Invalid Attribute Value Match",
                    "Attribute ecdsa_curve value must be one of: [\"P224\" \"P256\"" + " \"P384\" \"P521\"], got: \""
                            + curve.asString() + "\"",
                    AttributePath.of("ecdsa_curve"));
        }
        Value bits = Attrs.get(config, "rsa_bits").unmarkDeep();
        if (bits.isKnownAndNotNull() && bits.asNumber().intValue() < 1024) {
            diags.error("Invalid Attribute Value", "rsa_bits must be at least 1024.", AttributePath.of("rsa_bits"));
        }
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        Keys.Key key;
        try {
            key = Keys.generate(
                    Keys.Algorithm.valueOf(Attrs.string(planned, "algorithm")),
                    Attrs.number(planned, "rsa_bits").intValueExact(),
                    Attrs.string(planned, "ecdsa_curve"),
                    random);
        } catch (GeneralSecurityException e) {
            diags.error(
                    "Unable to generate Key",
                    "The key could not be generated (" + e.getClass().getSimpleName() + ").",
                    null);
            return null;
        }
        Value v = Attrs.with(
                planned,
                "private_key_pem",
                Value.string(Keys.privateKeyPem(key)),
                "private_key_openssh",
                Value.string(Keys.privateKeyOpenSsh(key, random)),
                "private_key_pem_pkcs8",
                Value.string(Keys.privateKeyPkcs8Pem(key)),
                "id",
                Value.string(Keys.id(key)));
        return PublicKeyData.withPublic(v, key);
    }
}
