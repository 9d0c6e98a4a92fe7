package dev.strata.provider;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * Schema-aware operations on object values: making a value conform to a block's type, checking a
 * configuration against the block's rules, and marking the attributes the schema declares
 * sensitive.
 */
public final class SchemaValues {

    private SchemaValues() {}

    /** A value with the problems found while producing it; the value is usable even with errors. */
    public record Coerced(Value value, ProviderDiagnostics diagnostics) {}

    /**
     * Converts an object (which may leave attributes and blocks out) to the block's implied type:
     * missing attributes become null, missing blocks null or empty, each attribute is converted to
     * its declared type with Terraform's conversion rules, and attributes the schema does not
     * declare are reported.
     */
    public static Coerced coerce(Block schema, Value object) {
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        Value v = coerce(schema, object, AttributePath.ROOT, diags);
        return new Coerced(v, diags.build());
    }

    private static Value coerce(Block schema, Value object, AttributePath path, ProviderDiagnostics.Builder diags) {
        if (object.isNull()) {
            return Value.nullValue(schema.impliedType()).withMarks(object.marks());
        }
        if (!object.isKnown()) {
            return Value.unknown(schema.impliedType()).withMarks(object.marks());
        }
        if (!(object.type() instanceof ObjectType)) {
            diags.error("Incorrect value type", "An object is required here.", path);
            return Value.unknown(schema.impliedType());
        }
        Map<String, Value> in = object.attributes();
        for (String name : in.keySet()) {
            if (schema.attribute(name) == null && schema.blockType(name) == null) {
                diags.error(
                        "Unsupported argument",
                        "An argument named \"" + name + "\" is not expected here.",
                        path.attr(name));
            }
        }
        Map<String, Value> out = new TreeMap<>();
        schema.attributes().forEach((name, attr) -> {
            Value v = in.get(name);
            if (v == null) {
                out.put(name, Value.nullValue(attr.type()));
                return;
            }
            switch (Convert.convert(v, attr.type())) {
                case ConversionResult.Ok ok -> out.put(name, ok.value());
                case ConversionResult.Failed f -> {
                    diags.error(
                            "Incorrect attribute value type",
                            "Inappropriate value for attribute \"" + name + "\": " + f.message() + ".",
                            path.attr(name));
                    out.put(name, Value.unknown(attr.type()));
                }
            }
        });
        schema.blockTypes().forEach((name, nb) -> {
            Value v = in.get(name);
            AttributePath bp = path.attr(name);
            if (v == null || v.isNull()) {
                out.put(name, Block.emptyNested(nb));
                return;
            }
            Block b = nb.block();
            if (!v.isKnown()) {
                out.put(name, Value.unknown(Block.nestedType(nb)));
                return;
            }
            switch (nb.nesting()) {
                case SINGLE -> out.put(name, coerce(b, v, bp, diags));
                case LIST, SET -> {
                    if (!(v.type() instanceof dev.strata.lang.types.ListType
                            || v.type() instanceof dev.strata.lang.types.SetType
                            || v.type() instanceof dev.strata.lang.types.TupleType)) {
                        diags.error("Incorrect value type", "A list of \"" + name + "\" blocks is required here.", bp);
                        out.put(name, Value.unknown(Block.nestedType(nb)));
                        return;
                    }
                    List<Value> els = new ArrayList<>();
                    int i = 0;
                    for (Value e : v.elements()) {
                        els.add(coerce(b, e, bp.index(i++), diags));
                    }
                    out.put(
                            name,
                            nb.nesting() == NestingMode.LIST
                                    ? Value.list(b.impliedType(), els)
                                    : Value.set(b.impliedType(), els));
                }
                case MAP -> {
                    if (!(v.type() instanceof ObjectType) && !(v.type() instanceof dev.strata.lang.types.MapType)) {
                        diags.error("Incorrect value type", "A map of \"" + name + "\" blocks is required here.", bp);
                        out.put(name, Value.unknown(Block.nestedType(nb)));
                        return;
                    }
                    Map<String, Value> els = new TreeMap<>();
                    v.attributes().forEach((k, e) -> els.put(k, coerce(b, e, bp.key(k), diags)));
                    out.put(name, Value.map(b.impliedType(), els));
                }
            }
        });
        return Value.object(out).withMarks(object.marks());
    }

    /**
     * Checks a configuration object against the block's rules, as Terraform does when it decodes
     * a body: required arguments present, computed-only attributes not set, the number of nested
     * blocks within limits, and a warning for each deprecated argument that is set.
     */
    public static ProviderDiagnostics checkConfig(Block schema, Value config) {
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        checkConfig(schema, config, AttributePath.ROOT, diags);
        return diags.build();
    }

