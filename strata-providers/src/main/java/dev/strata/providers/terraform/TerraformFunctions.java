package dev.strata.providers.terraform;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.GoQuote;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.lang.value.ValueSyntax;
import dev.strata.provider.Provider.CallFunctionRequest;
import dev.strata.provider.Provider.CallFunctionResponse;
import dev.strata.provider.ProviderFunction;
import dev.strata.provider.ProviderFunction.Parameter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The functions of Terraform's built-in provider (Terraform 1.8+), called as
 * {@code provider::terraform::NAME(...)} once a module requires {@code terraform.io/builtin/terraform}:
 * {@code encode_tfvars}, {@code decode_tfvars} and {@code encode_expr}. Their messages are Terraform's.
 */
final class TerraformFunctions {
    /** The file name {@code decode_tfvars} gives its argument in the positions of its messages. */
    private static final String SOURCE_NAME = "<decode_tfvars argument>";

    static final SortedMap<String, ProviderFunction> ALL = functions();

    private TerraformFunctions() {}

    private static SortedMap<String, ProviderFunction> functions() {
        SortedMap<String, ProviderFunction> all = new TreeMap<>();
        all.put(
                "encode_tfvars",
                function(
                        "encode_tfvars",
                        "value",
                        Type.STRING,
                        "Write an object as the content of a `.tfvars` file",
                        "Writes each attribute of an object (or map) as one `NAME = VALUE` line of a `.tfvars` file; "
                                + "every name must be a valid variable name."));
        all.put(
                "decode_tfvars",
                function(
                        "decode_tfvars",
                        "src",
                        Type.STRING,
                        Type.DYNAMIC,
                        "Read the content of a `.tfvars` file",
                        "Reads the text of a `.tfvars` file into an object with one attribute per value it defines, "
                                + "of the most general type its syntax gives (tuples and objects, not lists and maps)."));
        all.put(
                "encode_expr",
                function(
                        "encode_expr",
                        "value",
                        Type.STRING,
                        "Write any value as a Terraform language expression",
                        "Writes a value as the text of a Terraform language expression that evaluates to it, as an "
                                + "HCL-typed variable of an HCP Terraform workspace expects."));
        return java.util.Collections.unmodifiableSortedMap(all);
    }

    /** A function of one parameter of any type. */
    private static ProviderFunction function(
            String name, String parameter, Type returnType, String summary, String description) {
        return function(name, parameter, Type.DYNAMIC, returnType, summary, description);
    }

    private static ProviderFunction function(
            String name, String parameter, Type parameterType, Type returnType, String summary, String description) {
        return new ProviderFunction(
                name,
                List.of(Parameter.of(parameter, parameterType)),
                Optional.empty(),
                returnType,
                summary,
                description);
    }

    /** Calls one of {@link #ALL}; the engine has checked the arguments are known and not null. */
    static CallFunctionResponse call(CallFunctionRequest request) {
        List<Value> args = request.arguments();
        return switch (request.name()) {
            case "encode_tfvars" -> encodeTfvars(args.get(0));
            case "decode_tfvars" -> decodeTfvars(args.get(0).asString());
            case "encode_expr" -> CallFunctionResponse.of(Value.string(ValueSyntax.expression(args.get(0))));
            default ->
                CallFunctionResponse.failed("this provider offers no function named " + GoQuote.quote(request.name()));
        };
    }

    private static CallFunctionResponse encodeTfvars(Value v) {
        if (!(v.type() instanceof ObjectType) && !(v.type() instanceof MapType)) {
            return CallFunctionResponse.failed(
                    "invalid value to encode: must be an object whose attribute names will become the encoded variable names");
        }
        Map<String, Value> attrs = v.attributes();
        for (String name : new TreeMap<>(attrs).keySet()) {
            if (!ValueSyntax.isIdentifier(name)) {
                return CallFunctionResponse.failed("invalid variable name " + GoQuote.quote(name)
                        + ": must be a valid identifier, per Terraform's rules for input variable declarations");
            }
        }
        return CallFunctionResponse.of(Value.string(ValueSyntax.attributes(attrs)));
    }

    private static CallFunctionResponse decodeTfvars(String src) {
        Result<HclFile> parsed = NativeSyntax.parseConfig(src.getBytes(StandardCharsets.UTF_8), SOURCE_NAME);
        if (parsed.hasErrors() || parsed.value() == null) {
            return CallFunctionResponse.failed("invalid tfvars syntax: " + describe(parsed.diagnostics()));
        }
        Result<Map<String, Attribute>> attrs = parsed.value().body().justAttributes();
        if (attrs.hasErrors()) {
            return CallFunctionResponse.failed("invalid tfvars content: " + describe(attrs.diagnostics()));
        }
        Map<String, Value> values = new LinkedHashMap<>();
        List<Attribute> inFileOrder = attrs.value().values().stream()
                .sorted(java.util.Comparator.comparingInt(a -> a.range().start().byteOffset()))
                .toList();
        for (Attribute a : inFileOrder) {
            // As in a .tfvars file: a value may not refer to anything or call a function. The first in the
            // file that fails is reported (Terraform picks one at random).
            Result<Value> v = Evaluator.constant(a.expr());
            if (v.hasErrors()) {
                return CallFunctionResponse.failed("invalid expression for variable " + GoQuote.quote(a.name()) + ": "
                        + describe(v.diagnostics()));
            }
            values.put(a.name(), v.value());
        }
        return CallFunctionResponse.of(Value.object(values));
    }

    /**
     * Problems as HCL words them in one line: the first error with its place, summary and detail, and
     * how many more there were.
     */
    private static String describe(Diagnostics diags) {
        List<Diagnostic> errors =
                diags.asList().stream().filter(Diagnostic::isError).toList();
        Diagnostic first = errors.get(0);
        String one = first.subject() + ": " + first.summary() + "; " + first.detail();
        return errors.size() == 1 ? one : one + ", and " + (errors.size() - 1) + " other diagnostic(s)";
    }
}
