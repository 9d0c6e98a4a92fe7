package dev.strata.engine;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The evaluated arguments of a provisioner or {@code connection} block, as plain Java values: strings,
 * lists and maps of strings, booleans and numbers. {@code sensitive} is whether any of them came from a
 * sensitive value, which makes every line the provisioner prints be suppressed, as in Terraform.
 */
record ProvisionerArgs(Map<String, Object> values, boolean sensitive, Map<String, SourceRange> ranges) {

    /** The type each argument converts to. */
    enum Kind {
        STRING,
        BOOL,
        NUMBER,
        STRING_LIST,
        STRING_MAP
    }

    String string(String name) {
        return (String) values.get(name);
    }

    @SuppressWarnings("unchecked")
    List<String> list(String name) {
        return (List<String>) values.get(name);
    }

    @SuppressWarnings("unchecked")
    Map<String, String> map(String name) {
        return (Map<String, String>) values.get(name);
    }

    Boolean bool(String name) {
        return (Boolean) values.get(name);
    }

    Integer integer(String name) {
        return (Integer) values.get(name);
    }

    boolean has(String name) {
        return values.get(name) != null;
    }

    /**
     * Evaluates the arguments of {@code bodies} (later bodies override earlier ones attribute by attribute,
     * as a provisioner's {@code connection} overrides the resource's); null when one is invalid (reported).
     */
    static ProvisionerArgs evaluate(
            List<Body> bodies, Map<String, Kind> kinds, Scope scope, Diagnostics.Builder diags) {
        BodySchema schema = new BodySchema(
                kinds.keySet().stream()
                        .map(dev.strata.hcl.AttributeSchema::optional)
                        .toList(),
                List.of());
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        for (Body b : bodies) {
            if (b == null) {
                continue;
            }
            // Unexpected arguments were reported when the configuration was loaded.
            Result<BodyContent> c = b.content(schema);
            attrs.putAll(c.value().attributes());
        }
        Map<String, Object> out = new TreeMap<>();
        Map<String, SourceRange> ranges = new TreeMap<>();
        boolean sensitive = false;
        boolean ok = true;
        for (Map.Entry<String, Attribute> e : attrs.entrySet()) {
            Attribute a = e.getValue();
            Result<Value> r = new Evaluator(scope).evaluate(a.expr());
            diags.addAll(r.diagnostics());
            if (r.hasErrors()) {
                ok = false;
                continue;
            }
            Value v = r.value();
            if (!v.isWhollyKnown()) {
                diags.add(Diagnostic.error(
                        "Invalid provisioner argument",
                        "The value of \"" + e.getKey() + "\" is not known yet: a provisioner's arguments must be "
                                + "known when it runs. Refer only to values that are known after the resources they "
                                + "belong to are applied.",
                        a.expr().range()));
                ok = false;
                continue;
            }
            sensitive |= v.hasMarkDeep(Mark.SENSITIVE);
            ranges.put(e.getKey(), a.expr().range());
            if (v.isNull()) {
                continue;
            }
            Kind kind = kinds.get(e.getKey());
            Type target = switch (kind) {
                case STRING -> Type.STRING;
                case BOOL -> Type.BOOL;
                case NUMBER -> Type.NUMBER;
                case STRING_LIST -> Type.list(Type.STRING);
                case STRING_MAP -> Type.map(Type.STRING);
            };
            ConversionResult cr = Convert.convert(v.unmarkDeep(), target);
            if (cr instanceof ConversionResult.Failed f) {
                diags.add(Diagnostic.error(
                        "Incorrect attribute value type",
                        "Inappropriate value for attribute \"" + e.getKey() + "\": " + f.message() + ".",
                        a.expr().range()));
                ok = false;
                continue;
            }
            Value c = cr.value();
            Object plain = switch (kind) {
                case STRING -> c.asString();
                case BOOL -> c.asBool();
                case NUMBER -> {
                    java.math.BigDecimal d = c.asNumber();
                    try {
                        yield d.intValueExact();
                    } catch (ArithmeticException x) {
                        diags.add(Diagnostic.error(
                                "Incorrect attribute value type",
                                "Inappropriate value for attribute \"" + e.getKey() + "\": a whole number is required.",
                                a.expr().range()));
                        yield null;
                    }
                }
                case STRING_LIST -> {
                    List<String> l = new ArrayList<>();
                    for (Value x : c.elements()) {
                        l.add(x.isNull() ? "" : x.asString());
                    }
                    yield List.copyOf(l);
                }
                case STRING_MAP -> {
                    Map<String, String> m = new TreeMap<>();
                    c.attributes().forEach((k, x) -> m.put(k, x.isNull() ? "" : x.asString()));
                    yield m;
                }
            };
            if (plain == null) {
                ok = false;
                continue;
            }
            out.put(e.getKey(), plain);
        }
        return ok ? new ProvisionerArgs(out, sensitive, ranges) : null;
    }
}
