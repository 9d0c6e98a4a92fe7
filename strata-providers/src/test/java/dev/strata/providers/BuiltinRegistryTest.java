package dev.strata.providers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.Schema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuiltinRegistryTest {

    @Test
    void everyBuiltinIsFoundByItsAddress() {
        ProviderRegistry r = ProviderRegistry.load();
        assertThat(r.available())
                .extracting(f -> f.address().toString())
                .containsExactly(
                        "registry.terraform.io/cyrilgdn/postgresql",
                        "registry.terraform.io/hashicorp/http",
                        "registry.terraform.io/hashicorp/local",
                        "registry.terraform.io/hashicorp/null",
                        "registry.terraform.io/hashicorp/random",
                        "registry.terraform.io/hashicorp/time",
                        "registry.terraform.io/hashicorp/tls",
                        "registry.terraform.io/strata/cloudsim",
                        "terraform.io/builtin/terraform");
        for (ProviderFactory f : r.available()) {
            assertThat(f.version().toString()).matches("\\d+\\.\\d+\\.\\d+");
            var schema = f.create().schema();
            if (!f.address().namespace().equals("hashicorp") && !f.address().isBuiltIn()) {
                // As in Terraform, only hashicorp/ providers are implied by a type prefix; the others
                // need a required_providers entry.
                assertThat(schema.resourceTypes().keySet())
                        .allSatisfy(t -> assertThat(Provider.impliedFor(t)).isNotEqualTo(f.address()));
                continue;
            }
            for (String type : schema.resourceTypes().keySet()) {
                assertThat(Provider.impliedFor(type)).as(type).isEqualTo(f.address());
            }
            for (String type : schema.dataSources().keySet()) {
                assertThat(Provider.impliedFor(type)).as(type).isEqualTo(f.address());
            }
        }
    }

    @Test
    void resourceTypesMatchHashiCorpsProviders() {
        ProviderRegistry r = ProviderRegistry.load();
        Map<String, List<String>> resources = Map.of(
                "random",
                        List.of(
                                "random_id",
                                "random_integer",
                                "random_password",
                                "random_pet",
                                "random_shuffle",
                                "random_string",
                                "random_uuid"),
                "null", List.of("null_resource"),
                "local", List.of("local_file", "local_sensitive_file"),
                "time", List.of("time_offset", "time_rotating", "time_sleep", "time_static"),
                "tls",
                        List.of(
                                "tls_cert_request",
                                "tls_locally_signed_cert",
                                "tls_private_key",
                                "tls_self_signed_cert"),
                "http", List.of());
        resources.forEach((name, types) -> {
            var schema = r.resolve(Provider.hashicorp(name), VersionConstraint.ANY)
                    .value()
                    .create()
                    .schema();
            assertThat(schema.resourceTypes().keySet()).as(name).containsExactlyElementsOf(types);
        });
        var tls = r.resolve(Provider.hashicorp("tls"), VersionConstraint.ANY)
                .value()
                .create()
                .schema();
        assertThat(tls.dataSources().keySet()).containsExactly("tls_certificate", "tls_public_key");
        Schema pw = r.resolve(Provider.hashicorp("random"), VersionConstraint.ANY)
                .value()
                .create()
                .schema()
                .resourceType("random_password");
        assertThat(pw.block().attributes().keySet())
                .containsExactlyInAnyOrder(
                        "keepers",
                        "length",
                        "special",
                        "upper",
                        "lower",
                        "number",
                        "numeric",
                        "min_numeric",
                        "min_upper",
                        "min_lower",
                        "min_special",
                        "override_special",
                        "result",
                        "bcrypt_hash",
                        "id");
    }

    @Test
    void unavailableProviderIsNamedWithTheAlternatives() {
        var miss = ProviderRegistry.load().resolve(Provider.impliedFor("aws_instance"), VersionConstraint.ANY);
        assertThat(miss.value()).isNull();
        assertThat(miss.diagnostics().asList().get(0).summary()).isEqualTo("Provider not available");
        assertThat(miss.diagnostics().asList().get(0).detail())
                .contains("\"registry.terraform.io/hashicorp/aws\"")
                .contains("hashicorp/random 3.7.2");
    }
}
