package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GeneratedConfigTest {
    @Test
    void terraformDataIsWrittenAsTerraformWritesIt() {
        // terraform 1.11 `plan -generate-config-out` for an imported terraform_data with id "abc".
        Block schema = Block.builder()
                .attribute("id", Attribute.computed(Type.STRING))
                .attribute("input", Attribute.optional(Type.DYNAMIC))
                .attribute("output", Attribute.computed(Type.DYNAMIC))
                .attribute("triggers_replace", Attribute.optional(Type.DYNAMIC))
                .build();
        Value obj = Value.objectOf(
                "id", Value.string("abc"), "input", Value.NULL, "output", Value.NULL, "triggers_replace", Value.NULL);
        String text =
                GeneratedConfig.file(List.of(GeneratedConfig.resource("terraform_data", "x", "abc", schema, obj)));
        assertEquals("""
                # __generated__ by Terraform
                # Please review these resources and move them into your main configuration files.

                # __generated__ by Terraform from "abc"
                resource "terraform_data" "x" {
                  input            = null
                  triggers_replace = null
                }
                """, text);
    }

    @Test
    void valuesNestedBlocksAndSensitiveArguments() {
        Block rule = Block.builder()
                .attribute("port", Attribute.required(Type.NUMBER))
                .attribute("cidrs", Attribute.optional(Type.list(Type.STRING)))
                .build();
        Block schema = Block.builder()
                .attribute("arn", Attribute.computed(Type.STRING))
                .attribute("name", Attribute.required(Type.STRING))
                .attribute("enabled", Attribute.optionalComputed(Type.BOOL))
                .attribute("password", Attribute.optional(Type.STRING).withSensitive())
                .attribute("tags", Attribute.optional(Type.map(Type.STRING)))
                .block("rule", NestedBlock.of(NestingMode.LIST, rule))
                .build();
        Value r1 =
                Value.objectOf("port", Value.number(443), "cidrs", Value.listOf(List.of(Value.string("10.0.0.0/8"))));
        Value r2 = Value.objectOf("port", Value.number(80), "cidrs", Value.nullValue(Type.list(Type.STRING)));
        Value obj = Value.objectOf(
                "arn", Value.string("arn:x"),
                "name", Value.string("web ${x} \"q\""),
                "enabled", Value.TRUE,
                "password", Value.string("hunter2").mark(Mark.SENSITIVE),
                "tags", Value.map(Type.STRING, Map.of("Name", Value.string("web"), "a b", Value.string("c"))),
                "rule", Value.listOf(List.of(r1, r2)));
        String text = GeneratedConfig.file(List.of(GeneratedConfig.resource("aws_thing", "web", "i-1", schema, obj)));
        assertEquals("""
                # __generated__ by Terraform
                # Please review these resources and move them into your main configuration files.

                # __generated__ by Terraform from "i-1"
                resource "aws_thing" "web" {
                  enabled  = true
                  name     = "web $${x} \\"q\\""
                  password = null # sensitive
                  tags = {
                    Name  = "web"
                    "a b" = "c"
                  }
                  rule {
                    cidrs = ["10.0.0.0/8"]
                    port  = 443
                  }
                  rule {
                    cidrs = null
                    port  = 80
                  }
                }
                """, text);
    }
}
