package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.state.HttpSettings;
import dev.strata.state.S3Settings;
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
    void theHttpAndS3SchemasAreTheSettingsStrataStateKeepsForThem() {
        // One list of names per backend: a typed setting named here and not there would be a typo.
        assertThat(TerraformBackendHash.settings("http")).containsExactlyElementsOf(HttpSettings.names());
        assertThat(TerraformBackendHash.settings("s3")).containsExactlyElementsOf(S3Settings.names());
        assertThat(TerraformBackendHash.settings("pg"))
                .containsExactly(
                        "conn_str",
                        "schema_name",
                        "skip_index_creation",
                        "skip_schema_creation",
                        "skip_table_creation");
    }

    @Test
    void backendsWhoseSchemaIsNotKnownHaveNoHash() {
        assertThat(TerraformBackendHash.of(new BackendSpec("gcs", Map.of("bucket", "b"))))
                .isEmpty();
        assertThat(TerraformBackendHash.of(new BackendSpec("s3", Map.of("bucket", "b", "no_such_setting", "x"))))
                .isEmpty();
    }

    @Test
    void aPgBlockHashesAsTerraformRecordsIt() {
        // terraform 1.11 init of backend "pg" against a loopback PostgreSQL; the hash it recorded.
        assertThat(TerraformBackendHash.of(new BackendSpec(
                        "pg",
                        Map.of(
                                "conn_str",
                                "postgres://postgres@127.0.0.1:55439/postgres?sslmode=disable",
                                "schema_name",
                                "tfrec"))))
                .hasValue(56002788L);
    }

    /** terraform 1.11 init of backend "s3" blocks against a loopback S3; the hashes it recorded. */
    @Test
    void s3BlocksWithNestedSetAndNumberSettingsHashAsTerraformRecordsThem() {
        Map<String, String> common = Map.of(
                "bucket", "b",
                "key", "app/terraform.tfstate",
                "region", "us-east-1",
                "use_path_style", "true",
                "skip_credentials_validation", "true",
                "skip_requesting_account_id", "true",
                "skip_metadata_api_check", "true",
                "skip_region_validation", "true",
                "skip_s3_checksum", "true");
        java.util.Map<String, String> first = new java.util.TreeMap<>(common);
        first.put("endpoints", "{\"s3\":\"http://127.0.0.1:55440\"}");
        assertThat(TerraformBackendHash.of(new BackendSpec("s3", first))).hasValue(1532897753L);
        java.util.Map<String, String> second = new java.util.TreeMap<>(common);
        second.put("endpoints", "{\"s3\":\"http://127.0.0.1:55440\",\"sts\":\"http://127.0.0.1:55440\"}");
        second.put("max_retries", "2");
        // a set: Terraform sorts it, so the order written does not matter
        second.put("shared_config_files", "[\"/tmp/q4b/s3t/zc\",\"/tmp/q4b/s3t/ac\"]");
        second.put("use_lockfile", "true");
        assertThat(TerraformBackendHash.of(new BackendSpec("s3", second))).hasValue(2864271711L);
        second.put("endpoints", "{\"nope\":\"x\"}");
        assertThat(TerraformBackendHash.of(new BackendSpec("s3", second)))
                .as("an attribute the nested object does not have")
                .isEmpty();
    }

    @Test
    void nestedSettingsAreRecordedTypedAndComplete() {
        assertThat(TerraformBackendHash.typed("s3", "endpoints", "{\"s3\":\"http://x\"}"))
                .hasToString("{\"dynamodb\":null,\"iam\":null,\"s3\":\"http://x\",\"sso\":null,\"sts\":null}");
        assertThat(TerraformBackendHash.typed("s3", "shared_config_files", "[\"b\",\"a\",\"b\"]"))
                .hasToString("[\"a\",\"b\"]");
        assertThat(TerraformBackendHash.typed("s3", "max_retries", "3")).hasToString("3");
        assertThat(TerraformBackendHash.typed("pg", "skip_table_creation", "true"))
                .hasToString("true");
        assertThat(TerraformBackendHash.typed("s3", "use_lockfile", "yes")).isNull();
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
        BackendSpec gcs = new BackendSpec("gcs", Map.of("bucket", "b", "prefix", "p"));
        assertThat(new BackendRecord(gcs, 1L).matches(gcs)).isTrue();
        assertThat(new BackendRecord(gcs, 1L).matches(new BackendSpec("gcs", Map.of("bucket", "c"))))
                .isFalse();
        BackendSpec s3 = new BackendSpec("s3", Map.of("bucket", "b", "use_path_style", "true"));
        assertThat(new BackendRecord(s3, 1L).matches(s3))
                .as("a record another Terraform version wrote (another schema, another hash) with the same settings")
                .isTrue();
        assertThat(new BackendRecord(s3, 1L).matches(new BackendSpec("s3", Map.of("bucket", "c"))))
                .isFalse();
    }
}
