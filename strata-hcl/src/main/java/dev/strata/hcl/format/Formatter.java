package dev.strata.hcl.format;

import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.hcl.syntax.Scanner;
import dev.strata.hcl.syntax.SyntaxBody;
import dev.strata.hcl.syntax.Token;
import dev.strata.hcl.syntax.TokenType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The canonical formatter: byte for byte what {@code terraform fmt} writes for a {@code .tf} or
 * {@code .tfvars} file.
 *
 * <pre>{@code
 * Result<byte[]> r = Formatter.format(Files.readAllBytes(path), "main.tf");
 * if (!r.hasErrors() && !Arrays.equals(r.value(), original)) { ... write r.value() ... }
 * }</pre>
 *
 * <p>Only a file that parses is formatted: reformatting a broken file could scramble it beyond
 * what the user can undo. For such a file the result holds the input unchanged plus the syntax
 * errors, as {@code terraform fmt} reports them.
 */
public final class Formatter {
    private Formatter() {}

    /**
     * Formats one native-syntax file. The value is the formatted bytes (equal to {@code src} when
     * it is already canonical), or {@code src} itself when the diagnostics have errors.
     */
    public static Result<byte[]> format(byte[] src, String filename) {
        Result<HclFile> parsed = NativeSyntax.parseConfig(src, filename);
        if (parsed.hasErrors()) {
            return Result.of(src, parsed.diagnostics());
        }
        Lexed lexed = lex(src, filename);
        List<FmtToken> tokens = TerraformRewrites.apply(lexed.tokens, lexed.starts, lexed.ends, (SyntaxBody)
                parsed.value().body());
        return Result.of(Layout.format(tokens, lexed.trailingSpaces), parsed.diagnostics());
    }

    /**
     * What {@code terraform fmt -} prints for formatted standard input: the text with a final
     * newline when it lacks one. (Files are written without adding one.)
     */
    public static byte[] forStandardOutput(byte[] formatted) {
        if (formatted.length > 0 && formatted[formatted.length - 1] == '\n') {
            return formatted;
        }
        byte[] out = Arrays.copyOf(formatted, formatted.length + 1);
        out[formatted.length] = '\n';
        return out;
    }

    /**
     * HCL's own canonical layout without Terraform's rewrites (what {@code hclwrite.Format} does), for
     * input known to be syntactically valid.
     */
    static byte[] layout(byte[] src) {
        Lexed lexed = lex(src, "");
        return Layout.format(lexed.tokens, lexed.trailingSpaces);
    }

    /** The formatter's view of the tokens, with their source byte ranges. */
    private record Lexed(List<FmtToken> tokens, int[] starts, int[] ends, int trailingSpaces) {}

    private static Lexed lex(byte[] src, String filename) {
        // A byte order mark is dropped: it is not part of the text, and the formatted file has none.
        boolean bom = hasBom(src);
        SourcePos start = bom ? new SourcePos(1, 1, 3) : SourcePos.START;
        List<Token> scanned = Scanner.scan(src, filename, start, bom ? 3 : 0, Scanner.Mode.NORMAL);
        List<FmtToken> tokens = new ArrayList<>(scanned.size());
        int[] starts = new int[scanned.size()];
        int[] ends = new int[scanned.size()];
        int lastEnd = start.byteOffset();
        for (Token t : scanned) {
            if (t.type() == TokenType.EOF) {
                break;
            }
            int s = t.range().start().byteOffset();
            int e = t.range().end().byteOffset();
            starts[tokens.size()] = s;
            ends[tokens.size()] = e;
            tokens.add(new FmtToken(t.type(), Arrays.copyOfRange(src, s, e)));
            lastEnd = e;
        }
        return new Lexed(tokens, starts, ends, src.length - lastEnd);
    }

    private static boolean hasBom(byte[] src) {
        return src.length >= 3 && (src[0] & 0xff) == 0xef && (src[1] & 0xff) == 0xbb && (src[2] & 0xff) == 0xbf;
    }
}
