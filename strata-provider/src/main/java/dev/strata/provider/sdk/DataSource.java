package dev.strata.provider.sdk;

import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;

/** One data source of an {@link SdkProvider}. */
public interface DataSource {

    String typeName();

    Schema schema();

    default void validate(Value config, ProviderDiagnostics.Builder diags) {}

    /** Reads the data the configuration asks for; the result is wholly known. */
    Value read(Value config, ProviderDiagnostics.Builder diags);
}
