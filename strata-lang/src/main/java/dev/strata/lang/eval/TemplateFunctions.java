package dev.strata.lang.eval;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.Function;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionError;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.funcs.Functions;
import dev.strata.lang.funcs.Param;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code templatefile} and {@code templatestring}: they render a template with the evaluator, in a
 * scope that holds only the given variables and the other built-in functions.
 */
public final class TemplateFunctions {
    private TemplateFunctions() {}

    /** The complete function table: the built-ins plus the template functions. */
    public static FunctionTable builtins(FunctionContext ctx) {
        return with(Functions.builtins(ctx), ctx);
    }

    /**
     * The complete function table for planning: as {@link #builtins}, but {@code bcrypt},
     * {@code timestamp} and {@code uuid} give unknown values (also inside templates), as in
     * Terraform, where they are known only once applying.
     */
    public static FunctionTable planning(FunctionContext ctx) {
        return with(Functions.builtins(ctx).pureOnly(), ctx);
    }

    /** {@code base} with {@code templatefile} and {@code templatestring} added. */
    public static FunctionTable with(FunctionTable base, FunctionContext ctx) {
        // Inside a template the template functions are not available: recursion is not allowed.
        FunctionTable inner = base.without("templatefile").without("templatestring");
        Function templatefile = Function.builder("templatefile")
                .param("path", Type.STRING)
                .param(Param.of("vars", Type.DYNAMIC).rejectingDynamicType())
                .returns(Type.DYNAMIC)
                .impl((args, rt) -> {
                    String path = args.get(0).asString();
                    byte[] src = Functions.readConfigFile(ctx, args, 0);
                    return render(src, path, args.get(1), inner);
                })
                .build();
        Function templatestring = Function.builder("templatestring")
                .param("template", Type.STRING)
                .param(Param.of("vars", Type.DYNAMIC).rejectingDynamicType())
                .returns(Type.STRING)
                .impl((args, rt) -> {
                    Value v = render(
                            args.get(0).asString().getBytes(StandardCharsets.UTF_8),
                            "<templatestring>",
                            args.get(1),
                            inner);
                    // Unlike templatefile, the result is always a string, even of a lone interpolation.
                    ConversionResult s = Convert.convert(v, Type.STRING);
                    if (!s.isOk()) {
                        throw FunctionError.call("invalid template result: string required");
                    }
                    return s.value();
                })
                .build();
        return base.with(templatefile).with(templatestring);
    }

    private static Value render(byte[] src, String name, Value vars, FunctionTable functions) {
        if (vars.isNull() || !(vars.type() instanceof MapType || vars.type() instanceof ObjectType)) {
            throw FunctionError.arg(1, "invalid value for \"vars\" parameter: a map or object is required");
        }
        Map<String, Value> values = vars.attributes();
        Result<Expr> parsed = NativeSyntax.parseTemplate(src, name, SourcePos.START);
        if (parsed.hasErrors()) {
            throw FunctionError.call(describe(parsed.diagnostics()));
        }
        String[] missing = new String[1];
        Scope scope = new Scope() {
            @Override
            public Result<Resolved> resolve(Traversal t) {
                Value v = values.get(t.rootName());
                if (v == null) {
                    String message =
                            "vars map does not contain key \"" + t.rootName() + "\", referenced at " + t.rootRange();
                    if (missing[0] == null) {
                        missing[0] = message;
                    }
                    return Result.of(
                            new Resolved(Value.DYNAMIC_UNKNOWN, 1),
                            Diagnostics.of(Diagnostic.error("Invalid reference", message + ".", t.rootRange())));
                }
                return Result.of(new Resolved(v, 1));
            }

            @Override
            public FunctionTable functions() {
                return functions;
            }
        };
        Result<Value> r = new Evaluator(scope).evaluate(parsed.value());
        if (missing[0] != null) {
            // A template's variables are the vars argument's job, so Terraform blames that argument.
            throw FunctionError.argRevealing(1, missing[0]);
        }
        if (r.hasErrors()) {
            throw FunctionError.call(describe(r.diagnostics()));
        }
        return r.value();
    }

    private static String describe(Diagnostics ds) {
        return ds.asList().stream()
                .filter(Diagnostic::isError)
                .map(d -> (d.subject() == null ? "" : d.subject() + ": ")
                        + d.summary()
                        + (d.detail().isEmpty() ? "" : "; " + d.detail()))
                .collect(Collectors.joining("\n"));
    }
}
