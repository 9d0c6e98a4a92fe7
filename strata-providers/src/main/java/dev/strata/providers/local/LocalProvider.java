package dev.strata.providers.local;

import dev.strata.provider.Block;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.SdkProvider;
import java.util.List;

/**
 * {@code hashicorp/local}: files on the machine that runs Strata. Relative file names are
 * relative to the working directory, as in Terraform.
 */
final class LocalProvider extends SdkProvider {

    LocalProvider() {
        super(Schema.of(Block.builder().build()),
                List.of(new LocalFile(false), new LocalFile(true)),
                List.of(new LocalFileData(false), new LocalFileData(true)));
    }
}
