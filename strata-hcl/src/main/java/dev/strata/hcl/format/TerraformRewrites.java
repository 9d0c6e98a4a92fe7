package dev.strata.hcl.format;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.HclStrings;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.syntax.SyntaxBody;
import dev.strata.hcl.syntax.TokenType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The clean-ups {@code terraform fmt} makes on top of plain HCL formatting, all leftovers of the
 * pre-0.12 language:
 * <ul>
 *   <li>an attribute value that is a single interpolation, {@code "${expr}"}, becomes {@code expr}
 *       (parenthesised when it spans lines, so that it still parses as one expression);</li>
 *   <li>in a top-level {@code variable} block, {@code type = "string"/"list"/"map"} become
 *       {@code string/list(string)/map(string)} and bare {@code list/map/set} gain {@code (any)};</li>
 *   <li>block labels are re-written as canonical quoted strings (comments between them go).</li>
 * </ul>
 * Each rewrite replaces a run of tokens located through the parsed tree; the result is then laid
 * out like any other token stream.
 */
final class TerraformRewrites {

    private record Replacement(int from, int to, List<FmtToken> with) {}

    private final List<FmtToken> tokens;
    /** Source byte offsets where each token starts and ends; both strictly increasing. */
    private final int[] starts;

    private final int[] ends;
    private final List<Replacement> replacements = new ArrayList<>();

    private TerraformRewrites(List<FmtToken> tokens, int[] starts, int[] ends) {
        this.tokens = tokens;
        this.starts = Arrays.copyOf(starts, tokens.size());
        this.ends = Arrays.copyOf(ends, tokens.size());
    }

    /**
     * Applies the rewrites to {@code tokens}, whose byte ranges in the source are
     * {@code starts[i]..ends[i]}, for the file whose tree is {@code body}.
     */
    static List<FmtToken> apply(List<FmtToken> tokens, int[] starts, int[] ends, SyntaxBody body) {
        TerraformRewrites r = new TerraformRewrites(tokens, starts, ends);
        r.body(body, 0, false);
        // One forward pass: replacements never overlap (labels precede their block's body).
        r.replacements.sort(Comparator.comparingInt(Replacement::from));
        List<FmtToken> out = new ArrayList<>(tokens.size());
        int next = 0;
        for (Replacement rep : r.replacements) {
            out.addAll(tokens.subList(next, rep.from));
            out.addAll(rep.with);
            next = rep.to;
        }
        out.addAll(tokens.subList(next, tokens.size()));
        return out;
    }

    private void body(SyntaxBody body, int depth, boolean inVariable) {
        for (Attribute a : body.attributes()) {
            int[] span = span(a.expr().range());
            if (span == null) {
                continue;
            }
            List<FmtToken> expr = tokens.subList(span[0], span[1]);
            List<FmtToken> rewritten =
                    depth == 1 && inVariable && a.name().equals("type") ? typeExpr(expr) : valueExpr(expr);
            if (rewritten != expr) {
                replacements.add(new Replacement(span[0], span[1], rewritten));
            }
        }
        for (Block b : body.blocks()) {
            if (!b.labels().isEmpty()) {
                relabel(b);
            }
            if (b.body() instanceof SyntaxBody nested) {
                body(nested, depth + 1, depth == 0 && b.type().equals("variable"));
            }
        }
    }

