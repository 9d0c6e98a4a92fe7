package dev.strata.cli.view;

import dev.strata.lang.types.Type;
import dev.strata.provider.ValueJson;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * Output of {@code strata metadata functions -json}: the JSON document of
 * {@code terraform metadata functions -json}, {@code format_version} 1.0 and the signatures by name,
 * types in cty's JSON type notation. Strata's functions carry no descriptions, so those keys are left
 * out, as Terraform leaves out empty ones.
 */
public final class MetadataView {
    private final View view;

    public MetadataView(Terminal terminal) {
        this.view = View.monochrome(terminal);
    }

    /** One parameter; {@code nullable} when the function accepts a null argument for it. */
    public record Parameter(String name, Type type, boolean nullable) {}

    public record Signature(Type returnType, List<Parameter> parameters, Optional<Parameter> variadic) {
        public Signature {
            parameters = List.copyOf(parameters);
        }
    }

    public void functions(SortedMap<String, Signature> signatures) {
        StringBuilder sb = new StringBuilder("{\"format_version\":\"1.0\",\"function_signatures\":{");
        boolean first = true;
        for (Map.Entry<String, Signature> e : signatures.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            Signature s = e.getValue();
            sb.append(Json.quote(e.getKey())).append(":{\"return_type\":").append(ValueJson.typeJson(s.returnType()));
            if (!s.parameters().isEmpty()) {
                sb.append(",\"parameters\":[");
                for (int i = 0; i < s.parameters().size(); i++) {
                    sb.append(i == 0 ? "" : ",");
                    parameter(sb, s.parameters().get(i));
                }
                sb.append(']');
            }
            s.variadic().ifPresent(v -> parameter(sb.append(",\"variadic_parameter\":"), v));
            sb.append('}');
        }
        view.out().println(sb.append("}}"));
        view.out().flush();
    }

    private static void parameter(StringBuilder sb, Parameter p) {
        sb.append("{\"name\":").append(Json.quote(p.name()));
        if (p.nullable()) {
            sb.append(",\"is_nullable\":true");
        }
        sb.append(",\"type\":").append(ValueJson.typeJson(p.type())).append('}');
    }

    /** Terraform's refusal when {@code -json} is missing, with the usage line. */
    public void jsonRequired() {
        view.diagnostic(CliDiagnostic.error(
                "The -json flag is required",
                "The \"strata metadata functions\" command requires the -json flag. "
                        + "Usage: strata [global options] metadata functions -json"));
    }

    public void diagnostics(List<CliDiagnostic> diagnostics) {
        view.diagnostics(diagnostics);
    }
}
