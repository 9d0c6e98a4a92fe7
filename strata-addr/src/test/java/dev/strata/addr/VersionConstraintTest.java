package dev.strata.addr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Terraform's constraint semantics (go-version; `~> 1` allowing 2.0.0 as terraform 1.11 does with `required_version`). */
class VersionConstraintTest {

    @ParameterizedTest(name = "{0} allows {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            >= 1.0          | 1.11.4       | true
            >= 1.11.1       | 1.11.0       | false
            ~> 1.2          | 1.9.0        | true
            ~> 1.2          | 2.0.0        | false
            ~> 1.2          | 1.1.9        | false
            ~> 1.2.3        | 1.2.9        | true
            ~> 1.2.3        | 1.3.0        | false
            ~> 1            | 1.99.0       | true
            ~> 1            | 2.0.0        | true
            ~> 0.12.0       | 0.12.31      | true
            ~> 0.12.0       | 0.13.0       | false
            >=0.12.6        | 1.11.4       | true
            >= 1.2, < 2.0   | 1.5.0        | true
            >= 1.2, < 2.0   | 2.0.0        | false
            != 1.5.0        | 1.5.0        | false
            = 1.5           | 1.5.0        | true
            1.5.0           | 1.5.0        | true
            < 1.5           | 1.4.99       | true
            <= 1.5          | 1.5.0        | true
            > 1.5           | 1.5.0        | false
            >= 1.0          | 1.12.0-beta1 | false
            >= 1.12.0-beta1 | 1.12.0-beta2 | true
            >= 1.12.0-beta1 | 1.12.0       | true
            >= 1.12.0-alpha | 1.12.0-beta  | true
            """)
    void allows(String constraint, String version, boolean expected) {
        VersionConstraint c = VersionConstraint.parse(constraint, null).value();
        assertThat(c).as(constraint).isNotNull();
        assertThat(c.allows(Version.parse(version).orElseThrow())).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"''", "'>= banana'", "'~>'", "'1.2.3.4'", "'>= 1.0,'"})
    void rejectsMalformedConstraints(String constraint) {
        assertThat(VersionConstraint.parse(constraint, null)
                        .diagnostics()
                        .asList()
                        .getFirst()
                        .summary())
                .isEqualTo("Invalid version constraint");
    }

    // Terraform's provider installer takes a pre-release only when a constraint names it exactly;
    // required_version (go-version) also lets a range that names a pre-release of the same version match.
    @ParameterizedTest(name = "{0} selects {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            >= 1.12.0-beta1 | 1.12.0-beta2 | false
            = 1.12.0-beta2  | 1.12.0-beta2 | true
            1.12.0-beta2    | 1.12.0-beta2 | true
            >= 1.0          | 1.12.0-beta2 | false
            ~> 3            | 4.0.0        | true
            ''              | 4.0.0-rc1    | false
            ''              | 4.0.0        | true
            """)
    void selects(String constraint, String version, boolean expected) {
        VersionConstraint c = VersionConstraint.parse(constraint).value();
        assertThat(c.selects(Version.of(version))).isEqualTo(expected);
    }

    @Test
    void preReleasesOrderBySemanticVersioning() {
        assertThat(Version.of("1.0.0-beta.2")).isLessThan(Version.of("1.0.0-beta.10"));
        assertThat(Version.of("1.0.0-1")).isLessThan(Version.of("1.0.0-alpha"));
        assertThat(Version.of("1.0.0-alpha")).isLessThan(Version.of("1.0.0-alpha.1"));
        assertThat(Version.of("1.0.0-rc1")).isLessThan(Version.of("1.0.0"));
        assertThat(Version.of("1.2")).isEqualTo(Version.of("1.2.0")).hasSameHashCodeAs(Version.of("1.2.0"));
        assertThat(Version.of("v1.2+build.5")).hasToString("1.2.0");
    }

    @Test
    void blankMeansAnyWhereInstallersMergeConstraints() {
        assertThat(VersionConstraint.parse("  ").value()).isSameAs(VersionConstraint.ANY);
        assertThat(VersionConstraint.parse(" ~> 1.2 ").value().source()).isEqualTo("~> 1.2");
        assertThat(VersionConstraint.parse("~> banana").value()).isSameAs(VersionConstraint.ANY);
    }
}
