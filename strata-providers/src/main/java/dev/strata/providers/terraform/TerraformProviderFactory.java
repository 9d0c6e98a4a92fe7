package dev.strata.providers.terraform;

import dev.strata.provider.Provider;
import dev.strata.providers.BuiltinFactory;

/** Registers the built-in {@code terraform} provider ({@code terraform.io/builtin/terraform}). */
public final class TerraformProviderFactory extends BuiltinFactory {

    public TerraformProviderFactory() {
        super(dev.strata.addr.Provider.BUILTIN_TERRAFORM, "terraform");
    }

    @Override
    public Provider create() {
        return new TerraformProvider();
    }
}
