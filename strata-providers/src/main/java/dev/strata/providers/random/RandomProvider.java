package dev.strata.providers.random;

import dev.strata.provider.Block;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.SdkProvider;
import java.security.SecureRandom;
import java.util.List;

/** {@code hashicorp/random}: values generated once at create and kept until a keeper changes. */
final class RandomProvider extends SdkProvider {

    RandomProvider(SecureRandom random) {
        super(
                Schema.of(Block.builder().build()),
                List.of(
                        new RandomId(random),
                        new RandomInteger(random),
                        new RandomStringResource(random, true),
                        new RandomStringResource(random, false),
                        new RandomPet(random),
                        new RandomShuffle(random),
                        new RandomUuid(random)),
                List.of());
    }
}
