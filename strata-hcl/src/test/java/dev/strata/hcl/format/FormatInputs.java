package dev.strata.hcl.format;

import dev.strata.hcl.syntax.Scanner;
import dev.strata.hcl.syntax.Token;
import dev.strata.hcl.syntax.TokenType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Seeded generators of formatter inputs: whitespace perturbations of real files, and small random
 * configurations that exercise operators, brackets, templates, comments and alignment. Everything
 * generated is meant to be valid HCL that needs none of Terraform's rewrites; callers still check
 * validity, and skip what does not parse.
 */
final class FormatInputs {
    private final Random rnd;
    private int serial;

    FormatInputs(long seed) {
        this.rnd = new Random(seed);
    }

    // ---- perturbation of existing text ----------------------------------------------------------

    /**
     * Re-spaces a file: every gap between tokens outside template text gets a random run of spaces
     * and tabs (possibly none where a gap was not needed, more where there was none), lines get
     * random indentation and trailing blanks, and some blank and comment lines are added.
     */
    String perturb(String text) {
        byte[] src = text.getBytes(StandardCharsets.UTF_8);
        List<Token> tokens = Scanner.scan(src, "p.tf");
        StringBuilder out = new StringBuilder();
        int prevEnd = 0;
        Token prev = null;
        for (Token t : tokens) {
            int start = t.range().start().byteOffset();
            String gap = new String(src, prevEnd, start - prevEnd, StandardCharsets.UTF_8);
            if (gap.isBlank() && mayRespace(prev, t)) {
                gap = randomGap(!canTouch(prev, t), prev, t);
            }
            out.append(gap);
            out.append(t.text());
            // Blank and comment lines go after a newline, never before one: a heredoc's end
            // marker must end its line.
            if (t.type() == TokenType.NEWLINE && rnd.nextInt(12) == 0) {
                out.append(" ".repeat(rnd.nextInt(3))).append('\n');
            }
            if (t.type() == TokenType.NEWLINE && rnd.nextInt(15) == 0) {
                out.append(" ".repeat(rnd.nextInt(6)))
                        .append(rnd.nextBoolean() ? "# note" : "// note ")
                        .append('\n');
            }
            prevEnd = t.range().end().byteOffset();
            prev = t;
        }
        out.append(new String(src, prevEnd, src.length - prevEnd, StandardCharsets.UTF_8));
        return out.toString();
    }

    /** Gaps inside template text or heredoc bodies are content, not layout. */
    private static boolean mayRespace(Token prev, Token next) {
        if (prev == null) {
            return true;
        }
        if (isTemplateText(prev.type()) || isTemplateText(next.type())) {
            return false;
        }
        return switch (prev.type()) {
            case OQUOTE, OHEREDOC, TEMPLATE_SEQ_END -> false;
            default ->
                switch (next.type()) {
                    case CQUOTE, CHEREDOC, TEMPLATE_INTERP, TEMPLATE_CONTROL -> false;
                    default -> true;
                };
        };
    }

    private static boolean isTemplateText(TokenType t) {
        return t == TokenType.QUOTED_LIT || t == TokenType.STRING_LIT;
    }

    /** Whether two tokens may be written with nothing between them and still scan the same. */
    private static boolean canTouch(Token prev, Token next) {
        if (prev == null || prev.type() == TokenType.NEWLINE || prev.type() == TokenType.COMMENT) {
            return true;
        }
        // "a - b" must not become the identifier "a-b".
        return !(wordLike(prev.type()) && (wordLike(next.type()) || next.type() == TokenType.MINUS));
    }

    private static boolean wordLike(TokenType t) {
        return t == TokenType.IDENT || t == TokenType.NUMBER_LIT;
    }

