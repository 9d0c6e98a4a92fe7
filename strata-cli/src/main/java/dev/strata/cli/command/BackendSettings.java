package dev.strata.cli.command;

import dev.strata.config.Backend;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a {@code backend} block's settings. As in Terraform, they are constants: a backend is chosen
 * before variables exist, so references are errors. Only the backends and settings Strata
 * implements are accepted; anything else is a diagnostic at its place in the file.
 */
final class BackendSettings {
    private BackendSettings() {}

    private static final Map<String, Set<String>> SUPPORTED = Map.of(
            "local", Set.of(),
            "pg", Set.of("conn_str", "schema_name"));

    static Result<Map<String, Value>> read(Backend backend, Map<String, String> env) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Set<String> allowed = SUPPORTED.get(backend.type());
        if (allowed == null) {
            diags.add(Diagnostic.error("Unsupported backend type",
                    "Strata stores state in the \"local\" and \"pg\" backends; \"" + backend.type()
                            + "\" is not available. Use one of those, or remove the backend block to keep state "
                            + "in terraform.tfstate.", backend.declRange()));
            return Result.of(Map.of(), diags.build());
        }
        Result<Map<String, Attribute>> attrs = backend.config().justAttributes();
        diags.addAll(attrs.diagnostics());
        Map<String, Value> out = new TreeMap<>();
        Evaluator constants = new Evaluator(Scope.empty(TemplateFunctions.builtins(FunctionContext.system(Path.of(".")))));
        for (Attribute a : attrs.value().values()) {
            if (!allowed.contains(a.name())) {
                diags.add(Diagnostic.error("Unsupported backend setting",
                        "The \"" + backend.type() + "\" backend " + (allowed.isEmpty() ? "takes no settings in Strata"
                                : "takes " + String.join(", ", new java.util.TreeSet<>(allowed)))
                                + "; \"" + a.name() + "\" is not supported.", a.nameRange()));
                continue;
            }
            if (!a.expr().variables().isEmpty()) {
                diags.add(Diagnostic.error("Variables not allowed",
                        "Variables may not be used here: the backend is chosen before any variable has a value.",
                        a.expr().range()));
                continue;
            }
            Result<Value> v = constants.evaluate(a.expr());
            diags.addAll(v.diagnostics());
            if (v.hasErrors()) {
                continue;
            }
            ConversionResult s = Convert.convert(v.value(), Type.STRING);
            if (!s.isOk() || s.value().isNull()) {
                diags.add(Diagnostic.error("Invalid backend setting", "\"" + a.name() + "\" must be a string.",
                        a.expr().range()));
                continue;
            }
            out.put(a.name(), s.value());
        }
        return Result.of(out, diags.build());
    }
}
