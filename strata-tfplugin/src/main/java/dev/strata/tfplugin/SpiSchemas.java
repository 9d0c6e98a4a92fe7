package dev.strata.tfplugin;

import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.Schema;
import java.util.SortedMap;
import java.util.TreeMap;

/** Conversions between the plugin client's types and the provider SPI's. */
final class SpiSchemas {
    private SpiSchemas() {}

    static ProviderSchema toSpi(dev.strata.tfplugin.ProviderSchema s) {
        return new ProviderSchema(
                schema(s.provider()),
                schemas(s.resourceSchemas()),
                schemas(s.dataSourceSchemas()),
                s.providerMeta().map(SpiSchemas::schema),
                schemas(s.ephemeralResourceSchemas()));
    }

    private static SortedMap<String, Schema> schemas(SortedMap<String, dev.strata.tfplugin.ProviderSchema.Schema> in) {
        if (in instanceof dev.strata.provider.LazySortedMap<dev.strata.tfplugin.ProviderSchema.Schema> lazy) {
            // Converted as they are decoded: on first use of each type.
            return lazy.mapValues(SpiSchemas::schema);
        }
        TreeMap<String, Schema> out = new TreeMap<>();
        in.forEach((n, s) -> out.put(n, schema(s)));
        return out;
    }

    static Schema schema(dev.strata.tfplugin.ProviderSchema.Schema s) {
        return new Schema(Math.max(0, s.version()), block(s.block()));
    }

    static Block block(dev.strata.tfplugin.ProviderSchema.Block b) {
        Block.Builder out = Block.builder().description(b.description());
        if (b.deprecated()) {
            out.deprecated();
        }
        b.attributes().forEach((n, a) -> out.attribute(n, attribute(a)));
        b.blockTypes()
                .forEach((n, nb) -> out.block(
                        n,
                        new NestedBlock(
                                nesting(nb.nesting()), block(nb.block()), clamp(nb.minItems()), clamp(nb.maxItems()))));
        return out.build();
    }

    /**
     * One attribute. Protocol 6 attributes with nested attributes become attributes of the object
     * (or collection of objects) type they imply. A flag combination the protocol does not allow
     * (none set, or required with computed) is read the way Terraform's own validation tolerates it.
     */
    private static Attribute attribute(dev.strata.tfplugin.ProviderSchema.Attribute a) {
        boolean required = a.required();
        boolean optional = a.optional() && !required;
        boolean computed = a.computed() && !required;
        if (!required && !optional && !computed) {
            optional = true;
        }
        return new Attribute(
                a.impliedType(),
                required,
                optional,
                computed,
                a.sensitive(),
                a.description(),
                a.deprecated(),
                // Terraform refuses a computed write-only attribute; such a flag is read as a stored attribute.
                a.writeOnly() && !computed);
    }

    private static NestingMode nesting(dev.strata.tfplugin.ProviderSchema.NestingMode m) {
        return switch (m) {
            // A group block is a single block that is never null; the SPI has no separate mode for it.
            case SINGLE, GROUP -> NestingMode.SINGLE;
            case LIST -> NestingMode.LIST;
            case SET -> NestingMode.SET;
            case MAP -> NestingMode.MAP;
        };
    }

    private static int clamp(long n) {
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, n));
    }

    /**
     * An SPI schema and functions (a built-in provider's) in the plugin client's types, for
     * {@link SchemaJson}.
     */
    static dev.strata.tfplugin.ProviderSchema fromSpi(
            ProviderSchema s, SortedMap<String, dev.strata.provider.ProviderFunction> functions) {
        TreeMap<String, dev.strata.tfplugin.ProviderSchema.FunctionSignature> signatures = new TreeMap<>();
        functions.forEach((n, f) -> signatures.put(
                n,
                new dev.strata.tfplugin.ProviderSchema.FunctionSignature(
                        f.parameters().stream().map(SpiSchemas::fromSpi).toList(),
                        f.variadicParameter().map(SpiSchemas::fromSpi),
                        f.returnType(),
                        f.summary(),
                        f.description(),
                        "")));
        return new dev.strata.tfplugin.ProviderSchema(
                fromSpi(s.provider()),
                java.util.Optional.empty(),
                fromSpi(s.resourceTypes()),
                fromSpi(s.dataSources()),
                signatures,
                new dev.strata.tfplugin.ProviderSchema.ServerCapabilities(false, false, false));
    }

    private static dev.strata.tfplugin.ProviderSchema.FunctionParameter fromSpi(
            dev.strata.provider.ProviderFunction.Parameter p) {
        return new dev.strata.tfplugin.ProviderSchema.FunctionParameter(
                p.name(), p.type(), p.allowNull(), p.allowUnknown(), p.description());
    }

    private static SortedMap<String, dev.strata.tfplugin.ProviderSchema.Schema> fromSpi(SortedMap<String, Schema> in) {
        TreeMap<String, dev.strata.tfplugin.ProviderSchema.Schema> out = new TreeMap<>();
        in.forEach((n, s) -> out.put(n, fromSpi(s)));
        return out;
    }

    private static dev.strata.tfplugin.ProviderSchema.Schema fromSpi(Schema s) {
        return new dev.strata.tfplugin.ProviderSchema.Schema(s.version(), fromSpi(s.block()));
    }

    private static dev.strata.tfplugin.ProviderSchema.Block fromSpi(Block b) {
        TreeMap<String, dev.strata.tfplugin.ProviderSchema.Attribute> attrs = new TreeMap<>();
        b.attributes()
                .forEach((n, a) -> attrs.put(
                        n,
                        new dev.strata.tfplugin.ProviderSchema.Attribute(
                                n,
                                a.type(),
                                java.util.Optional.empty(),
                                a.description(),
                                a.required(),
                                a.optional(),
                                a.computed(),
                                a.sensitive(),
                                a.deprecated(),
                                a.writeOnly())));
        TreeMap<String, dev.strata.tfplugin.ProviderSchema.NestedBlock> blocks = new TreeMap<>();
        b.blockTypes()
                .forEach((n, nb) -> blocks.put(
                        n,
                        new dev.strata.tfplugin.ProviderSchema.NestedBlock(
                                n,
                                switch (nb.nesting()) {
                                    case SINGLE -> dev.strata.tfplugin.ProviderSchema.NestingMode.SINGLE;
                                    case LIST -> dev.strata.tfplugin.ProviderSchema.NestingMode.LIST;
                                    case SET -> dev.strata.tfplugin.ProviderSchema.NestingMode.SET;
                                    case MAP -> dev.strata.tfplugin.ProviderSchema.NestingMode.MAP;
                                },
                                fromSpi(nb.block()),
                                nb.minItems(),
                                nb.maxItems())));
        return new dev.strata.tfplugin.ProviderSchema.Block(attrs, blocks, b.description(), b.deprecated());
    }
}
