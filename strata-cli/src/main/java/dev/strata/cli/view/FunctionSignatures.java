package dev.strata.cli.view;

import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.CallResult;
import dev.strata.lang.funcs.Function;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.funcs.Param;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The signatures of every built-in function, as {@code terraform metadata functions -json} describes
 * them: parameters with their types and whether they take null, the variadic parameter, and the result
 * type the function gives for arguments of exactly its parameter types (dynamic where that depends on
 * the values). Diagnostics of a failed call describe the function by the same signature.
 */
public final class FunctionSignatures {
    private FunctionSignatures() {}

    /** The built-ins' signatures, made when a diagnostic first needs one (they do not depend on the directory). */
    private static final class Builtins {
        static final SortedMap<String, MetadataView.Signature> ALL = all(Path.of(""));
    }

    /** The signature of the built-in function {@code name} (as called, {@code core::} or not), if it is one. */
    static Optional<MetadataView.Signature> builtin(String name) {
        return Optional.ofNullable(Builtins.ALL.get(name));
    }

    /**
     * Every built-in, by name and by {@code core::} name: the function table's, plus the two the
     * evaluator implements itself.
     */
    public static SortedMap<String, MetadataView.Signature> all(Path workingDir) {
        FunctionTable table = TemplateFunctions.builtins(FunctionContext.system(workingDir));
        SortedMap<String, MetadataView.Signature> out = new TreeMap<>();
        for (String name : table.names()) {
            out.put(name, of(table.lookup(name).orElseThrow()));
        }
        // can and try take their arguments unevaluated, so they are not Function values; their
        // signatures are those of the evaluator's forms (one expression; any number of them).
        MetadataView.Parameter expression = new MetadataView.Parameter("expression", Type.DYNAMIC, false);
        out.put("can", new MetadataView.Signature(Type.BOOL, List.of(expression), Optional.empty()));
        out.put(
                "try",
                new MetadataView.Signature(
                        Type.DYNAMIC,
                        List.of(),
                        Optional.of(new MetadataView.Parameter("expressions", Type.DYNAMIC, false))));
        // Every built-in can also be called as core::NAME, and Terraform lists it under both names.
        SortedMap<String, MetadataView.Signature> withCore = new TreeMap<>(out);
        out.forEach((name, signature) -> withCore.put("core::" + name, signature));
        return withCore;
    }

    static MetadataView.Signature of(Function f) {
        List<MetadataView.Parameter> params =
                f.params().stream().map(FunctionSignatures::parameter).toList();
        Optional<MetadataView.Parameter> variadic = f.varParam().map(FunctionSignatures::parameter);
        return new MetadataView.Signature(returnType(f), params, variadic);
    }

    private static MetadataView.Parameter parameter(Param p) {
        return new MetadataView.Parameter(p.name(), p.type(), p.allowNull());
    }

    /**
     * The result type for arguments of the parameters' own types (one for the variadic parameter), as
     * Terraform derives it: a type check with unknown arguments; dynamic when the check cannot tell.
     */
    private static Type returnType(Function f) {
        List<Value> args = new ArrayList<>();
        f.params().forEach(p -> args.add(Value.unknown(p.type())));
        f.varParam().ifPresent(p -> args.add(Value.unknown(p.type())));
        return switch (f.typeCheck(args)) {
            case CallResult.Success s -> s.value().type();
            case CallResult.Failure fail -> Type.DYNAMIC;
        };
    }
}
