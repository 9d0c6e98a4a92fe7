package dev.strata.providers.random;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;

/**
 * {@code random_id}: {@code byte_length} random bytes, shown as URL-safe base64 without padding
 * ({@code id}, {@code b64_url}), standard base64 ({@code b64_std}), hex and a decimal integer;
 * {@code prefix} is prepended to all but {@code id}.
 */
final class RandomId implements ManagedResource {

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(Common.KEEPERS, Common.keepers())
            .attribute(
                    "byte_length",
                    Attribute.required(Type.NUMBER)
                            .withDescription(
                                    "The number of random bytes to produce. The minimum value is 1, which produces eight bits of randomness."))
            .attribute(
                    "prefix",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "Arbitrary string to prefix the output value with. This string is supplied as-is, meaning it is not"
                                            + " guaranteed to be URL-safe or base64 encoded."))
            .attribute(
                    "b64_url",
                    Attribute.computed(Type.STRING)
                            .withDescription(
                                    "The generated id presented in base64, using the URL-friendly character set: case-sensitive letters,"
                                            + " digits and the characters `_` and `-`."))
            .attribute(
                    "b64_std",
                    Attribute.computed(Type.STRING)
                            .withDescription(
                                    "The generated id presented in base64 without additional transformations."))
            .attribute(
                    "hex",
                    Attribute.computed(Type.STRING)
                            .withDescription(
                                    "The generated id presented in padded hexadecimal digits. This result will always be twice as long"
                                            + " as the requested byte length."))
            .attribute(
                    "dec",
                    Attribute.computed(Type.STRING)
                            .withDescription("The generated id presented in non-padded decimal digits."))
            .attribute(
                    "id",
                    Attribute.computed(Type.STRING)
                            .withDescription(
                                    "The generated id presented in base64 without additional transformations or prefix."))
            .build());

    private final SecureRandom random;

    RandomId(SecureRandom random) {
        this.random = random;
    }

    @Override
    public String typeName() {
        return "random_id";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of(Common.KEEPERS, "byte_length", "prefix");
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value len = Attrs.get(config, "byte_length");
        if (len.isKnownAndNotNull() && len.unmarkDeep().asNumber().compareTo(java.math.BigDecimal.ONE) < 0) {
            diags.error(
                    "Invalid Attribute Value",
                    "Attribute byte_length value must be at least 1, got: "
                            + len.unmarkDeep().numberText(),
                    AttributePath.of("byte_length"));
        }
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        byte[] bytes = new byte[Attrs.number(planned, "byte_length").intValueExact()];
        random.nextBytes(bytes);
        return withBytes(planned, bytes, Attrs.string(planned, "prefix"));
    }

    private static Value withBytes(Value object, byte[] bytes, String prefix) {
        String p = prefix == null ? "" : prefix;
        String url = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        return Attrs.with(
                object,
                "id",
                Value.string(url),
                "b64_url",
                Value.string(p + url),
                "b64_std",
                Value.string(p + Base64.getEncoder().encodeToString(bytes)),
                "hex",
                Value.string(p + HexFormat.of().formatHex(bytes)),
                "dec",
                Value.string(p + new BigInteger(1, bytes)));
    }

    /** The id is the URL-safe base64 form, optionally preceded by {@code prefix,}. */
    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        int comma = id.lastIndexOf(',');
        String prefix = comma < 0 ? null : id.substring(0, comma);
        String b64 = comma < 0 ? id : id.substring(comma + 1);
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(b64);
        } catch (IllegalArgumentException e) {
            diags.error(
                    "Import Random ID Error",
                    "While attempting to import a random id there was a decoding error. The id must be URL-safe"
                            + " base64 without padding, optionally preceded by a prefix and a comma.",
                    null);
            return null;
        }
        Value base = Attrs.with(
                SCHEMA.block().emptyValue(),
                "byte_length",
                Value.number(bytes.length),
                "prefix",
                prefix == null || prefix.isEmpty() ? Value.nullValue(Type.STRING) : Value.string(prefix));
        return withBytes(base, bytes, prefix);
    }
}
