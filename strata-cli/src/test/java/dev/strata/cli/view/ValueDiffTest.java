package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Block rendering rules Terraform's plan renderer applies that depend on the schema (each checked
 * against terraform 1.11 with the AWS provider 5.100: {@code aws_default_network_acl},
 * {@code aws_network_acl} and {@code aws_vpc_endpoint}).
 */
class ValueDiffTest {
    private static final Block RULE = Block.builder()
            .attribute("action", Attribute.required(Type.STRING))
            .attribute("cidr_block", Attribute.optional(Type.STRING))
            .attribute("ipv6_cidr_block", Attribute.optional(Type.STRING))
            .build();

    private static Block acl(Attribute extra) {
        Block.Builder b = Block.builder()
                .attribute("id", Attribute.computed(Type.STRING))
                .attribute("rules", Attribute.optional(Type.list(RULE.impliedType())))
                .block("egress", NestedBlock.of(NestingMode.SET, RULE))
                .block("dns_options", NestedBlock.of(NestingMode.LIST, RULE));
        if (extra != null) {
            b.attribute("extra", extra);
        }
        return b.build();
    }

    private static Value rule(String action, String v4, String v6) {
        return Value.objectOf(
                "action", Value.string(action), "cidr_block", Value.string(v4), "ipv6_cidr_block", Value.string(v6));
    }

    private static Value created(Value extra) {
        Value egress = Value.setOf(List.of(rule("allow", "0.0.0.0/0", ""), rule("deny", "", "::/0")));
        return Value.object(new java.util.TreeMap<>(Map.of(
                "id", Value.unknown(Type.STRING),
                "rules", Value.listOf(List.of(rule("allow", "10.0.0.0/8", ""))),
                "egress", egress,
                "dns_options", Value.unknown(Type.list(RULE.impliedType())),
                "extra", extra)));
    }

    private static String render(Block schema, Value after) {
        ValueDiff d = ValueDiff.forResource(Set.of(), schema);
        d.objectBody(null, after, 6, "", false, schema);
        return d.text();
    }

    @Test
    void legacySchemaEmptyStringsInCreatedObjectsCountAsUnchangedAndBlocksOfOneTypeAreNotSeparated() {
        Block schema = acl(Attribute.optional(Type.STRING));
        assertThat(ValueDiff.mayBeLegacy(schema)).isTrue();
        assertThat(render(schema, created(Value.string("")))).isEqualTo("""
                      + id    = (known after apply)
                      + rules = [
                          + {
                              + action          = "allow"
                              + cidr_block      = "10.0.0.0/8"
                                # (1 unchanged attribute hidden)
                            },
                        ]
                        # (1 unchanged attribute hidden)

                      + dns_options (known after apply)

                      + egress {
                          + action          = "allow"
                          + cidr_block      = "0.0.0.0/0"
                            # (1 unchanged attribute hidden)
                        }
                      + egress {
                          + action          = "deny"
                          + ipv6_cidr_block = "::/0"
                            # (1 unchanged attribute hidden)
                        }
                """);
    }

    @Test
    void schemaTheLegacySdkCannotExpressShowsEmptyStrings() {
        Block schema = acl(Attribute.optional(Type.DYNAMIC));
        assertThat(ValueDiff.mayBeLegacy(schema)).isFalse();
        assertThat(ValueDiff.mayBeLegacy(Block.builder()
                        .block("m", NestedBlock.of(NestingMode.MAP, RULE))
                        .build()))
                .isFalse();
        assertThat(render(schema, created(Value.string("")))).isEqualTo("""
                      + extra = ""
                      + id    = (known after apply)
                      + rules = [
                          + {
                              + action          = "allow"
                              + cidr_block      = "10.0.0.0/8"
                              + ipv6_cidr_block = ""
                            },
                        ]

                      + dns_options (known after apply)

                      + egress {
                          + action          = "allow"
                          + cidr_block      = "0.0.0.0/0"
                          + ipv6_cidr_block = ""
                        }
                      + egress {
                          + action          = "deny"
                          + cidr_block      = ""
                          + ipv6_cidr_block = "::/0"
                        }
                """);
    }

    private static Value existing(Value extra) {
        return Value.object(new java.util.TreeMap<>(Map.of(
                "id", Value.string("acl-1"),
                "rules", Value.listOf(List.of(rule("allow", "10.0.0.0/8", ""))),
                "egress", Value.setOf(List.of(rule("allow", "0.0.0.0/0", ""))),
                "dns_options", Value.listOf(List.of(rule("allow", "", ""))),
                "extra", extra)));
    }

    @Test
    void legacyEmptyStringReplacingNullIsNoChangeButAnotherValueIs() {
        Block schema = acl(Attribute.optional(Type.STRING));
        ValueDiff same = ValueDiff.forResource(Set.of(), schema);
        same.objectBody(existing(Value.nullValue(Type.STRING)), existing(Value.string("")), 6, "", true, schema);
        assertThat(same.text()).isEqualTo("""
                        id    = "acl-1"
                        # (2 unchanged attributes hidden)

                        # (2 unchanged blocks hidden)
                """);
        ValueDiff changed = ValueDiff.forResource(Set.of(), schema);
        changed.objectBody(existing(Value.nullValue(Type.STRING)), existing(Value.string("x")), 6, "", true, schema);
        assertThat(changed.text()).startsWith("""
                      + extra = "x"
                        id    = "acl-1"
                """);
    }
}
