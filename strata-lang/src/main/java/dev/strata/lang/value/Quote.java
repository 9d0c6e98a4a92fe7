package dev.strata.lang.value;

import dev.strata.hcl.GoQuote;

/** Quotes strings the way Terraform's messages and console do (Go's {@code strconv.Quote}). */
public final class Quote {
    private Quote() {}

    public static String quote(String s) {
        return GoQuote.quote(s);
    }
}
