package dev.strata.lang.value;

/**
 * Numbers that Terraform can produce but {@code BigDecimal} cannot hold: negative zero (for
 * example {@code log(10, 0)}) and the infinities (for example {@code 1/0}).
 */
enum SpecialNumber {
    NEGATIVE_ZERO("-0"),
    POSITIVE_INFINITY("+Inf"),
    NEGATIVE_INFINITY("-Inf");

    private final String text;

    SpecialNumber(String text) {
        this.text = text;
    }

    String text() {
        return text;
    }
}
