package dev.strata.providers.random;

import at.favre.lib.crypto.bcrypt.BCrypt;
import at.favre.lib.crypto.bcrypt.LongPasswordStrategies;
import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.ValueJson;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code random_password} and {@code random_string}, which share schema and algorithm: first
 * the minimum number of characters of each class, then the rest from every enabled class, then a
 * shuffle. The password's {@code result} is sensitive and it also has a {@code bcrypt_hash};
 * its id is {@code "none"}, where the string's id is the result itself.
 */
final class RandomStringResource implements ManagedResource {

    static final String NUMERIC_CHARS = "0123456789";
    static final String LOWER_CHARS = "abcdefghijklmnopqrstuvwxyz";
    static final String UPPER_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    static final String SPECIAL_CHARS = "!@#$%&*()-_=+[]{}<>:?";

    // numeric (and its old name number) is defaulted in modifyPlan, where the two are kept in step.
    private static final List<String> CLASSES = List.of("special", "upper", "lower");
    private static final List<String> MINIMUMS = List.of("min_numeric", "min_upper", "min_lower", "min_special");

    private final SecureRandom random;
    private final boolean password;
    private final Schema schema;

    RandomStringResource(SecureRandom random, boolean password) {
        this.random = random;
        this.password = password;
        this.schema = schema(password);
    }

    private static Schema schema(boolean password) {
        Block.Builder b = Block.builder()
                .attribute(Common.KEEPERS, Common.keepers())
                .attribute(
                        "length",
                        Attribute.required(Type.NUMBER)
                                .withDescription(
                                        "The length of the string desired. The minimum value for length is 1 and, length must also be"
                                                + " >= (`min_upper` + `min_lower` + `min_numeric` + `min_special`)."))
                .attribute(
                        "special",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDescription(
                                        "Include special characters in the result. These are `!@#$%&*()-_=+[]{}<>:?`. Default value is `true`."))
                .attribute(
                        "upper",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDescription(
                                        "Include uppercase alphabet characters in the result. Default value is `true`."))
                .attribute(
                        "lower",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDescription(
                                        "Include lowercase alphabet characters in the result. Default value is `true`."))
                .attribute(
                        "number",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDeprecated()
                                .withDescription(
                                        "Include numeric characters in the result. Default value is `true`. **NOTE**: This is deprecated,"
                                                + " use `numeric` instead."))
                .attribute(
                        "numeric",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDescription("Include numeric characters in the result. Default value is `true`."))
                .attribute(
                        "min_numeric",
                        Attribute.optionalComputed(Type.NUMBER)
                                .withDescription(
                                        "Minimum number of numeric characters in the result. Default value is `0`."))
                .attribute(
                        "min_upper",
                        Attribute.optionalComputed(Type.NUMBER)
                                .withDescription(
                                        "Minimum number of uppercase alphabet characters in the result. Default value is `0`."))
                .attribute(
                        "min_lower",
                        Attribute.optionalComputed(Type.NUMBER)
                                .withDescription(
                                        "Minimum number of lowercase alphabet characters in the result. Default value is `0`."))
                .attribute(
                        "min_special",
                        Attribute.optionalComputed(Type.NUMBER)
                                .withDescription(
                                        "Minimum number of special characters in the result. Default value is `0`."))
                .attribute(
                        "override_special",
                        Attribute.optional(Type.STRING)
                                .withDescription(
                                        "Supply your own list of special characters to use for string generation. This overrides the"
                                                + " default character list in the special argument."));
        if (password) {
            b.attribute(
                            "result",
                            Attribute.computed(Type.STRING)
                                    .withSensitive()
                                    .withDescription("The generated random string."))
                    .attribute(
                            "bcrypt_hash",
                            Attribute.computed(Type.STRING)
                                    .withSensitive()
                                    .withDescription(
                                            "A bcrypt hash of the generated random string. **NOTE**: If the generated random string is greater"
                                                    + " than 72 bytes in length, `bcrypt_hash` will contain a hash of the first 72 bytes."))
                    .attribute(
                            "id",
                            Attribute.computed(Type.STRING)
                                    .withDescription("A static value used internally by"
                                            + " Terraform, this should not be referenced in configurations."));
            return new Schema(3, b.build());
        }
        b.attribute("result", Attribute.computed(Type.STRING).withDescription("The generated random string."))
                .attribute("id", Attribute.computed(Type.STRING).withDescription("The generated random string."));
        return new Schema(2, b.build());
    }

