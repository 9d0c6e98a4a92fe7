package dev.strata.tfplugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.tfplugin.ProviderSchema.Attribute;
import dev.strata.tfplugin.ProviderSchema.Block;
import dev.strata.tfplugin.ProviderSchema.FunctionParameter;
import dev.strata.tfplugin.ProviderSchema.FunctionSignature;
import dev.strata.tfplugin.ProviderSchema.NestedAttributes;
import dev.strata.tfplugin.ProviderSchema.NestedBlock;
import dev.strata.tfplugin.ProviderSchema.NestingMode;
import dev.strata.tfplugin.ProviderSchema.Schema;
import dev.strata.tfplugin.wire.TypeJson;
import dev.strata.tfplugin.wire.WireFormatException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A provider's schema in the JSON form of {@code terraform providers schema -json} (one entry of its
 * {@code provider_schemas} object), and back. Fields are written exactly when Terraform writes them:
 * flags and descriptions only when set, {@code description_kind} on every block and attribute,
 * schema {@code version} always. The same form is the on-disk schema cache ({@link SchemaCache}).
 */
public final class SchemaJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private SchemaJson() {}

    /** The {@code provider_schemas} entry for one provider. */
    public static ObjectNode write(ProviderSchema s) {
        ObjectNode o = NODES.objectNode();
        o.set("provider", schema(s.provider()));
        putSchemas(o, "resource_schemas", s.resourceSchemas());
        putSchemas(o, "data_source_schemas", s.dataSourceSchemas());
        putSchemas(o, "ephemeral_resource_schemas", s.ephemeralResourceSchemas());
        if (!s.functions().isEmpty()) {
            ObjectNode fns = o.putObject("functions");
            s.functions().forEach((n, f) -> fns.set(n, function(f)));
        }
        return o;
    }

    private static void putSchemas(ObjectNode o, String key, SortedMap<String, Schema> schemas) {
        if (!schemas.isEmpty()) {
            ObjectNode m = o.putObject(key);
            schemas.forEach((n, sc) -> m.set(n, schema(sc)));
        }
    }

    /**
     * A built-in provider's SPI schema and functions in the same form, except that, as Terraform shows its
     * built-in provider, a provider with nothing to configure has no {@code block}.
     */
    public static ObjectNode write(
            dev.strata.provider.ProviderSchema s, SortedMap<String, dev.strata.provider.ProviderFunction> functions) {
        ProviderSchema converted = SpiSchemas.fromSpi(s, functions);
        ObjectNode o = write(converted);
        Block config = converted.provider().block();
        if (config.attributes().isEmpty() && config.blockTypes().isEmpty()) {
            ((ObjectNode) o.get("provider")).remove("block");
        }
        return o;
    }

    static ObjectNode schema(Schema s) {
        ObjectNode o = NODES.objectNode();
        o.put("version", s.version());
        o.set("block", block(s.block()));
        return o;
    }

    static ObjectNode block(Block b) {
        ObjectNode o = NODES.objectNode();
        if (!b.attributes().isEmpty()) {
            o.set("attributes", attributes(b.attributes()));
        }
        if (!b.blockTypes().isEmpty()) {
            ObjectNode bts = o.putObject("block_types");
            b.blockTypes().forEach((n, nb) -> {
                ObjectNode bt = bts.putObject(n);
                bt.put("nesting_mode", nb.nesting().name().toLowerCase(Locale.ROOT));
                bt.set("block", block(nb.block()));
                if (nb.minItems() != 0) {
                    bt.put("min_items", nb.minItems());
                }
                if (nb.maxItems() != 0) {
                    bt.put("max_items", nb.maxItems());
                }
            });
        }
        if (!b.description().isEmpty()) {
            o.put("description", b.description());
        }
        o.put("description_kind", kind(b.markdown()));
        if (b.deprecated()) {
            o.put("deprecated", true);
        }
        return o;
    }

    private static ObjectNode attributes(SortedMap<String, Attribute> attrs) {
        ObjectNode o = NODES.objectNode();
        attrs.forEach((n, a) -> o.set(n, attribute(a)));
        return o;
    }

    private static ObjectNode attribute(Attribute a) {
        ObjectNode o = NODES.objectNode();
        if (a.nested().isPresent()) {
            NestedAttributes na = a.nested().get();
            ObjectNode nt = o.putObject("nested_type");
            if (!na.attributes().isEmpty()) {
                nt.set("attributes", attributes(na.attributes()));
            }
            nt.put("nesting_mode", na.nesting().name().toLowerCase(Locale.ROOT));
        } else {
            o.set("type", TypeJson.toJson(a.type()));
        }
        if (!a.description().isEmpty()) {
            o.put("description", a.description());
        }
        o.put("description_kind", kind(a.markdown()));
        flag(o, "deprecated", a.deprecated());
        flag(o, "required", a.required());
        flag(o, "optional", a.optional());
        flag(o, "computed", a.computed());
        flag(o, "sensitive", a.sensitive());
        flag(o, "write_only", a.writeOnly());
        return o;
    }

    private static void flag(ObjectNode o, String name, boolean set) {
        if (set) {
            o.put(name, true);
        }
    }

    private static String kind(boolean markdown) {
        return markdown ? "markdown" : "plain";
    }

    static ObjectNode function(FunctionSignature f) {
        ObjectNode o = NODES.objectNode();
        if (!f.description().isEmpty()) {
            o.put("description", f.description());
        }
        if (!f.summary().isEmpty()) {
            o.put("summary", f.summary());
        }
        if (!f.deprecationMessage().isEmpty()) {
            o.put("deprecation_message", f.deprecationMessage());
        }
        o.set("return_type", TypeJson.toJson(f.returnType()));
        if (!f.parameters().isEmpty()) {
            ArrayNode ps = o.putArray("parameters");
            f.parameters().forEach(p -> ps.add(parameter(p)));
        }
        f.variadicParameter().ifPresent(p -> o.set("variadic_parameter", parameter(p)));
        return o;
    }

    private static ObjectNode parameter(FunctionParameter p) {
        ObjectNode o = NODES.objectNode();
        if (!p.name().isEmpty()) {
            o.put("name", p.name());
        }
        if (!p.description().isEmpty()) {
            o.put("description", p.description());
        }
        if (p.allowNullValue()) {
            o.put("is_nullable", true);
        }
        o.set("type", TypeJson.toJson(p.type()));
        return o;
    }

    // ---- reading ---------------------------------------------------------------------------------

    /**
     * Reads what {@link #write} produced. Terraform's JSON does not carry server capabilities,
     * provider-meta schemas or whether a parameter accepts unknown values, so they are passed in.
     *
     * @throws WireFormatException when the document is not a provider schema
     */
    public static ProviderSchema read(
            JsonNode n, Optional<Schema> providerMeta, ProviderSchema.ServerCapabilities capabilities) {
        return new ProviderSchema(
                readSchema(required(n, "provider")),
                providerMeta,
                readSchemas(n.path("resource_schemas")),
                readSchemas(n.path("data_source_schemas")),
                readMap(n.path("functions"), SchemaJson::readFunction),
                capabilities,
                readSchemas(n.path("ephemeral_resource_schemas")));
    }

    private static SortedMap<String, Schema> readSchemas(JsonNode n) {
        return readMap(n, SchemaJson::readSchema);
    }

    private static <T> SortedMap<String, T> readMap(JsonNode n, Function<JsonNode, T> f) {
        TreeMap<String, T> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), f.apply(e.getValue()));
        }
        return out;
    }

    static Schema readSchema(JsonNode n) {
        return new Schema(n.path("version").asLong(), readBlock(required(n, "block")));
    }

    private static Block readBlock(JsonNode n) {
        TreeMap<String, NestedBlock> blocks = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.path("block_types").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode bt = e.getValue();
            blocks.put(
                    e.getKey(),
                    new NestedBlock(
                            e.getKey(),
                            nesting(bt.path("nesting_mode").asText()),
                            readBlock(required(bt, "block")),
                            bt.path("min_items").asLong(),
                            bt.path("max_items").asLong()));
        }
        return new Block(
                readAttributes(n.path("attributes")),
                blocks,
                n.path("description").asText(""),
                n.path("deprecated").asBoolean(),
                markdown(n));
    }

    private static SortedMap<String, Attribute> readAttributes(JsonNode n) {
        TreeMap<String, Attribute> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode a = e.getValue();
            Optional<NestedAttributes> nested = Optional.empty();
            if (a.has("nested_type")) {
                JsonNode nt = a.get("nested_type");
                nested = Optional.of(new NestedAttributes(
                        nesting(nt.path("nesting_mode").asText()), readAttributes(nt.path("attributes"))));
            }
            var type = nested.isPresent() ? nested.get().impliedType() : TypeJson.parse(required(a, "type"));
            out.put(
                    e.getKey(),
                    new Attribute(
                            e.getKey(),
                            type,
                            nested,
                            a.path("description").asText(""),
                            a.path("required").asBoolean(),
                            a.path("optional").asBoolean(),
                            a.path("computed").asBoolean(),
                            a.path("sensitive").asBoolean(),
                            a.path("deprecated").asBoolean(),
                            a.path("write_only").asBoolean(),
                            markdown(a)));
        }
        return out;
    }

    private static FunctionSignature readFunction(JsonNode n) {
        List<FunctionParameter> params = new ArrayList<>();
        n.path("parameters").forEach(p -> params.add(readParameter(p)));
        return new FunctionSignature(
                params,
                n.has("variadic_parameter")
                        ? Optional.of(readParameter(n.get("variadic_parameter")))
                        : Optional.empty(),
                TypeJson.parse(required(n, "return_type")),
                n.path("summary").asText(""),
                n.path("description").asText(""),
                n.path("deprecation_message").asText(""));
    }

    private static FunctionParameter readParameter(JsonNode p) {
        // Terraform's JSON leaves out allow_unknown_values; false is the safe reading (arguments are known).
        return new FunctionParameter(
                p.path("name").asText(""),
                TypeJson.parse(required(p, "type")),
                p.path("is_nullable").asBoolean(),
                false,
                p.path("description").asText(""));
    }

    private static boolean markdown(JsonNode n) {
        return n.path("description_kind").asText("plain").equals("markdown");
    }

    private static NestingMode nesting(String s) {
        try {
            return NestingMode.valueOf(s.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new WireFormatException("unknown nesting mode \"" + s + "\"");
        }
    }

    private static JsonNode required(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new WireFormatException("schema JSON lacks \"" + field + "\"");
        }
        return v;
    }
}
