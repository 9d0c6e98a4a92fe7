package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hashes terraform 1.11 recorded for these blocks (so this runs without terraform). */
class TerraformBackendHashTest {
    @Test
    void aLocalBlockHashesAsTerraformRecordsIt() {
        // terraform init of: backend "local" { path = "x/state.tfstate" }
        assertThat(TerraformBackendHash.of(new BackendSpec("local", Map.of("path", "x/state.tfstate"))))
                .hasValue(2621798703L);
    }

    @Test
    void httpBlocksWithTypedSettingsHashAsTerraformRecordsThem() {
        // terraform 1.11 init of backend "http" blocks against a loopback server; the hashes it recorded.
        String address = "http://127.0.0.1:18555/state";
        assertThat(TerraformBackendHash.of(new BackendSpec("http", Map.of("address", address))))
                .hasValue(1768897060L);
        assertThat(TerraformBackendHash.of(new BackendSpec(
                        "http",
                        Map.of(
                                "address",
                                address,
                                "retry_max",
                                "3",
                                "skip_cert_verification",
                                "true",
                                "username",
                                "u"))))
                .hasValue(1277404001L);
        // retry_wait_min = "2": Terraform converts the string to the number 2.
        assertThat(TerraformBackendHash.of(
                        new BackendSpec("http", Map.of("address", address, "retry_wait_min", "2.0"))))
                .hasValue(3865176253L);
        assertThat(TerraformBackendHash.of(new BackendSpec("http", Map.of("address", address, "retry_max", "x"))))
                .as("a value Terraform would refuse has no hash")
                .isEmpty();
    }

    @Test
    void backendsWhoseSchemaIsNotKnownHaveNoHash() {
        assertThat(TerraformBackendHash.of(new BackendSpec("s3", Map.of("bucket", "b"))))
                .isEmpty();
    }

    @Test
    void stringsAreQuotedAsGoQuotesThem() {
        StringBuilder out = new StringBuilder();
        TerraformBackendHash.quote("a\"b\\c\nd\u0001é", out);
        assertThat(out).hasToString("\"a\\\"b\\\\c\\nd\\x01é\"");
    }

    @Test
    void aRecordMatchesByTerraformsHashOrBySettings() {
        BackendSpec local = new BackendSpec("local", Map.of("path", "x/state.tfstate"));
        assertThat(new BackendRecord(local, 2621798703L).matches(local)).isTrue();
        assertThat(new BackendRecord(local, 1L).matches(new BackendSpec("local", Map.of("path", "y"))))
                .isFalse();
        BackendSpec s3 = new BackendSpec("s3", Map.of("bucket", "b", "use_path_style", "true"));
        assertThat(new BackendRecord(s3, 1L).matches(s3)).isTrue();
        assertThat(new BackendRecord(s3, 1L).matches(new BackendSpec("s3", Map.of("bucket", "c"))))
                .isFalse();
    }
}
