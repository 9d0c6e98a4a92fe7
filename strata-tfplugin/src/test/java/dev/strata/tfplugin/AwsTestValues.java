package dev.strata.tfplugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderDiagnostics;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Values and checks the tests against the real AWS provider share. */
final class AwsTestValues {
    private AwsTestValues() {}

    /** {@code obj} with {@code overrides} set; each overridden attribute must be in the schema already. */
    static Value with(Value obj, Map<String, Value> overrides) {
        Map<String, Value> attrs = new TreeMap<>(obj.attributes());
        overrides.forEach((k, v) -> {
            assertThat(attrs).as("attribute " + k).containsKey(k);
            attrs.put(k, v);
        });
        return Value.object(attrs);
    }

    /** The provider's configuration for offline use: fake keys, no credential, account or metadata look-ups. */
    static Value offlineProviderConfig(Value emptyConfig) {
        return with(
                emptyConfig,
                Map.of(
                        "region", Value.string("us-east-1"),
                        "access_key", Value.string("mock"),
                        "secret_key", Value.string("mock"),
                        "skip_credentials_validation", Value.TRUE,
                        "skip_requesting_account_id", Value.TRUE,
                        "skip_metadata_api_check", Value.string("true")));
    }

    static Value strings(String... s) {
        return Value.set(Type.STRING, List.of(s).stream().map(Value::string).toList());
    }

    static void noErrors(ProviderDiagnostics ds) {
        assertThat(ds.hasErrors()).as(ds.toString()).isFalse();
    }
}