    private static void checkConfig(Block schema, Value config, AttributePath path, ProviderDiagnostics.Builder diags) {
        if (!config.isKnownAndNotNull()) {
            return;
        }
        Map<String, Value> attrs = config.attributes();
        schema.attributes().forEach((name, attr) -> {
            Value v = attrs.get(name);
            boolean set = v != null && !(v.isKnown() && v.isNull());
            if (attr.required() && !set) {
                diags.error(
                        "Missing required argument",
                        "The argument \"" + name + "\" is required, but no definition was found.",
                        path.attr(name));
            }
            if (attr.computedOnly() && set) {
                diags.error(
                        "Invalid configuration",
                        "Can't configure a value for \"" + name + "\": its value will be decided automatically"
                                + " based on the result of applying this configuration.",
                        path.attr(name));
            }
            if (attr.deprecated() && set) {
                diags.add(ProviderDiagnostic.warning(
                        "Argument is deprecated",
                        "The argument \"" + name + "\" is deprecated."
                                + (attr.description().isEmpty() ? "" : " " + attr.description()),
                        path.attr(name)));
            }
        });
        schema.blockTypes().forEach((name, nb) -> {
            Value v = attrs.get(name);
            AttributePath bp = path.attr(name);
            if (v == null || !v.isKnown()) {
                return;
            }
            int count = v.isNull()
                    ? 0
                    : switch (nb.nesting()) {
                        case SINGLE -> 1;
                        case LIST, SET, MAP -> v.length();
                    };
            if (count < nb.minItems()) {
                diags.error(
                        nb.minItems() == 1 && nb.nesting() != NestingMode.MAP
                                ? "Missing required block"
                                : "Insufficient " + name + " blocks",
                        "At least " + nb.minItems() + " \"" + name + "\" block" + (nb.minItems() == 1 ? " is" : "s are")
                                + " required.",
                        bp);
            }
            if (nb.maxItems() > 0 && count > nb.maxItems()) {
                diags.error(
                        "Too many " + name + " blocks",
                        "No more than " + nb.maxItems() + " \"" + name + "\" block"
                                + (nb.maxItems() == 1 ? " is" : "s are") + " allowed.",
                        bp);
            }
            if (v.isNull()) {
                return;
            }
            switch (nb.nesting()) {
                case SINGLE -> checkConfig(nb.block(), v, bp, diags);
                case LIST, SET -> {
                    int i = 0;
                    for (Value e : v.elements()) {
                        checkConfig(nb.block(), e, bp.index(i++), diags);
                    }
                }
                case MAP -> v.attributes().forEach((k, e) -> checkConfig(nb.block(), e, bp.key(k), diags));
            }
        });
    }

    /** The object with a sensitive mark on every attribute the schema declares sensitive, at any depth. */
    public static Value markSensitive(Block schema, Value object) {
        if (!object.isKnownAndNotNull() || !schema.hasSensitive()) {
            return object; // most schemas have none: nothing to rebuild (3-4 % of a large plan did)
        }
        return rewrite(schema, object, (attr, v) -> attr.sensitive() ? v.mark(Mark.SENSITIVE) : v, Block::hasSensitive);
    }

    /**
     * {@code object} with every write-only attribute, at any depth, set to null: what a plan or state
     * may keep of a configuration or of a provider's answer.
     */
    public static Value nullWriteOnly(Block schema, Value object) {
        if (!object.isKnownAndNotNull() || !schema.hasWriteOnly()) {
            return object;
        }
        return rewrite(
                schema,
                object,
                (attr, v) -> {
                    if (!attr.writeOnly()) {
                        return v;
                    }
                    // The value goes, its sensitivity stays: Terraform's plan JSON lists a sensitive write-only
                    // attribute in after_sensitive although it is null.
                    Value nulled = Value.nullValue(attr.type());
                    return v.marks().contains(Mark.SENSITIVE) ? nulled.mark(Mark.SENSITIVE) : nulled;
                },
                Block::hasWriteOnly);
    }

    /**
     * {@code object} with {@code attribute} applied to each attribute the schema declares, and the same
     * rewrite applied to the objects of each nested block whose schema {@code descend} accepts; a nested
     * block's collection keeps its marks.
     */
    private static Value rewrite(
            Block schema, Value object, BiFunction<Attribute, Value, Value> attribute, Predicate<Block> descend) {
        if (!object.isKnownAndNotNull()) {
            return object;
        }
        Map<String, Value> in = object.attributes();
        Map<String, Value> out = new TreeMap<>(in);
        schema.attributes().forEach((name, attr) -> {
            Value v = in.get(name);
            if (v != null) {
                out.put(name, attribute.apply(attr, v));
            }
        });
        schema.blockTypes().forEach((name, nb) -> {
            Value v = in.get(name);
            Block b = nb.block();
            if (v == null || !v.isKnownAndNotNull() || !descend.test(b)) {
                return;
            }
            out.put(
                    name,
                    switch (nb.nesting()) {
                        case SINGLE -> rewrite(b, v, attribute, descend);
                        case LIST ->
                            Value.list(
                                            b.impliedType(),
                                            v.elements().stream()
                                                    .map(e -> rewrite(b, e, attribute, descend))
                                                    .toList())
                                    .withMarks(v.marks());
                        case SET ->
                            Value.set(
                                            b.impliedType(),
                                            v.elements().stream()
                                                    .map(e -> rewrite(b, e, attribute, descend))
                                                    .toList())
                                    .withMarks(v.marks());
                        case MAP -> {
                            Map<String, Value> m = new TreeMap<>();
                            v.attributes().forEach((k, e) -> m.put(k, rewrite(b, e, attribute, descend)));
                            yield Value.map(b.impliedType(), m).withMarks(v.marks());
                        }
                    });
        });
        return Value.object(out).withMarks(object.marks());
    }
}
