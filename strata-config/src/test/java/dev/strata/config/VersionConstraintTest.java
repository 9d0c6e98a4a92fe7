package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** go-version's constraint semantics, which Terraform uses for required_version and provider versions. */
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
            ~> 1            | 2.0.0        | false
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
        assertThat(VersionConstraint.parse(constraint, null).diagnostics().asList().getFirst().summary())
                .isEqualTo("Invalid version constraint");
    }
}
