package dev.strata.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AttributePath;
import dev.strata.addr.Version;
import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Result;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegistryTest {

    @Test
    void sourceAddressesParseInAllForms() {
        assertThat(dev.strata.addr.Provider.parse("registry.terraform.io/hashicorp/random")
                        .value())
                .isEqualTo(dev.strata.addr.Provider.hashicorp("random"));
        assertThat(dev.strata.addr.Provider.parse("HashiCorp/Random").value())
                .isEqualTo(dev.strata.addr.Provider.hashicorp("random"));
        assertThat(dev.strata.addr.Provider.parse("random").value())
                .isEqualTo(dev.strata.addr.Provider.hashicorp("random"));
        assertThat(dev.strata.addr.Provider.parse("example.com:8443/acme/widgets")
                        .value()
                        .toString())
                .isEqualTo("example.com:8443/acme/widgets");
        assertThat(dev.strata.addr.Provider.parse("cyrilgdn/postgresql").value().forDisplay())
                .isEqualTo("cyrilgdn/postgresql");
        assertThat(dev.strata.addr.Provider.parse("a/b/c/d").hasErrors()).isTrue();
        assertThat(dev.strata.addr.Provider.parse("hashicorp/-x").hasErrors()).isTrue();
        assertThat(dev.strata.addr.Provider.parse("hashicorp/terraform-provider-aws")
                        .diagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .contains("must not start with \"terraform-provider-\"; use \"aws\"");
    }

    @Test
    void impliedProviderIsTheTypePrefix() {
        assertThat(dev.strata.addr.Provider.impliedFor("random_pet"))
                .isEqualTo(dev.strata.addr.Provider.hashicorp("random"));
        assertThat(dev.strata.addr.Provider.impliedFor("null_resource").toString())
                .isEqualTo("registry.terraform.io/hashicorp/null");
        assertThat(dev.strata.addr.Provider.impliedFor("terraform_data"))
                .isEqualTo(dev.strata.addr.Provider.BUILTIN_TERRAFORM);
        assertThat(dev.strata.addr.Provider.BUILTIN_TERRAFORM.toString()).isEqualTo("terraform.io/builtin/terraform");
    }

    @Test
    void versionConstraintsFollowTerraform() {
        Version v = Version.of("3.7.2");
        assertThat(VersionConstraint.parse("~> 3.0").value().selects(v)).isTrue();
        assertThat(VersionConstraint.parse("~> 3.7.0").value().selects(v)).isTrue();
        assertThat(VersionConstraint.parse("~> 3.8").value().selects(v)).isFalse();
        assertThat(VersionConstraint.parse("~> 2.0").value().selects(v)).isFalse();
        assertThat(VersionConstraint.parse("~> 3").value().selects(Version.of("4.0.0")))
                .isTrue();
        assertThat(VersionConstraint.parse(">= 3.1, < 4.0.0").value().selects(v))
                .isTrue();
        assertThat(VersionConstraint.parse("!= 3.7.2").value().selects(v)).isFalse();
        assertThat(VersionConstraint.parse("3.7.2").value().selects(v)).isTrue();
        assertThat(VersionConstraint.parse(">= 1.0").value().selects(Version.of("2.0.0-beta1")))
                .isFalse();
        assertThat(VersionConstraint.parse("= 2.0.0-beta1").value().selects(Version.of("2.0.0-beta1")))
                .isTrue();
        assertThat(VersionConstraint.parse("~> banana").hasErrors()).isTrue();
    }

    private record Fake(dev.strata.addr.Provider address, Version version) implements ProviderFactory {
        @Override
        public Provider create() {
            throw new UnsupportedOperationException("not needed");
        }
    }

    @Test
    void registryResolvesAndExplainsMisses() {
        ProviderRegistry r = ProviderRegistry.of(List.of(
                new Fake(dev.strata.addr.Provider.hashicorp("random"), Version.of("3.7.2")),
                new Fake(dev.strata.addr.Provider.hashicorp("null"), Version.of("3.2.4"))));
        assertThat(r.resolve(dev.strata.addr.Provider.hashicorp("random"), VersionConstraint.ANY)
                        .value()
                        .version())
                .isEqualTo(Version.of("3.7.2"));
        Result<ProviderFactory> miss = r.resolve(dev.strata.addr.Provider.hashicorp("aws"), VersionConstraint.ANY);
        assertThat(miss.value()).isNull();
        assertThat(miss.diagnostics().asList().get(0).detail())
                .contains("registry.terraform.io/hashicorp/aws")
                .contains("hashicorp/null 3.2.4, hashicorp/random 3.7.2");
        Result<ProviderFactory> old = r.resolve(
                dev.strata.addr.Provider.hashicorp("random"),
                VersionConstraint.parse("~> 2.0").value());
        assertThat(old.diagnostics().asList().get(0).summary()).isEqualTo("Unsatisfiable provider version constraint");
    }

    @Test
    void failuresClassifyAsTransientOnlyWhenAllAre() {
        ProviderDiagnostics t = ProviderDiagnostics.of(
                ProviderDiagnostic.transientError(
                        "Throttled", "", (Failure.Transient) Failure.retryAfter(java.time.Duration.ofSeconds(2))),
                ProviderDiagnostic.transientError("Timeout", "", (Failure.Transient) Failure.transientFailure()),
                ProviderDiagnostic.warning("Deprecated", "", null));
        assertThat(t.failure()).contains(Failure.retryAfter(java.time.Duration.ofSeconds(2)));
        assertThat(t.with(ProviderDiagnostic.error("Bad", "")).failure()).contains(Failure.PERMANENT);
        assertThat(ProviderDiagnostics.of(ProviderDiagnostic.warning("w", "", null))
                        .failure())
                .isEmpty();
        assertThat(ProviderDiagnostics.of(ProviderDiagnostic.error(
                                "Bad", "no", AttributePath.of("a").index(0)))
                        .toDiagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .isEqualTo("no\n\nAttribute: a[0]");
    }
}