    @Override
    public String typeName() {
        return password ? "random_password" : "random_string";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of(
                Common.KEEPERS,
                "length",
                "special",
                "upper",
                "lower",
                "min_numeric",
                "min_upper",
                "min_lower",
                "min_special",
                "override_special");
    }

    @Override
    public Map<String, Value> defaults() {
        Map<String, Value> d = new LinkedHashMap<>();
        for (String c : CLASSES) {
            d.put(c, Value.TRUE);
        }
        for (String m : MINIMUMS) {
            d.put(m, Value.number(0));
        }
        return d;
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value length = Attrs.get(config, "length").unmarkDeep();
        if (!length.isKnownAndNotNull()) {
            return;
        }
        BigDecimal len = length.asNumber();
        if (len.compareTo(BigDecimal.ONE) < 0) {
            diags.error(
                    "Invalid Attribute Value",
                    "Attribute length value must be at least 1, got: " + length.numberText(),
                    AttributePath.of("length"));
            return;
        }
        BigDecimal sum = BigDecimal.ZERO;
        for (String m : MINIMUMS) {
            Value v = Attrs.get(config, m).unmarkDeep();
            if (!v.isKnown()) {
                return;
            }
            if (!v.isNull()) {
                sum = sum.add(v.asNumber());
            }
        }
        if (len.compareTo(sum) < 0) {
            diags.error(
                    "Invalid Attribute Value",
                    "Attribute length value must be at least sum of min_upper + min_lower"
                            + " + min_numeric + min_special, got: " + length.numberText(),
                    AttributePath.of("length"));
        }
        Value number = Attrs.get(config, "number").unmarkDeep();
        Value numeric = Attrs.get(config, "numeric").unmarkDeep();
        if (number.isKnownAndNotNull() && numeric.isKnownAndNotNull() && number.asBool() != numeric.asBool()) {
            diags.error(
                    "Number and numeric are both configured with different values",
                    "Number is deprecated, use numeric instead",
                    AttributePath.of("number"));
        }
    }

