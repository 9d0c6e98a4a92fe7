package dev.strata.providers.http;

import dev.strata.provider.Block;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.SdkProvider;
import java.time.Duration;
import java.util.List;

/** {@code hashicorp/http}: the {@code http} data source. */
final class HttpProvider extends SdkProvider {

    /** Waits between retries; a seam so tests need not wait for real. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    HttpProvider(Sleeper sleeper) {
        super(Schema.of(Block.builder().build()), List.of(), List.of(new HttpData(sleeper)));
    }
}
