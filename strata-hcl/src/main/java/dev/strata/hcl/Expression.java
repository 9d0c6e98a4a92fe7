package dev.strata.hcl;

import java.util.List;
import java.util.Optional;

/**
 * An expression from either syntax. Native-syntax expressions are the AST nodes of
 * {@code dev.strata.hcl.syntax}; JSON-syntax expressions lower themselves to the same nodes
 * ({@link #syntax()}), so evaluation needs to understand only one tree.
 */
public interface Expression {
    SourceRange range();

    /** The part of the range a diagnostic should point at when the whole is too wide. */
    default SourceRange startRange() {
        return range();
    }

    /**
     * The traversals this expression references, without evaluating it; names bound inside the
     * expression (for-expression variables, splat items) are excluded.
     */
    List<Traversal> variables();

    /** The native-syntax tree this expression means when evaluated, plus problems found building it. */
    Result<dev.strata.hcl.syntax.Expr> syntax();

    /**
     * The static traversal this expression spells, as Terraform reads {@code depends_on},
     * {@code provider} and {@code ignore_changes}: the expression must be a plain reference (in JSON,
     * a string containing one).
     */
    Result<Optional<Traversal>> asTraversal();

    /** The elements of a static tuple/list constructor ({@code [a, b]}), or empty if it is not one. */
    Optional<List<Expression>> asList();

    /** The key/value pairs of a static object constructor ({@code {a = b}}), or empty if it is not one. */
    Optional<List<KeyValue>> asMap();

    /** A single bare identifier ({@code create_before_destroy}, {@code string}), or empty. */
    Optional<String> asKeyword();

    /** One item of an object constructor. */
    record KeyValue(Expression key, Expression value) {}
}
