package dev.strata.lang.funcs;

import java.util.Map;
import java.util.TreeMap;

/** Builds the table of Terraform's built-in functions. */
public final class Functions {
    private Functions() {}

    /**
     * All built-in functions that are plain functions of values, bound to {@code ctx} for the file
     * system, the clock and random UUIDs. The evaluator adds the rest: {@code try} and {@code can}
     * ({@link FunctionTable#SPECIAL_FORMS}) and the template functions
     * ({@code dev.strata.lang.eval.TemplateFunctions.builtins}, the complete table).
     */
    public static FunctionTable builtins(FunctionContext ctx) {
        Map<String, Function> m = new TreeMap<>();
        Registry r = f -> {
            if (m.put(f.name(), f) != null) {
                throw new IllegalStateException("function registered twice: " + f.name());
            }
        };
        NumericFuncs.register(r);
        StringFuncs.register(r);
        CollectionFuncs.register(r);
        SetFuncs.register(r);
        EncodingFuncs.register(r);
        FilesystemFuncs.register(r, ctx);
        DateTimeFuncs.register(r, ctx);
        CryptoFuncs.register(r, ctx);
        NetFuncs.register(r);
        ConversionFuncs.register(r);
        return new FunctionTable(m);
    }

    /**
     * The value of JSON text as {@code jsondecode} gives it (objects, tuples, exact numbers), or empty when
     * the text is not JSON: for renderers that show JSON strings as the structure they hold.
     */
    public static java.util.Optional<dev.strata.lang.value.Value> decodeJson(String text) {
        try {
            return java.util.Optional.of(Json.decode(text));
        } catch (FunctionError e) {
            return java.util.Optional.empty();
        }
    }

    /**
     * Reads a file of the configuration as {@code file} does (relative to the base directory, with
     * Terraform's error wording), for functions defined outside this package such as
     * {@code templatefile}. Throws {@link FunctionError} naming argument {@code argIndex}.
     */
    public static byte[] readConfigFile(
            FunctionContext ctx, java.util.List<dev.strata.lang.value.Value> args, int argIndex) {
        return FilesystemFuncs.read(ctx, args, argIndex);
    }

    /** Where the per-area classes put their functions. */
    @FunctionalInterface
    interface Registry {
        void add(Function f);
    }
}
