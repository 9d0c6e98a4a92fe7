package dev.strata.providers.terraform;

import dev.strata.provider.Provider;
import dev.strata.provider.ProviderAddress;
import dev.strata.providers.BuiltinFactory;

/** Registers the built-in {@code terraform} provider ({@code terraform.io/builtin/terraform}). */
public final class TerraformProviderFactory extends BuiltinFactory {

    public TerraformProviderFactory() {
        super(ProviderAddress.TERRAFORM, "terraform");
    }

    @Override
    public Provider create() {
        return new TerraformProvider();
    }
}
