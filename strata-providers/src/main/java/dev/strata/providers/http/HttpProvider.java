package dev.strata.providers.http;

import dev.strata.provider.Block;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.SdkProvider;
import dev.strata.resilience.Sleeper;
import java.util.List;

/** {@code hashicorp/http}: the {@code http} data source. */
final class HttpProvider extends SdkProvider {

    HttpProvider(Sleeper sleeper) {
        super(Schema.of(Block.builder().build()), List.of(), List.of(new HttpData(sleeper)));
    }
}
