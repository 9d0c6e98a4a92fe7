package dev.strata.sdk;

import java.util.Optional;

/**
 * A Terraform value in a program: either a literal known now or an expression over references whose
 * result is known only to Terraform (often only after apply). Its {@link #lineage()} says where it
 * came from; placed into another declaration's argument it is written as that reference, while a
 * literal stays a literal.
 */
public sealed interface Value
        permits StringValue, NumberValue, BoolValue, ListValue, SetValue, MapValue, ObjectValue, AnyValue {
    /** The expression synthesis writes. */
    Expr expr();

    /** Where the program created this value. */
    Site site();

    /** The reference this value is, if it is exactly one. */
    default Optional<Lineage> lineage() {
        return expr() instanceof Expr.Ref r ? Optional.of(r.lineage()) : Optional.empty();
    }

    /** True when the value refers to nothing in the configuration (no lineage inside). */
    default boolean isLiteral() {
        return Exprs.refs(expr()).isEmpty();
    }

    default BoolValue eq(Value other) {
        return new BoolValue(new Expr.Binary(Expr.Op.EQ, expr(), other.expr()), Site.capture());
    }

    default BoolValue ne(Value other) {
        return new BoolValue(new Expr.Binary(Expr.Op.NE, expr(), other.expr()), Site.capture());
    }

    /** The same value seen as any type (for navigation or for passing where another type is expected). */
    default AnyValue asAny() {
        return new AnyValue(expr(), site());
    }
}