    /**
     * Re-writes a block's labels as quoted strings. Everything from the type name to the last label
     * is replaced, so comments among the labels go; a comment after the last label stays.
     */
    private void relabel(Block b) {
        int typeTok = Arrays.binarySearch(ends, b.typeRange().end().byteOffset());
        List<SourceRange> ranges = b.labelRanges();
        int[] last = span(ranges.get(ranges.size() - 1));
        if (typeTok < 0 || last == null) {
            return;
        }
        List<FmtToken> labels = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            int[] own = span(ranges.get(i));
            if (own == null) {
                continue;
            }
            labels.add(FmtToken.of(TokenType.OQUOTE, "\""));
            String label = b.labels().get(i);
            if (!label.isEmpty()) {
                labels.add(FmtToken.of(TokenType.QUOTED_LIT, HclStrings.escape(label)));
            }
            labels.add(FmtToken.of(TokenType.CQUOTE, "\""));
        }
        replacements.add(new Replacement(typeTok + 1, last[1], labels));
    }

    /** The token index range [from, to) that exactly covers a source range, or null if none does. */
    private int[] span(SourceRange r) {
        int from = Arrays.binarySearch(starts, r.start().byteOffset());
        int last = Arrays.binarySearch(ends, r.end().byteOffset());
        if (from < 0 || last < from) {
            return null;
        }
        return new int[] {from, last + 1};
    }

    /** {@code "${expr}"} as a whole value becomes {@code expr}; anything else is returned as is. */
    static List<FmtToken> valueExpr(List<FmtToken> expr) {
        int n = expr.size();
        if (n < 5
                || expr.get(0).type() != TokenType.OQUOTE
                || expr.get(1).type() != TokenType.TEMPLATE_INTERP
                || expr.get(n - 2).type() != TokenType.TEMPLATE_SEQ_END
                || expr.get(n - 1).type() != TokenType.CQUOTE) {
            return expr;
        }
        List<FmtToken> inside = expr.subList(2, n - 2);
        // Provably one interpolation only: no literal text and no other sequence at the outer
        // level. Strings nested in the expression may have their own.
        int quotes = 0;
        for (FmtToken t : inside) {
            switch (t.type()) {
                case OQUOTE -> quotes++;
                case CQUOTE -> quotes--;
                case TEMPLATE_INTERP, TEMPLATE_SEQ_END, QUOTED_LIT -> {
                    if (quotes <= 0) {
                        return expr;
                    }
                }
                default -> {}
            }
        }
        int from = 0;
        int to = inside.size();
        while (from < to && inside.get(from).type() == TokenType.NEWLINE) {
            from++;
        }
        while (to > from && inside.get(to - 1).type() == TokenType.NEWLINE) {
            to--;
        }
        List<FmtToken> trimmed = inside.subList(from, to);
        boolean multiLine = false;
        boolean leadingParen = false;
        boolean trailingParen = false;
        for (int i = 0; i < trimmed.size(); i++) {
            TokenType t = trimmed.get(i).type();
            if (i == 0 && t == TokenType.OPAREN) {
                leadingParen = true;
            } else if (t == TokenType.NEWLINE) {
                multiLine = true;
            } else if (i == trimmed.size() - 1 && t == TokenType.CPAREN) {
                trailingParen = true;
            }
        }
        // A multi-line expression, such as a conditional split over lines, only parses as an
        // attribute value inside parentheses.
        if (multiLine && !(leadingParen && trailingParen)) {
            List<FmtToken> wrapped = new ArrayList<>(trimmed.size() + 2);
            wrapped.add(FmtToken.of(TokenType.OPAREN, "("));
            wrapped.addAll(trimmed);
            wrapped.add(FmtToken.of(TokenType.CPAREN, ")"));
            return wrapped;
        }
        return List.copyOf(trimmed);
    }

    /** Legacy type constraints of a variable: quoted names, and collections without element type. */
    static List<FmtToken> typeExpr(List<FmtToken> expr) {
        if (expr.size() == 1 && expr.get(0).type() == TokenType.IDENT) {
            String kw = expr.get(0).text();
            if (kw.equals("list") || kw.equals("map") || kw.equals("set")) {
                return call(kw, "any");
            }
            return expr;
        }
        if (expr.size() == 3
                && expr.get(0).type() == TokenType.OQUOTE
                && expr.get(1).type() == TokenType.QUOTED_LIT
                && expr.get(2).type() == TokenType.CQUOTE) {
            // Terraform 0.11 converted collection elements to strings, so "list" means list(string).
            return switch (expr.get(1).text()) {
                case "string" -> List.of(FmtToken.of(TokenType.IDENT, "string"));
                case "list" -> call("list", "string");
                case "map" -> call("map", "string");
                default -> expr;
            };
        }
        return expr;
    }

    private static List<FmtToken> call(String name, String arg) {
        return List.of(
                FmtToken.of(TokenType.IDENT, name),
                FmtToken.of(TokenType.OPAREN, "("),
                FmtToken.of(TokenType.IDENT, arg),
                FmtToken.of(TokenType.CPAREN, ")"));
    }
}
