package dev.strata.providers.terraform;

import dev.strata.provider.Block;
import dev.strata.provider.ProviderFunction;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.EngineContext;
import dev.strata.provider.sdk.SdkProvider;
import java.util.List;
import java.util.SortedMap;

/**
 * The provider built into Terraform: {@code terraform_data}, {@code terraform_remote_state} and the
 * functions of {@link TerraformFunctions}. It takes no configuration.
 */
final class TerraformProvider extends SdkProvider {

    TerraformProvider() {
        this(new EngineContext());
    }

    private TerraformProvider(EngineContext ctx) {
        super(Schema.of(Block.builder().build()), List.of(new TerraformData()), List.of(new RemoteStateData(ctx)), ctx);
    }

    @Override
    public SortedMap<String, ProviderFunction> functions() {
        return TerraformFunctions.ALL;
    }

    @Override
    public CallFunctionResponse callFunction(CallFunctionRequest request) {
        return TerraformFunctions.call(request);
    }
}
