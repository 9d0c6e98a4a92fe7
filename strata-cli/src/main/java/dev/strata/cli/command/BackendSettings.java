package dev.strata.cli.command;

import dev.strata.config.Backend;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
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
import java.util.List;
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
            "local", Set.of("path", "workspace_dir"),
            "pg", Set.of("conn_str", "schema_name"),
            "s3", dev.strata.state.S3Settings.names(),
            "http", dev.strata.state.HttpSettings.names());

    /** Settings terraform 1.11's backend of the type takes that Strata's does not implement. */
    private static final Map<String, Set<String>> TERRAFORM_ONLY =
            Map.of("pg", Set.of("skip_index_creation", "skip_schema_creation", "skip_table_creation"));

    /** The settings a backend type takes, or null for a type Strata does not implement. */
    static Set<String> allowed(String type) {
        return SUPPORTED.get(type);
    }

    /** The backend the block describes, as a spec (its settings as strings). Null value after errors. */
    static Result<BackendSpec> spec(Backend backend) {
        Result<Map<String, Value>> r = read(backend, Map.of());
        if (r.hasErrors()) {
            return Result.of(null, r.diagnostics());
        }
        Map<String, String> settings = new TreeMap<>();
        r.value().forEach((k, v) -> settings.put(k, v.asString()));
        return Result.of(new BackendSpec(backend.type(), settings), r.diagnostics());
    }

    /**
     * {@code -backend-config} arguments, as {@code terraform init} takes them: {@code KEY=VALUE}, or the
     * path of a file of {@code KEY = VALUE} attributes (a {@code .tfbackend} file). Later ones win.
     */
    static Result<Map<String, String>> overrides(String type, List<String> args, CommandContext context) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Map<String, String> out = new TreeMap<>();
        Set<String> allowed = SUPPORTED.getOrDefault(type, Set.of());
        Evaluator constants =
                new Evaluator(Scope.empty(TemplateFunctions.builtins(FunctionContext.system(context.workingDir()))));
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq >= 0) {
                String key = arg.substring(0, eq).strip();
                if (!allowed.contains(key)) {
                    diags.add(unexpected(key));
                    continue;
                }
                out.put(key, arg.substring(eq + 1));
                continue;
            }
            Path file = context.resolve(arg);
            byte[] bytes;
            try {
                bytes = java.nio.file.Files.readAllBytes(file);
            } catch (java.io.IOException e) {
                diags.add(Diagnostic.error(
                        "Invalid backend configuration file",
                        "The backend configuration file \"" + arg + "\" given on the command line could not be read: "
                                + IoProblems.reason(e) + ".",
                        null));
                continue;
            }
            Result<dev.strata.hcl.HclFile> parsed = arg.endsWith(".json")
                    ? dev.strata.hcl.json.JsonSyntax.parse(bytes, arg)
                    : dev.strata.hcl.syntax.NativeSyntax.parseConfig(bytes, arg);
            diags.addAll(parsed.diagnostics());
            if (parsed.hasErrors()) {
                continue;
            }
            // A file's settings are decoded as the block's are: "Unsupported argument" at an unknown name.
            for (Attribute a : decoded(parsed.value().body(), type, allowed, diags)) {
                Value v = stringValue(constants, a, diags);
                if (v != null) {
                    out.put(a.name(), v.asString());
                }
            }
        }
        return Result.of(out, diags.build());
    }

    /** A {@code -backend-config KEY=VALUE} the backend does not take, in terraform 1.11's words. */
    private static Diagnostic unexpected(String key) {
        return Diagnostic.error(
                "Invalid backend configuration argument",
                "The backend configuration argument \"" + key
                        + "\" given on the command line is not expected for the selected backend type.",
                null);
    }

    /**
     * The settings of {@code body} (a backend block's, a {@code .tfbackend} file's) that Strata's backend of
     * {@code type} takes, by name. Decoded against the backend's schema, as Terraform decodes them: a name
     * the backend does not take is "Unsupported argument" (with a suggestion when one is close), a block
     * "Unsupported block type"; a setting Terraform's backend takes and Strata's does not is said to be so.
     */
    private static java.util.Collection<Attribute> decoded(
            dev.strata.hcl.Body body, String type, Set<String> allowed, Diagnostics.Builder diags) {
        Set<String> unimplemented = TERRAFORM_ONLY.getOrDefault(type, Set.of());
        List<AttributeSchema> schema = new java.util.ArrayList<>();
        for (String name : new java.util.TreeSet<>(allowed)) {
            schema.add(AttributeSchema.optional(name));
        }
        for (String name : new java.util.TreeSet<>(unimplemented)) {
            schema.add(AttributeSchema.optional(name));
        }
        Result<BodyContent> content = body.content(new BodySchema(schema, List.of()));
        diags.addAll(content.diagnostics());
        Map<String, Attribute> out = new TreeMap<>();
        for (Attribute a : new TreeMap<>(content.value().attributes()).values()) {
            if (!allowed.contains(a.name())) {
                diags.add(Diagnostic.error(
                        "Unsupported backend setting",
                        "The \"" + type + "\" backend takes " + String.join(", ", new java.util.TreeSet<>(allowed))
                                + " in Strata; \"" + a.name() + "\" is not supported.",
                        a.nameRange()));
                continue;
            }
            out.put(a.name(), a);
        }
        return out.values();
    }

    private static Value stringValue(Evaluator constants, Attribute a, Diagnostics.Builder diags) {
        if (!a.expr().variables().isEmpty()) {
            diags.add(Diagnostic.error(
                    "Variables not allowed",
                    "Variables may not be used here: the backend is chosen before any variable has a value.",
                    a.expr().range()));
            return null;
        }
        Result<Value> v = constants.evaluate(a.expr());
        diags.addAll(v.diagnostics());
        if (v.hasErrors()) {
            return null;
        }
        if (v.value().isKnownAndNotNull()
                && !v.value().type().isPrimitive()
                && !v.value().type().equals(Type.DYNAMIC)) {
            // endpoints = { s3 = "..." }, shared_credentials_files = [...]: kept as JSON text.
            return Value.string(dev.strata.provider.ValueJson.encode(
                    v.value().unmarkDeep(), v.value().type()));
        }
        ConversionResult s = Convert.convert(v.value(), Type.STRING);
        if (!s.isOk() || s.value().isNull()) {
            diags.add(Diagnostic.error(
                    "Invalid backend setting",
                    "\"" + a.name() + "\" must be a string.",
                    a.expr().range()));
            return null;
        }
        return s.value();
    }

    static Result<Map<String, Value>> read(Backend backend, Map<String, String> env) {
        Diagnostics.Builder diags = Diagnostics.builder();
        Set<String> allowed = SUPPORTED.get(backend.type());
        if (allowed == null) {
            diags.add(Diagnostic.error(
                    "Unsupported backend type",
                    "Strata stores state in the \"local\", \"pg\", \"s3\" and \"http\" backends; \"" + backend.type()
                            + "\" is not available. Use one of those, or remove the backend block to keep state "
                            + "in terraform.tfstate.",
                    backend.declRange()));
            return Result.of(Map.of(), diags.build());
        }
        Map<String, Value> out = new TreeMap<>();
        Evaluator constants =
                new Evaluator(Scope.empty(TemplateFunctions.builtins(FunctionContext.system(Path.of(".")))));
        for (Attribute a : decoded(backend.config(), backend.type(), allowed, diags)) {
            Value s = stringValue(constants, a, diags);
            if (s == null) {
                continue;
            }
            out.put(a.name(), s);
        }
        return Result.of(out, diags.build());
    }
}
