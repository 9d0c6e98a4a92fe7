package dev.strata.hcl.syntax;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.util.ArrayList;
import java.util.List;

/**
 * Entry points of the native-syntax parser. None of them throws for any input: problems are
 * returned as diagnostics beside a best-effort result.
 */
public final class NativeSyntax {
    private NativeSyntax() {}

    /** Parses a whole {@code .tf} (or {@code .tfvars}) file. */
    public static Result<HclFile> parseConfig(byte[] src, String filename) {
        Diagnostics.Builder diags = Diagnostics.builder();
        SourcePos start = SourcePos.START;
        int startIndex = 0;
        if (src.length >= 3 && (src[0] & 0xff) == 0xef && (src[1] & 0xff) == 0xbb && (src[2] & 0xff) == 0xbf) {
            // Terraform accepts a leading byte order mark; we do too, but say so, since other tools may not.
            diags.add(Diagnostic.warning(
                    "Byte order mark at start of file",
                    "The file starts with a UTF-8 byte order mark, which is ignored. Save the file as UTF-8 without "
                            + "a byte order mark to silence this warning.",
                    new SourceRange(filename, start, new SourcePos(1, 1, 3))));
            start = new SourcePos(1, 1, 3);
            startIndex = 3;
        }
        List<Token> tokens = Scanner.scan(src, filename, start, startIndex, Scanner.Mode.NORMAL);
        Parser p = new Parser(tokens, filename);
        SyntaxBody body = p.parseFile();
        diags.addAll(p.diagnostics());
        return Result.of(new HclFile(filename, src, body), diags.build());
    }

    /**
     * Parses a standalone expression, such as a {@code -var} value or a console line. {@code start} is
     * the position of {@code src}'s first byte in the file named {@code filename}.
     */
    public static Result<Expr> parseExpression(byte[] src, String filename, SourcePos start) {
        List<Token> tokens = Scanner.scan(src, filename, start, Scanner.Mode.NORMAL);
        Parser p = new Parser(tokens, filename);
        Expr e = p.parseEmbedded();
        Diagnostics diags = p.diagnostics();
        Token rest = firstSignificant(tokens, e.range().end().byteOffset());
        if (rest.type() != TokenType.EOF && !diags.hasErrors()) {
            diags = diags.with(Diagnostic.error(
                    "Extra characters after expression",
                    "An expression was successfully parsed, but extra characters were found after it.",
                    rest.range()));
        }
        return Result.of(e, diags);
    }

    /** Parses a bare template, as {@code templatefile} reads a file; {@code start} as for expressions. */
    public static Result<Expr> parseTemplate(byte[] src, String filename, SourcePos start) {
        List<Token> tokens = Scanner.scan(src, filename, start, Scanner.Mode.TEMPLATE);
        Parser p = new Parser(tokens, filename);
        Expr e = new TemplateParser(p).parseBare(start);
        return Result.of(e, p.diagnostics());
    }

    /**
     * Parses a static traversal such as {@code aws_instance.web[0].id} or a {@code -target} address:
     * attribute steps, and index steps with literal keys only.
     */
    public static Result<Traversal> parseTraversal(byte[] src, String filename, SourcePos start) {
        Result<Expr> r = parseExpression(src, filename, start);
        if (r.hasErrors()) {
            return Result.of(null, r.diagnostics());
        }
        Expr e = r.value();
        if (e instanceof Expr.ScopeTraversal s) {
            return Result.of(s.traversal(), r.diagnostics());
        }
        if (e instanceof Expr.Splat sp
                && sp.source() instanceof Expr.ScopeTraversal s
                && sp.each() instanceof Expr.AnonSymbol) {
            List<Traverser> steps = new ArrayList<>(s.traversal().steps());
            steps.add(new Traverser.Splat(sp.markerRange()));
            return Result.of(new Traversal(steps), r.diagnostics());
        }
        return Result.of(
                null,
                Diagnostics.of(Diagnostic.error(
                        "Invalid reference",
                        "A static reference is required here: a name followed by attribute accesses and indexes with "
                                + "constant keys. No function calls, operators or templates are allowed.",
                        e.range())));
    }

    private static Token firstSignificant(List<Token> tokens, int fromByte) {
        for (Token t : tokens) {
            if (t.range().start().byteOffset() < fromByte) {
                continue;
            }
            if (t.type() == TokenType.NEWLINE || t.type() == TokenType.COMMENT) {
                continue;
            }
            return t;
        }
        return tokens.get(tokens.size() - 1);
    }
}