    private String randomGap(boolean mustHaveOne, Token prev, Token next) {
        boolean lineStart = prev == null
                || prev.type() == TokenType.NEWLINE
                || (prev.type() == TokenType.COMMENT && prev.text().endsWith("\n"));
        if (next.type() == TokenType.NEWLINE || next.type() == TokenType.EOF) {
            return rnd.nextInt(4) == 0 ? " ".repeat(1 + rnd.nextInt(3)) : "";
        }
        int n = lineStart ? rnd.nextInt(9) : (mustHaveOne ? 1 : 0) + rnd.nextInt(mustHaveOne ? 3 : 2);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(rnd.nextInt(8) == 0 ? '\t' : ' ');
        }
        return sb.toString();
    }

    // ---- random configurations --------------------------------------------------------------------

    /** A small random configuration file. */
    String config() {
        StringBuilder sb = new StringBuilder();
        int items = 1 + rnd.nextInt(6);
        for (int i = 0; i < items; i++) {
            bodyItem(sb, 0);
        }
        return sb.toString();
    }

    private void bodyItem(StringBuilder sb, int depth) {
        switch (rnd.nextInt(depth < 2 ? 8 : 5)) {
            case 0, 1, 2 ->
                sb.append(uniqueName())
                        .append(sp())
                        .append('=')
                        .append(sp())
                        .append(expr(0))
                        .append(lineEnd());
            case 3 -> sb.append(rnd.nextBoolean() ? "\n" : "# a comment  \n");
            case 4 ->
                sb.append(uniqueName())
                        .append(sp())
                        .append('=')
                        .append(sp())
                        .append(multiLineExpr())
                        .append('\n');
            default -> {
                sb.append(name());
                for (int l = rnd.nextInt(3); l > 0; l--) {
                    sb.append(' ').append('"').append(name()).append('"');
                }
                if (rnd.nextInt(4) == 0) {
                    sb.append(" {")
                            .append(sp())
                            .append(name())
                            .append(" = ")
                            .append(expr(1))
                            .append(sp())
                            .append("}\n");
                    return;
                }
                sb.append(sp()).append("{\n");
                for (int n = rnd.nextInt(5); n > 0; n--) {
                    sb.append(" ".repeat(rnd.nextInt(5)));
                    bodyItem(sb, depth + 1);
                }
                sb.append(" ".repeat(rnd.nextInt(3))).append("}\n");
            }
        }
    }

    private String lineEnd() {
        return switch (rnd.nextInt(6)) {
            case 0 -> " # trailing comment\n";
            case 1 -> sp() + "// c" + "x".repeat(rnd.nextInt(3)) + "\n";
            case 2 -> " /* block */\n";
            default -> sp() + "\n";
        };
    }

    /** An attribute name not used before in this generator, since a body may set each only once. */
    private String uniqueName() {
        return name() + "_" + (++serial);
    }

    private String name() {
        String[] names = {"a", "bb", "name", "instance_type", "x1", "count", "for_each", "tags", "in", "if"};
        return names[rnd.nextInt(names.length)];
    }

    private String sp() {
        return switch (rnd.nextInt(5)) {
            case 0 -> "";
            case 1 -> "  ";
            case 2 -> "\t";
            default -> " ";
        };
    }

    private String expr(int depth) {
        int k = rnd.nextInt(depth > 2 ? 4 : 17);
        return switch (k) {
            case 0 -> String.valueOf(rnd.nextInt(100));
            case 1 -> "var." + name();
            case 2 -> "\"str" + (rnd.nextBoolean() ? "${" + sp() + expr(depth + 1) + sp() + "}" : "") + "\"";
            case 3 -> rnd.nextBoolean() ? "true" : "null";
            case 4 -> expr(depth + 1) + sp() + op() + sp() + expr(depth + 1);
            case 5 -> "-" + sp() + expr(depth + 1);
            case 6 -> "!" + sp() + expr(depth + 1);
            case 7 -> expr(depth + 1) + sp() + "?" + sp() + expr(depth + 1) + sp() + ":" + sp() + expr(depth + 1);
            case 8 -> "f" + sp() + "(" + sp() + args(depth) + sp() + ")";
            case 9 -> "[" + sp() + args(depth) + sp() + "]";
            case 10 ->
                "{" + sp() + (rnd.nextBoolean() ? "" : name() + sp() + "=" + sp() + expr(depth + 1)) + sp() + "}";
            case 11 -> "(" + sp() + expr(depth + 1) + sp() + ")";
            case 12 -> "a" + sp() + "." + sp() + name() + sp() + "[" + sp() + expr(depth + 1) + sp() + "]";
            case 13 -> "a" + sp() + "[" + sp() + "*" + sp() + "]" + sp() + "." + sp() + "id";
            case 14 ->
                "[for" + " x in " + expr(depth + 1) + sp() + ":" + sp() + "x" + (rnd.nextBoolean() ? " if x" : "")
                        + "]";
            case 15 ->
                "{for k, v in " + expr(depth + 1) + sp() + ":" + sp() + "k" + sp() + "=>" + sp() + "v"
                        + (rnd.nextBoolean() ? "..." : "") + "}";
            default -> "\"%{" + sp() + "if " + expr(depth + 1) + sp() + "}y%{" + sp() + "endif" + sp() + "}\"";
        };
    }

    private String args(int depth) {
        StringBuilder sb = new StringBuilder();
        for (int n = rnd.nextInt(4), i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(sp()).append(',').append(sp());
            }
            sb.append(expr(depth + 1));
        }
        return sb.toString();
    }

    private String op() {
        String[] ops = {"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"};
        return ops[rnd.nextInt(ops.length)];
    }

    private String multiLineExpr() {
        return switch (rnd.nextInt(5)) {
            case 0 -> "[\n" + sp() + expr(1) + ",\n" + sp() + expr(1) + sp() + ",\n]";
            case 1 ->
                "{\n" + sp() + name() + " = " + expr(1) + "\n" + sp() + name() + sp() + "=" + sp() + expr(1) + "\n  }";
            case 2 -> "<<" + (rnd.nextBoolean() ? "-" : "") + "EOT\n  body ${" + expr(2) + "}  \n  EOT";
            case 3 -> "f(" + expr(1) + ", [\n" + expr(1) + ",\n])";
            default -> "(\n" + expr(1) + "\n" + sp() + "? 1\n  : 2\n)";
        };
    }
}
