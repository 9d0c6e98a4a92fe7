package dev.strata.providers.local;

import dev.strata.provider.Block;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.EngineContext;
import dev.strata.provider.sdk.SdkProvider;
import java.util.List;

/**
 * {@code hashicorp/local}: files on the machine that runs Strata. Relative file names are
 * relative to the working directory the engine configures the provider with
 * (where {@code -chdir} points), as in Terraform; the state keeps them as written.
 */
final class LocalProvider extends SdkProvider {

    LocalProvider() {
        this(new EngineContext());
    }

    private LocalProvider(EngineContext ctx) {
        super(
                Schema.of(Block.builder().build()),
                List.of(new LocalFile(false, ctx), new LocalFile(true, ctx)),
                List.of(new LocalFileData(false, ctx), new LocalFileData(true, ctx)),
                ctx);
    }
}
