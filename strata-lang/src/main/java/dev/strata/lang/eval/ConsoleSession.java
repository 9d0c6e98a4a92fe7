package dev.strata.lang.eval;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Nesting;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.ExprWalk;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.hcl.syntax.Scanner;
import dev.strata.hcl.syntax.Token;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The language side of {@code strata console}: decides when typed input forms a whole expression,
 * evaluates it in a scope, and renders the result exactly as {@code terraform console} does,
 * including the console-only {@code type()} function at the top level.
 */
public final class ConsoleSession {
    /** The name diagnostics give to console input, as Terraform's console does. */
    public static final String INPUT_NAME = "<console-input>";

    private final Evaluator evaluator;

    public ConsoleSession(Scope scope) {
        this.evaluator = new Evaluator(scope);
    }

    /**
     * True when {@code text} needs more lines: a bracket, brace, parenthesis, interpolation or
     * heredoc is still open. Errors are not judged here; a complete but wrong input is evaluated
     * and reported.
     */
    public static boolean needsMoreInput(String text) {
        List<Token> tokens = Scanner.scan(text.getBytes(StandardCharsets.UTF_8), INPUT_NAME);
        int depth = 0;
        int heredocs = 0;
        for (Token t : tokens) {
            switch (t.type()) {
                case OBRACE, OBRACK, OPAREN, TEMPLATE_INTERP, TEMPLATE_CONTROL -> depth++;
                case CBRACE, CBRACK, CPAREN, TEMPLATE_SEQ_END -> depth--;
                case OHEREDOC -> heredocs++;
                case CHEREDOC -> heredocs--;
                default -> {}
            }
        }
        return depth > 0 || heredocs > 0;
    }

    /** Evaluates one complete input; the value is the text to print (without a final newline). */
    public Result<String> evaluate(String text) {
        // Parsing, evaluating and rendering all recurse once per nesting level of the input or its
        // value; a deep stack lets each of them reach Nesting.MAX_DEPTH wherever the console runs.
        return Nesting.onDeepStack(() -> evaluateHere(text));
    }

    private Result<String> evaluateHere(String text) {
        byte[] src = text.getBytes(StandardCharsets.UTF_8);
        Result<Expr> parsed = NativeSyntax.parseExpression(src, INPUT_NAME, SourcePos.START);
        if (parsed.hasErrors()) {
            return Result.of("", parsed.diagnostics());
        }
        Expr e = parsed.value();
        boolean typeOf = e instanceof Expr.FunctionCall f && f.name().equals("type");
        if (typeOf) {
            Expr.FunctionCall f = (Expr.FunctionCall) e;
            // The same arity errors as any other call: type is a function to the user.
            if (f.args().isEmpty()) {
                return Result.of(
                        "",
                        Diagnostics.of(Diagnostic.error(
                                "Not enough function arguments",
                                "Function \"type\" expects 1 argument(s). Missing value for \"value\".",
                                f.closeParenRange(),
                                f.range())));
            }
            if (f.args().size() > 1) {
                return Result.of(
                        "",
                        Diagnostics.of(Diagnostic.error(
                                "Too many function arguments",
                                "Function \"type\" expects only 1 argument(s).",
                                f.args().get(1).startRange(),
                                f.range())));
            }
            if (f.expandFinal()) {
                return Result.of(
                        "",
                        Diagnostics.of(Diagnostic.error(
                                "Invalid function argument",
                                "The type function takes exactly one argument: the expression whose type to show.",
                                f.range())));
            }
            e = f.args().get(0);
        }
        Diagnostics nested = nestedTypeCalls(e);
        if (!nested.isEmpty()) {
            return Result.of("", nested);
        }
        Result<Value> r = evaluator.evaluate(e);
        Diagnostics diags = parsed.diagnostics().with(r.diagnostics());
        if (r.hasErrors()) {
            return Result.of("", diags);
        }
        String out = typeOf ? r.value().type().consoleTypeString() : ConsoleFormat.render(r.value());
        return Result.of(out, diags);
    }

    /** {@code type()} anywhere but the top level is an error, as in Terraform's console. */
    private static Diagnostics nestedTypeCalls(Expr e) {
        Diagnostics.Builder out = Diagnostics.builder();
        findTypeCalls(e, out);
        return out.build();
    }

    private static void findTypeCalls(Expr e, Diagnostics.Builder out) {
        if (e instanceof Expr.FunctionCall f && f.name().equals("type")) {
            out.add(Diagnostic.error(
                    "Invalid use of type function",
                    "The console-only \"type\" function cannot "
                            + "be used as part of a larger expression: use it alone, as type(expression).",
                    f.range()));
        }
        ExprWalk.children(e).forEach(c -> findTypeCalls(c, out));
    }
}
