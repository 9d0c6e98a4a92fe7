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
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * {@code random_shuffle}: a random permutation of {@code input}; with {@code result_count} that
 * many items, continuing with further permutations when more are asked for than there are.
 */
final class RandomShuffle implements ManagedResource {

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(Common.KEEPERS, Common.keepers())
            .attribute(
                    "input",
                    Attribute.required(Type.list(Type.STRING)).withDescription("The list of strings to shuffle."))
            .attribute(
                    "seed",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "Arbitrary string with which to seed the random number generator, in order to produce less-volatile"
                                            + " permutations of the list."))
            .attribute(
                    "result_count",
                    Attribute.optional(Type.NUMBER)
                            .withDescription(
                                    "The number of results to return. Defaults to the number of items in the `input` list. If fewer"
                                            + " items are requested, some elements will be excluded from the result. If more items are"
                                            + " requested, items will be repeated in the result but not more frequently than the number"
                                            + " of items in the input list."))
            .attribute(
                    "result",
                    Attribute.computed(Type.list(Type.STRING))
                            .withDescription("Random permutation of the list of strings given in `input`."))
            .attribute(
                    "id",
                    Attribute.computed(Type.STRING)
                            .withDescription("A static value used internally by Terraform,"
                                    + " this should not be referenced in configurations."))
            .build());

    private final SecureRandom random;

    RandomShuffle(SecureRandom random) {
        this.random = random;
    }

    @Override
    public String typeName() {
        return "random_shuffle";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of(Common.KEEPERS, "input", "seed", "result_count");
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value n = Attrs.get(config, "result_count").unmarkDeep();
        if (n.isKnownAndNotNull() && n.asNumber().compareTo(BigDecimal.ZERO) < 0) {
            diags.error(
                    "Invalid Attribute Value",
                    "Attribute result_count value must be at least 0, got: " + n.numberText(),
                    AttributePath.of("result_count"));
        }
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        List<String> input = Attrs.stringList(planned, "input");
        BigDecimal n = Attrs.number(planned, "result_count");
        int count = n == null ? input.size() : n.intValueExact();
        Random rng = Common.forSeed(Attrs.string(planned, "seed"), random);
        List<Value> result = new ArrayList<>(count);
        while (!input.isEmpty() && result.size() < count) {
            List<String> perm = new ArrayList<>(input);
            Collections.shuffle(perm, rng);
            for (String s : perm) {
                if (result.size() == count) {
                    break;
                }
                result.add(s == null ? Value.nullValue(Type.STRING) : Value.string(s));
            }
        }
        return Attrs.with(planned, "result", Value.list(Type.STRING, result), "id", Value.string("-"));
    }
}
