package dev.strata.tfplugin;

import com.google.protobuf.UnknownFieldSet;
import dev.strata.tfplugin.proto.v6.Tfplugin6;
import io.grpc.MethodDescriptor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What differs between plugin protocols 5 and 6 for the calls Strata makes. The two protocols
 * number the fields of every message Strata uses alike (ProtocolWireTest checks it), so
 * {@link ProviderClient} speaks protocol 6's messages to both; protocol 5 only names its service and
 * six of its calls differently, and numbers an attribute's {@code write_only} flag 10, where
 * protocol 6 has {@code nested_type}.
 */
enum PluginProtocol {
    V5(
            "tfplugin5.Provider",
            Map.of(
                    "GetProviderSchema", "GetSchema",
                    "ValidateProviderConfig", "PrepareProviderConfig",
                    "ValidateResourceConfig", "ValidateResourceTypeConfig",
                    "ValidateDataResourceConfig", "ValidateDataSourceConfig",
                    "ConfigureProvider", "Configure",
                    "StopProvider", "Stop")) {
        @Override
        Tfplugin6.GetProviderSchema.Response schema(Tfplugin6.GetProviderSchema.Response r) {
            Tfplugin6.GetProviderSchema.Response.Builder b = r.toBuilder();
            b.setProvider(withWriteOnly(b.getProvider()));
            if (b.hasProviderMeta()) {
                b.setProviderMeta(withWriteOnly(b.getProviderMeta()));
            }
            b.putAllResourceSchemas(withWriteOnly(b.getResourceSchemasMap()));
            b.putAllDataSourceSchemas(withWriteOnly(b.getDataSourceSchemasMap()));
            b.putAllEphemeralResourceSchemas(withWriteOnly(b.getEphemeralResourceSchemasMap()));
            return b.build();
        }
    },
    V6("tfplugin6.Provider", Map.of()) {
        @Override
        Tfplugin6.GetProviderSchema.Response schema(Tfplugin6.GetProviderSchema.Response r) {
            return r;
        }
    };

    /** Protocol 5's field number of {@code Schema.Attribute.write_only}. */
    private static final int V5_WRITE_ONLY = 10;

    private final String service;
    private final Map<String, String> renamed;
    private final Map<String, MethodDescriptor<?, ?>> methods = new ConcurrentHashMap<>();

    PluginProtocol(String service, Map<String, String> renamed) {
        this.service = service;
        this.renamed = renamed;
    }

    /** The protocol a plugin negotiated, or null for one Strata does not speak. */
    static PluginProtocol of(int version) {
        return switch (version) {
            case 5 -> V5;
            case 6 -> V6;
            default -> null;
        };
    }

    /** Protocol 6's call {@code m} as this protocol names it, with the same messages. */
    @SuppressWarnings("unchecked")
    <Q, R> MethodDescriptor<Q, R> method(MethodDescriptor<Q, R> m) {
        String bare = m.getBareMethodName();
        String name = renamed.getOrDefault(bare, bare);
        return (MethodDescriptor<Q, R>) methods.computeIfAbsent(
                bare,
                k -> m.toBuilder()
                        .setFullMethodName(MethodDescriptor.generateFullMethodName(service, name))
                        .build());
    }

    /** The schema answer with what protocol 6's messages could not read from this protocol's. */
    abstract Tfplugin6.GetProviderSchema.Response schema(Tfplugin6.GetProviderSchema.Response r);

    private static Map<String, Tfplugin6.Schema> withWriteOnly(Map<String, Tfplugin6.Schema> in) {
        Map<String, Tfplugin6.Schema> out = new java.util.TreeMap<>();
        in.forEach((n, s) -> out.put(n, withWriteOnly(s)));
        return out;
    }

    private static Tfplugin6.Schema withWriteOnly(Tfplugin6.Schema s) {
        return s.toBuilder().setBlock(withWriteOnly(s.getBlock())).build();
    }

    private static Tfplugin6.Schema.Block withWriteOnly(Tfplugin6.Schema.Block b) {
        Tfplugin6.Schema.Block.Builder out = b.toBuilder().clearAttributes().clearBlockTypes();
        for (Tfplugin6.Schema.Attribute a : b.getAttributesList()) {
            // Read by protocol 6's message, protocol 5's flag is an unknown varint field.
            List<Long> flag = a.getUnknownFields().getField(V5_WRITE_ONLY).getVarintList();
            out.addAttributes(
                    flag.isEmpty()
                            ? a
                            : a.toBuilder()
                                    .setWriteOnly(flag.getLast() != 0)
                                    .setUnknownFields(UnknownFieldSet.newBuilder(a.getUnknownFields())
                                            .clearField(V5_WRITE_ONLY)
                                            .build())
                                    .build());
        }
        for (Tfplugin6.Schema.NestedBlock nb : b.getBlockTypesList()) {
            out.addBlockTypes(nb.toBuilder().setBlock(withWriteOnly(nb.getBlock())));
        }
        return out.build();
    }
}
