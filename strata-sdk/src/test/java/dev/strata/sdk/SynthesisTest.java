package dev.strata.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.Validator;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SynthesisTest {
    @TempDir
    Path dir;

    private static String golden(String name) throws IOException {
        try (InputStream in = SynthesisTest.class.getResourceAsStream("/golden/" + name)) {
            assertThat(in).as("golden file " + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** With {@code -Dstrata.sdk.updateGolden=true} the golden file is (re)written from {@code actual} first. */
    private static String golden(String name, String actual) throws IOException {
        if (Boolean.getBoolean("strata.sdk.updateGolden")) {
            Path repo = Path.of(System.getProperty("strata.repo.dir", "."));
            Files.writeString(repo.resolve("strata-sdk/src/test/resources/golden/" + name), actual);
            return actual;
        }
        return golden(name);
    }

    private static String synth(Supplier<Stack> program) {
        Synthesis s = program.get().synthesize();
        assertThat(s.problems()).isEmpty();
        return s.json();
    }

    @Test
    void basicStackMatchesItsGoldenFileAndIsDeterministic() throws IOException {
        String json = synth(Stacks::basic);
        assertThat(json).isEqualTo(golden("basic.tf.json", json));
        assertThat(synth(Stacks::basic)).isEqualTo(json);
    }

    @Test
    void awsStackMatchesItsGoldenFile() throws IOException {
        String json = synth(Stacks::aws);
        assertThat(json).isEqualTo(golden("aws.tf.json", json));
    }

    @Test
    void dynamicBlocksAreWrittenInJsonSyntaxAndLoadInStrata() throws Exception {
        Stack stack = new Stack();
        Resource vpc = stack.resource("aws_vpc", "main").arg("cidr_block", "10.0.0.0/16");
        MapValue ports =
                stack.local("ports", MapValue.of(Map.of("http", NumberValue.of(80), "https", NumberValue.of(443))));
        stack.resource("aws_security_group", "web")
                .arg("name", "web")
                .dynamic(
                        "ingress",
                        ports,
                        (b, it) -> b.arg("description", it.get("key"))
                                .arg("from_port", it.get("value"))
                                .arg("to_port", it.get("value"))
                                .arg("cidr_blocks", ListValue.of(vpc.attr("cidr_block"))))
                .dynamic(
                        "egress",
                        "rule",
                        ListValue.ofStrings("0.0.0.0/0"),
                        (b, rule) -> b.arg("cidr_blocks", ListValue.of(rule.get("value"))));
        Synthesis s = stack.synthesize();
        assertThat(s.problems()).isEmpty();
        JsonNode web = new ObjectMapper().readTree(s.json()).at("/resource/aws_security_group/web");
        assertThat(web.at("/dynamic/ingress/0/for_each").asText()).isEqualTo("${local.ports}");
        assertThat(web.at("/dynamic/ingress/0/iterator").isMissingNode()).isTrue();
        assertThat(web.at("/dynamic/ingress/0/content/description").asText()).isEqualTo("${ingress.key}");
        assertThat(web.at("/dynamic/ingress/0/content/cidr_blocks/0").asText()).isEqualTo("${aws_vpc.main.cidr_block}");
        assertThat(web.at("/dynamic/egress/0/iterator").asText()).isEqualTo("rule");
        assertThat(web.at("/dynamic/egress/0/content/cidr_blocks/0").asText()).isEqualTo("${rule.value}");
        assertThat(web.at("/dynamic/egress/0/for_each/0").asText()).isEqualTo("0.0.0.0/0");
        assertThat(stack.synthesize().json()).isEqualTo(s.json());

        stack.writeTo(dir);
        Result<ConfigTree> tree = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        assertThat(tree.diagnostics().with(Validator.validate(tree.value())).asList())
                .as("Strata's diagnostics")
                .isEmpty();
    }

    @Test
    void aDynamicBlockWithAnInvalidIteratorIsAProblemAtItsLine() {
        Stack stack = new Stack();
        stack.resource("aws_security_group", "web")
                .dynamic("ingress", "1bad", ListValue.ofStrings("a"), (b, it) -> b.arg("description", it.get("value")));
        assertThat(stack.synthesize().problems()).singleElement().satisfies(p -> {
            assertThat(p.summary()).isEqualTo("Invalid iterator name");
            assertThat(p.site().file()).isEqualTo("SynthesisTest.java");
        });
    }

    @Test
    void writeToWritesMainTfJson() throws Exception {
        Path file = Stacks.basic().writeTo(dir.resolve("out"));
        assertThat(file).isEqualTo(dir.resolve("out/main.tf.json"));
        assertThat(Files.readString(file)).isEqualTo(golden("basic.tf.json"));
    }

    @Test
    void duplicatesAndInvalidNamesNameTheJavaLine() {
        Stack stack = new Stack();
        stack.resource("terraform_data", "a");
        int line = lineHere() + 1;
        stack.resource("terraform_data", "a");
        stack.variable("bad name");
        stack.variable("count");
        stack.output("o", StringValue.of("x"));
        stack.output("o", StringValue.of("y"));
        List<Problem> ps = stack.synthesize().problems();
        assertThat(ps)
                .extracting(Problem::summary)
                .containsExactly(
                        "Invalid variable name",
                        "Invalid variable name",
                        "Duplicate resource \"terraform_data\" configuration",
                        "Duplicate output definition");
        Problem dup = ps.get(2);
        assertThat(dup.site().file()).isEqualTo("SynthesisTest.java");
        assertThat(dup.site().line()).isEqualTo(line);
        assertThat(dup.detail())
                .startsWith("A terraform_data resource named \"a\" was already declared at " + "SynthesisTest.java:"
                        + (line - 2) + " (SynthesisTest.duplicatesAndInvalidNamesNameTheJavaLine).");
        assertThat(ps.get(0).detail()).contains("\"bad name\" is not valid");
        assertThat(ps.get(1).detail()).contains("\"count\" is reserved");
        assertThatThrownBy(() -> stack.writeTo(dir))
                .isInstanceOf(SynthesisException.class)
                .hasMessageContaining("Error: Duplicate resource \"terraform_data\" configuration\n\n  at "
                        + "SynthesisTest.java:" + line);
        assertThat(dir.resolve(Stack.FILE_NAME)).doesNotExist();
    }

    @Test
    void aValueFromAnotherStackIsReportedWhereItWasCreated() {
        Stack other = new Stack();
        Resource foreign = other.resource("terraform_data", "x");
        Stack stack = new Stack();
        int line = lineHere() + 1;
        AnyValue id = foreign.attr("id");
        stack.resource("terraform_data", "y").arg("input", id).dependsOn(foreign);
        List<Problem> ps = stack.synthesize().problems();
        assertThat(ps)
                .extracting(Problem::summary)
                .containsExactly("Value from another stack", "Value from another stack");
        assertThat(ps.get(0).site().line()).isEqualTo(line);
        assertThat(ps.get(0).detail())
                .startsWith("This value refers to terraform_data.x.id, which belongs to another "
                        + "stack (stack created at SynthesisTest.java:");
    }

    @Test
    void providersModulesAndForVariables() {
        Stack other = new Stack();
        Provider foreign = other.provider("aws").alias("west");
        Stack stack = new Stack();
        stack.provider("aws");
        stack.provider("aws").alias("east");
        stack.provider("aws").alias("east");
        stack.resource("aws_vpc", "v").provider(foreign);
        stack.module("m", "./m").provider("aws", foreign);
        stack.output("o", Fn.forList("not valid", ListValue.ofStrings("a"), x -> x));
        List<Problem> ps = stack.synthesize().problems();
        assertThat(ps)
                .extracting(Problem::summary)
                .containsExactly(
                        "Duplicate provider configuration",
                        "Value from another stack",
                        "Value from another stack",
                        "Invalid for expression variable");
        assertThat(ps.get(0).detail())
                .startsWith("A provider configuration for \"aws\" with alias \"east\" was "
                        + "already given at SynthesisTest.java:");
        assertThat(ps.get(1).detail()).startsWith("aws.west belongs to another stack");
    }

    @Test
    void repetitionValuesOnlyInsideTheirOwnRepeatedDeclaration() {
        Stack stack = new Stack();
        Resource plain = stack.resource("terraform_data", "plain");
        Resource counted = stack.resource("terraform_data", "counted").count(2);
        plain.arg("input", plain.countIndex());
        stack.resource("terraform_data", "other").arg("input", counted.countIndex());
        stack.output("o", counted.eachKey());
        List<Problem> ps = stack.synthesize().problems();
        assertThat(ps)
                .extracting(Problem::summary)
                .containsExactly(
                        "Reference to \"count\" in non-counted context",
                        "Misplaced count.index",
                        "Reference to \"each\" in context without for_each");
        assertThat(ps.get(1).detail())
                .contains("belongs to terraform_data.counted")
                .contains("is used in terraform_data.other");
    }

    @Test
    void metaArgumentsAndDefaultsAndReplaceTriggers() {
        Stack stack = new Stack();
        Resource r =
                stack.resource("terraform_data", "r").arg("count", 2).count(1).forEach(SetValue.ofStrings("a"));
        r.lifecycle(l -> l.replaceTriggeredBy(StringValue.of("terraform_data.r")));
        stack.variable("v").defaultValue(r.attr("id"));
        stack.variable("w").defaultValue(Fn.upper(StringValue.of("x")));
        stack.module("m", "./m").arg("source", "x");
        assertThat(stack.synthesize().problems())
                .extracting(Problem::summary)
                .containsExactly(
                        "Variables not allowed",
                        "Invalid default value for variable",
                        "Reserved argument name in resource block",
                        "Invalid combination of \"count\" and \"for_each\"",
                        "Invalid replace_triggered_by expression",
                        "Reserved argument name in module block");
    }

    @Test
    void literalStringsAreEscapedAndNumbersStayNumbers() {
        Stack stack = new Stack();
        stack.local("a", StringValue.of("${x} and %{if}"));
        stack.local("b", NumberValue.of(new java.math.BigDecimal("1.50")));
        stack.local("c", NumberValue.of(10_000_000_000L));
        // Terraform reads a default as plain JSON, without templates: nothing to escape there.
        stack.variable("d").defaultValue(MapValue.ofStrings(java.util.Map.of("${k}", "${v}")));
        assertThat(stack.synthesize().json()).isEqualTo("""
                {
                  "locals": {
                    "a": "$${x} and %%{if}",
                    "b": 1.5,
                    "c": 10000000000
                  },
                  "variable": {
                    "d": {
                      "default": {
                        "${k}": "${v}"
                      }
                    }
                  }
                }
                """);
    }

    private static int lineHere() {
        return StackWalker.getInstance()
                .walk(s -> s.skip(1).findFirst().orElseThrow().getLineNumber());
    }
}