    /** {@code number} and {@code numeric} are one setting under two names: either one sets both. */
    @Override
    public Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
        Value number = Attrs.get(plan.config(), "number");
        Value numeric = Attrs.get(plan.config(), "numeric");
        Value planned = plan.planned();
        if (!numeric.isNull()) {
            planned = Attrs.with(planned, "number", numeric);
        } else if (!number.isNull()) {
            planned = Attrs.with(planned, "numeric", number);
        } else {
            planned = Attrs.with(planned, "number", Value.TRUE, "numeric", Value.TRUE);
        }
        if (!plan.isCreate()) {
            for (String name : List.of("number", "numeric")) {
                AttributePath path = AttributePath.of(name);
                if (!Attrs.get(plan.prior(), name).equalsIgnoringMarks(Attrs.get(planned, name))
                        && !plan.requiresReplace().contains(path)) {
                    plan.requiresReplace().add(path);
                }
            }
        }
        if (!plan.isCreate() && plan.requiresReplace().isEmpty()) {
            // The generated values belong to the object; only a replacement makes new ones.
            for (String computed : password ? List.of("result", "bcrypt_hash", "id") : List.of("result", "id")) {
                planned = Attrs.with(planned, computed, Attrs.get(plan.prior(), computed));
            }
        }
        return planned;
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String special = Attrs.string(planned, "override_special");
        String result = generate(
                random,
                Attrs.number(planned, "length").intValueExact(),
                Attrs.bool(planned, "upper"),
                Attrs.bool(planned, "lower"),
                Attrs.bool(planned, "numeric"),
                Attrs.bool(planned, "special"),
                special == null || special.isEmpty() ? SPECIAL_CHARS : special,
                Attrs.number(planned, "min_upper").intValueExact(),
                Attrs.number(planned, "min_lower").intValueExact(),
                Attrs.number(planned, "min_numeric").intValueExact(),
                Attrs.number(planned, "min_special").intValueExact());
        if (result == null) {
            diags.error("Random Read Error", "The character set specified is empty.", null);
            return null;
        }
        return withResult(planned, result);
    }

    private Value withResult(Value object, String result) {
        if (password) {
            return Attrs.with(
                    object,
                    "result",
                    Value.string(result),
                    "bcrypt_hash",
                    Value.string(bcrypt(result)),
                    "id",
                    Value.string("none"));
        }
        return Attrs.with(object, "result", Value.string(result), "id", Value.string(result));
    }

    /** Bcrypt at Go's default cost (10) in the {@code $2a$} form, hashing at most the first 72 bytes. */
    static String bcrypt(String secret) {
        return BCrypt.with(BCrypt.Version.VERSION_2A, LongPasswordStrategies.truncate(BCrypt.Version.VERSION_2A))
                .hashToString(10, secret.toCharArray());
    }

    static String generate(
            java.util.Random rng,
            int length,
            boolean upper,
            boolean lower,
            boolean numeric,
            boolean special,
            String specialChars,
            int minUpper,
            int minLower,
            int minNumeric,
            int minSpecial) {
        StringBuilder chars = new StringBuilder();
        if (upper) {
            chars.append(UPPER_CHARS);
        }
        if (lower) {
            chars.append(LOWER_CHARS);
        }
        if (numeric) {
            chars.append(NUMERIC_CHARS);
        }
        if (special) {
            chars.append(specialChars);
        }
        if (chars.isEmpty()) {
            return null;
        }
        List<Integer> out = new ArrayList<>(length);
        // As HashiCorp's provider does, the minimums draw from their class even when it is disabled.
        pick(rng, NUMERIC_CHARS, minNumeric, out);
        pick(rng, LOWER_CHARS, minLower, out);
        pick(rng, UPPER_CHARS, minUpper, out);
        pick(rng, specialChars, minSpecial, out);
        pick(rng, chars.toString(), length - out.size(), out);
        java.util.Collections.shuffle(out, rng);
        StringBuilder b = new StringBuilder();
        out.forEach(b::appendCodePoint);
        return b.toString();
    }

    private static void pick(java.util.Random rng, String from, int count, List<Integer> out) {
        int[] cps = from.codePoints().toArray();
        for (int i = 0; i < count; i++) {
            out.add(cps[rng.nextInt(cps.length)]);
        }
    }

    /** The id is the value itself; every option is set to its default, as HashiCorp's import does. */
    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        Value v = withDefaults(schema.block());
        v = Attrs.with(v, "length", Value.number(id.codePointCount(0, id.length())));
        return withResult(v, id);
    }

    private Value withDefaults(Block block) {
        Value v = block.emptyValue();
        for (Map.Entry<String, Value> d : defaults().entrySet()) {
            v = Attrs.with(v, d.getKey(), d.getValue());
        }
        return Attrs.with(v, "number", Value.TRUE, "numeric", Value.TRUE);
    }

    /**
     * Older layouts lack attributes added later ({@code numeric}, the minimums, {@code bcrypt_hash});
     * they get the values the object was made with: the defaults, and a hash of the stored result.
     */
    @Override
    public Value upgrade(long version, JsonNode rawState, ProviderDiagnostics.Builder diags) {
        Value v = ValueJson.fromNode(rawState, schema.block().impliedType());
        for (Map.Entry<String, Value> d : defaults().entrySet()) {
            if (Attrs.get(v, d.getKey()).isNull()) {
                v = Attrs.with(v, d.getKey(), d.getValue());
            }
        }
        if (Attrs.get(v, "numeric").isNull()) {
            v = Attrs.with(v, "numeric", Attrs.get(v, "number").isNull() ? Value.TRUE : Attrs.get(v, "number"));
        }
        if (Attrs.get(v, "number").isNull()) {
            v = Attrs.with(v, "number", Attrs.get(v, "numeric"));
        }
        if (password
                && Attrs.get(v, "bcrypt_hash").isNull()
                && !Attrs.get(v, "result").isNull()) {
            v = Attrs.with(v, "bcrypt_hash", Value.string(bcrypt(Attrs.string(v, "result"))));
        }
        return v;
    }

    static boolean matchesBcrypt(String secret, String hash) {
        return BCrypt.verifyer(BCrypt.Version.VERSION_2A, LongPasswordStrategies.truncate(BCrypt.Version.VERSION_2A))
                .verify(secret.getBytes(StandardCharsets.UTF_8), hash.getBytes(StandardCharsets.UTF_8))
                .verified;
    }
}
