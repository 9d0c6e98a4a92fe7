package dev.strata.sdk;

import java.util.Optional;

/** A string: a literal, a reference ({@code aws_vpc.main.id}) or an expression such as a template. */
public record StringValue(Expr expr, Site site) implements Value {
    public StringValue {
        Exprs.require(expr, site);
    }

    public static StringValue of(String literal) {
        return new StringValue(new Expr.Str(literal), Site.capture());
    }

    /** The literal text, when the value is a literal. */
    public Optional<String> literal() {
        return expr instanceof Expr.Str s ? Optional.of(s.value()) : Optional.empty();
    }
}
