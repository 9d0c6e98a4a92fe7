package dev.strata.tfplugin;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import dev.strata.tfplugin.proto.v5.Tfplugin5;
import dev.strata.tfplugin.proto.v6.ProviderGrpc;
import dev.strata.tfplugin.proto.v6.Tfplugin6;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Protocol 6's messages read and write protocol 5's: what {@link PluginProtocol} relies on. */
class ProtocolWireTest {
    /** The fields that differ, which {@link PluginProtocol#V5} handles (or Strata does not use). */
    private static final Set<String> KNOWN = Set.of(
            "tfplugin6.Schema.Attribute.nested_type",
            "tfplugin6.Schema.Attribute.write_only",
            "tfplugin5.PrepareProviderConfig.Response.prepared_config");

    @Test
    void everyCallOfProtocol6HasAProtocol5CallWithTheSameFieldNumbers() {
        ServiceDescriptor v5 = Tfplugin5.getDescriptor().findServiceByName("Provider");
        ServiceDescriptor v6 = Tfplugin6.getDescriptor().findServiceByName("Provider");
        List<String> problems = new ArrayList<>();
        for (MethodDescriptor m6 : v6.getMethods()) {
            String name = PluginProtocol.V5.method(grpcMethod(m6.getName())).getBareMethodName();
            MethodDescriptor m5 = v5.findMethodByName(name);
            assertThat(m5).as("protocol 5 call %s", name).isNotNull();
            compare(m5.getInputType(), m6.getInputType(), new HashSet<>(), problems);
            compare(m5.getOutputType(), m6.getOutputType(), new HashSet<>(), problems);
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void protocol5sWriteOnlyFlagIsReadAtEveryDepth() throws Exception {
        Tfplugin5.Schema.Attribute secret = Tfplugin5.Schema.Attribute.newBuilder()
                .setName("password_wo")
                .setType(com.google.protobuf.ByteString.copyFromUtf8("\"string\""))
                .setOptional(true)
                .setWriteOnly(true)
                .build();
        Tfplugin5.Schema.Block inner =
                Tfplugin5.Schema.Block.newBuilder().addAttributes(secret).build();
        Tfplugin5.Schema.Block outer = Tfplugin5.Schema.Block.newBuilder()
                .addAttributes(secret)
                .addAttributes(secret.toBuilder().setName("plain").setWriteOnly(false))
                .addBlockTypes(Tfplugin5.Schema.NestedBlock.newBuilder()
                        .setTypeName("nested")
                        .setBlock(inner)
                        .setNesting(Tfplugin5.Schema.NestedBlock.NestingMode.LIST))
                .build();
        Tfplugin5.GetProviderSchema.Response v5 = Tfplugin5.GetProviderSchema.Response.newBuilder()
                .setProvider(Tfplugin5.Schema.newBuilder().setBlock(Tfplugin5.Schema.Block.getDefaultInstance()))
                .putResourceSchemas(
                        "example_thing",
                        Tfplugin5.Schema.newBuilder().setBlock(outer).build())
                .build();

        Tfplugin6.GetProviderSchema.Response read =
                PluginProtocol.V5.schema(Tfplugin6.GetProviderSchema.Response.parseFrom(v5.toByteString()));

        Tfplugin6.Schema.Block block =
                read.getResourceSchemasOrThrow("example_thing").getBlock();
        assertThat(block.getAttributesList())
                .extracting(
                        Tfplugin6.Schema.Attribute::getName,
                        Tfplugin6.Schema.Attribute::getWriteOnly,
                        Tfplugin6.Schema.Attribute::hasNestedType)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("password_wo", true, false),
                        org.assertj.core.groups.Tuple.tuple("plain", false, false));
        assertThat(block.getBlockTypes(0).getBlock().getAttributes(0).getWriteOnly())
                .isTrue();
        assertThat(block.getAttributes(0).getUnknownFields().asMap()).isEmpty();
        assertThat(read.hasProviderMeta()).isFalse();
    }

    private static io.grpc.MethodDescriptor<?, ?> grpcMethod(String name) {
        return ProviderGrpc.getServiceDescriptor().getMethods().stream()
                .filter(m -> m.getBareMethodName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static void compare(Descriptor v5, Descriptor v6, Set<String> seen, List<String> problems) {
        if (!seen.add(v6.getFullName())) {
            return;
        }
        for (FieldDescriptor f6 : v6.getFields()) {
            FieldDescriptor f5 = v5.findFieldByNumber(f6.getNumber());
            if (KNOWN.contains(f6.getFullName())) {
                continue;
            }
            if (f5 == null
                    || !f5.getName().equals(f6.getName())
                    || f5.getType() != f6.getType()
                    || f5.isRepeated() != f6.isRepeated()) {
                problems.add(f6.getFullName() + " (" + f6.getNumber() + ") has no equal in " + v5.getFullName());
            } else if (f6.getType() == FieldDescriptor.Type.MESSAGE) {
                compare(f5.getMessageType(), f6.getMessageType(), seen, problems);
            } else if (f6.getType() == FieldDescriptor.Type.ENUM) {
                f6.getEnumType().getValues().forEach(v -> {
                    if (f5.getEnumType().findValueByNumber(v.getNumber()) == null
                            || !f5.getEnumType()
                                    .findValueByNumber(v.getNumber())
                                    .getName()
                                    .equals(v.getName())) {
                        problems.add(v.getFullName() + " has no equal in "
                                + f5.getEnumType().getFullName());
                    }
                });
            }
        }
        for (FieldDescriptor f5 : v5.getFields()) {
            if (v6.findFieldByNumber(f5.getNumber()) == null && !KNOWN.contains(f5.getFullName())) {
                problems.add(f5.getFullName() + " (" + f5.getNumber() + ") is not read by " + v6.getFullName());
            }
        }
    }
}
