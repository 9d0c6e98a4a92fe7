package dev.strata.tfplugin;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.LazySortedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A provider's schemas as the plugin reported them, in Strata's types. Shaped like the provider
 * SPI's schema so an adapter is a field-by-field copy, but independent of it.
 */
public record ProviderSchema(
        Schema provider,
        Optional<Schema> providerMeta,
        SortedMap<String, Schema> resourceSchemas,
        SortedMap<String, Schema> dataSourceSchemas,
        SortedMap<String, FunctionSignature> functions,
        ServerCapabilities capabilities,
        SortedMap<String, Schema> ephemeralResourceSchemas) {

    public ProviderSchema {
        ephemeralResourceSchemas = immutable(ephemeralResourceSchemas);
        resourceSchemas = immutable(resourceSchemas);
        dataSourceSchemas = immutable(dataSourceSchemas);
        functions = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(functions));
    }

    /** A copy, except of a lazily decoded map ({@link SchemaCache}): copying would decode every schema. */
    private static SortedMap<String, Schema> immutable(SortedMap<String, Schema> m) {
        return m instanceof LazySortedMap<Schema> lazy
                ? lazy
                : java.util.Collections.unmodifiableSortedMap(new TreeMap<>(m));
    }

    /** A provider without ephemeral resources. */
    public ProviderSchema(
            Schema provider,
            Optional<Schema> providerMeta,
            SortedMap<String, Schema> resourceSchemas,
            SortedMap<String, Schema> dataSourceSchemas,
            SortedMap<String, FunctionSignature> functions,
            ServerCapabilities capabilities) {
        this(provider, providerMeta, resourceSchemas, dataSourceSchemas, functions, capabilities, new TreeMap<>());
    }

    /** A versioned block schema: of the provider's configuration, a resource type or a data source. */
    public record Schema(long version, Block block) {}

    public record Block(
            SortedMap<String, Attribute> attributes,
            SortedMap<String, NestedBlock> blockTypes,
            String description,
            boolean deprecated,
            boolean markdown) {
        public Block {
            attributes = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
            blockTypes = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(blockTypes));
        }

        /** A block whose description is plain text. */
        public Block(
                SortedMap<String, Attribute> attributes,
                SortedMap<String, NestedBlock> blockTypes,
                String description,
                boolean deprecated) {
            this(attributes, blockTypes, description, deprecated, false);
        }

        /**
         * The object type of a value conforming to this block, as Terraform derives it: a block
         * nested as a list or map whose content has a dynamic type becomes dynamic as a whole,
         * because its elements need not share one type.
         */
        public Type impliedType() {
            Map<String, Type> attrs = new TreeMap<>();
            attributes.forEach((n, a) -> attrs.put(n, a.impliedType()));
            blockTypes.forEach((n, b) -> attrs.put(n, b.impliedType()));
            return Type.object(attrs);
        }

        /**
         * The value of an empty body of this block as Terraform decodes it: every attribute null,
         * absent list/set/map blocks as empty collections, an absent single block null and a
         * group block as its own empty body (group blocks are never null).
         */
        public Value emptyConfig() {
            Map<String, Value> attrs = new TreeMap<>();
            attributes.forEach((n, a) -> attrs.put(n, Value.nullValue(a.impliedType())));
            blockTypes.forEach((n, b) -> attrs.put(n, b.absentValue()));
            return Value.object(attrs);
        }
    }

    /**
     * @param type the attribute's type; for an attribute with nested attributes (protocol 6) the type they imply
     * @param nested present only for protocol 6 attributes declared with nested attributes
     */
    public record Attribute(
            String name,
            Type type,
            Optional<NestedAttributes> nested,
            String description,
            boolean required,
            boolean optional,
            boolean computed,
            boolean sensitive,
            boolean deprecated,
            boolean writeOnly,
            boolean markdown) {

        /** An attribute whose description is plain text. */
        public Attribute(
                String name,
                Type type,
                Optional<NestedAttributes> nested,
                String description,
                boolean required,
                boolean optional,
                boolean computed,
                boolean sensitive,
                boolean deprecated,
                boolean writeOnly) {
            this(
                    name,
                    type,
                    nested,
                    description,
                    required,
                    optional,
                    computed,
                    sensitive,
                    deprecated,
                    writeOnly,
                    false);
        }

        public Type impliedType() {
            return nested.map(NestedAttributes::impliedType).orElse(type);
        }
    }

    public record NestedAttributes(NestingMode nesting, SortedMap<String, Attribute> attributes) {
        public Type impliedType() {
            Map<String, Type> attrs = new TreeMap<>();
            attributes.forEach((n, a) -> attrs.put(n, a.impliedType()));
            Type obj = Type.object(attrs);
            return switch (nesting) {
                case SINGLE, GROUP -> obj;
                case LIST -> Type.list(obj);
                case SET -> Type.set(obj);
                case MAP -> Type.map(obj);
            };
        }
    }

    public record NestedBlock(String typeName, NestingMode nesting, Block block, long minItems, long maxItems) {
        /** The value of this nested block when the body contains none of it. */
        public Value absentValue() {
            Type t = impliedType();
            return switch (nesting) {
                case SINGLE -> Value.nullValue(t);
                case GROUP -> block.emptyConfig();
                // A dynamic-typed list or map of blocks is sent as a tuple or object; empty is the empty one.
                case LIST -> t instanceof DynamicType ? Value.EMPTY_TUPLE : Value.list(block.impliedType(), List.of());
                case SET -> Value.set(block.impliedType(), List.of());
                case MAP -> t instanceof DynamicType ? Value.EMPTY_OBJECT : Value.map(block.impliedType(), Map.of());
            };
        }

        public Type impliedType() {
            Type obj = block.impliedType();
            return switch (nesting) {
                case SINGLE, GROUP -> obj;
                case LIST -> obj.hasDynamic() ? Type.DYNAMIC : Type.list(obj);
                case SET -> Type.set(obj);
                case MAP -> obj.hasDynamic() ? Type.DYNAMIC : Type.map(obj);
            };
        }
    }

    public enum NestingMode {
        SINGLE,
        GROUP,
        LIST,
        SET,
        MAP
    }

    public record ServerCapabilities(
            boolean planDestroy, boolean getProviderSchemaOptional, boolean moveResourceState) {}

    /** A provider-defined function, callable as {@code provider::NAME::FUNC(...)}. */
    public record FunctionSignature(
            List<FunctionParameter> parameters,
            Optional<FunctionParameter> variadicParameter,
            Type returnType,
            String summary,
            String description,
            String deprecationMessage,
            boolean markdown) {
        public FunctionSignature {
            parameters = List.copyOf(parameters);
        }

        /** A function whose description is plain text. */
        public FunctionSignature(
                List<FunctionParameter> parameters,
                Optional<FunctionParameter> variadicParameter,
                Type returnType,
                String summary,
                String description,
                String deprecationMessage) {
            this(parameters, variadicParameter, returnType, summary, description, deprecationMessage, false);
        }

        /** The types arguments are encoded with: each parameter's, the variadic one repeating. */
        public List<Type> argumentTypes(int count) {
            List<Type> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                out.add(
                        i < parameters.size()
                                ? parameters.get(i).type()
                                : variadicParameter.map(FunctionParameter::type).orElse(Type.DYNAMIC));
            }
            return out;
        }
    }

    public record FunctionParameter(
            String name,
            Type type,
            boolean allowNullValue,
            boolean allowUnknownValues,
            String description,
            boolean markdown) {
        /** A parameter whose description is plain text. */
        public FunctionParameter(
                String name, Type type, boolean allowNullValue, boolean allowUnknownValues, String description) {
            this(name, type, allowNullValue, allowUnknownValues, description, false);
        }
    }

    /** Number of resource types, data sources and functions, for logs and benchmarks. */
    public int size() {
        return resourceSchemas.size() + dataSourceSchemas.size() + functions.size();
    }
}
