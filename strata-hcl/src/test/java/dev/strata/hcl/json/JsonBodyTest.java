package dev.strata.hcl.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.Body;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.hcl.syntax.NativeSyntax;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonBodyTest {
    static final BodySchema ROOT = new BodySchema(
            List.of(AttributeSchema.optional("count")),
            List.of(
                    BlockHeaderSchema.of("resource", "type", "name"), BlockHeaderSchema.of("locals"),
                    BlockHeaderSchema.of("variable", "name"), BlockHeaderSchema.of("terraform")));

    static Body body(String json) {
        var r = JsonSyntax.parse(json.getBytes(StandardCharsets.UTF_8), "t.tf.json");
        assertThat(r.diagnostics().isEmpty())
                .as("parse diagnostics %s", r.diagnostics())
                .isTrue();
        return r.value().body();
    }

    static Body nativeBody(String hcl) {
        var r = NativeSyntax.parseConfig(hcl.getBytes(StandardCharsets.UTF_8), "t.tf");
        assertThat(r.diagnostics().isEmpty())
                .as("parse diagnostics %s", r.diagnostics())
                .isTrue();
        return r.value().body();
    }

    static String src(Attribute a, String json) {
        return a.expr().range().sliceOf(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void blocksNestByLabels() {
        String json = """
                {"resource": {"aws_instance": {"web": {"ami": "x"}, "db": {"ami": "y"}},
                              "aws_vpc": {"main": {}}}}""";
        BodyContent c = body(json).content(ROOT).value();
        assertThat(c.blocks())
                .extracting(Block::labels)
                .containsExactly(
                        List.of("aws_instance", "web"), List.of("aws_instance", "db"), List.of("aws_vpc", "main"));
        Block web = c.blocks().get(0);
        assertThat(web.typeRange().sliceOf(json.getBytes())).isEqualTo("\"resource\"");
        assertThat(web.labelRanges().get(1).sliceOf(json.getBytes())).isEqualTo("\"web\"");
        assertThat(web.defRange().sliceOf(json.getBytes())).isEqualTo("\"resource\": {\"aws_instance\": {\"web\"");
        Map<String, Attribute> attrs = web.body().justAttributes().value();
        assertThat(src(attrs.get("ami"), json)).isEqualTo("\"x\"");
    }

    @Test
    void arrayOfObjectsGivesSeveralBlocks() {
        String json =
                "{\"variable\": {\"v\": [{\"default\": 1}, {\"default\": 2}]}, \"locals\": [{\"a\": 1}, {\"b\": 2}]}";
        BodyContent c = body(json).content(ROOT).value();
        assertThat(c.blocksOfType("variable"))
                .hasSize(2)
                .allSatisfy(b -> assertThat(b.labels()).containsExactly("v"));
        assertThat(c.blocksOfType("locals")).hasSize(2);
        assertThat(c.blocksOfType("locals").get(1).body().justAttributes().value())
                .containsOnlyKeys("b");
    }

    @Test
    void rootArrayIsMerged() {
        BodyContent c =
                body("[{\"count\": 1}, {\"locals\": {\"a\": 1}}]").content(ROOT).value();
        assertThat(c.attributes()).containsOnlyKeys("count");
        assertThat(c.blocks()).hasSize(1);
    }

    @Test
    void commentPropertiesAreIgnored() {
        String json = "{\"//\": \"about this file\", \"locals\": {\"//\": \"note\", \"a\": 1}}";
        Result<BodyContent> r = body(json).content(ROOT);
        assertThat(r.diagnostics().isEmpty()).isTrue();
        assertThat(r.value().blocks().get(0).body().justAttributes().value()).containsOnlyKeys("a");
        var inner = r.value()
                .blocks()
                .get(0)
                .body()
                .content(new BodySchema(List.of(AttributeSchema.optional("a")), List.of()));
        assertThat(inner.diagnostics().isEmpty()).isTrue();
    }

    @Test
    void unknownPropertyReadsAsInNativeSyntax() {
        Diagnostic json =
                body("{\"cont\": 1}").content(ROOT).diagnostics().asList().get(0);
        Diagnostic hcl =
                nativeBody("cont = 1").content(ROOT).diagnostics().asList().get(0);
        assertThat(json.summary()).isEqualTo(hcl.summary()).isEqualTo("Unsupported argument");
        assertThat(json.detail()).isEqualTo(hcl.detail()).contains("Did you mean \"count\"?");
        assertThat(json.subject().sliceOf("{\"cont\": 1}".getBytes())).isEqualTo("\"cont\"");

        Diagnostic block =
                body("{\"resorce\": {}}").content(ROOT).diagnostics().asList().get(0);
        assertThat(block.summary()).isEqualTo("Unsupported block type");
        assertThat(block.detail()).contains("Did you mean \"resource\"?");
    }

    @Test
    void duplicateAttributeReadsAsInNativeSyntax() {
        String json = "{\"count\": 1, \"count\": 2}";
        List<Diagnostic> ds = body(json).content(ROOT).diagnostics().asList();
        assertThat(ds).hasSize(1);
        Diagnostic hcl = NativeSyntax.parseConfig("count = 1\ncount = 2".getBytes(), "t.tf")
                .diagnostics()
                .asList()
                .get(0);
        assertThat(ds.get(0).summary()).isEqualTo(hcl.summary());
        assertThat(ds.get(0).subject().start().byteOffset()).isEqualTo(13);
        assertThat(ds.get(0).detail()).contains("t.tf.json:1,2-9");
        assertThat(body(json).justAttributes().diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly(hcl.summary());
    }

    @Test
    void missingLabelReadsAsInNativeSyntax() {
        String json = "{\"resource\": {\"aws_instance\": {}}}";
        List<Diagnostic> ds = body(json).content(ROOT).diagnostics().asList();
        Diagnostic hcl = nativeBody("resource \"aws_instance\" {}")
                .content(ROOT)
                .diagnostics()
                .asList()
                .get(0);
        assertThat(ds).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo(hcl.summary()).isEqualTo("Missing name for resource");
            assertThat(d.detail()).isEqualTo(hcl.detail());
            assertThat(d.subject().start().byteOffset()).isEqualTo(json.lastIndexOf('{') - 0);
        });
    }

    @Test
    void missingRequiredArgument() {
        BodySchema s = new BodySchema(List.of(AttributeSchema.required("type")), List.of());
        Result<BodyContent> r = body("{\n}").content(s);
        assertThat(r.diagnostics().asList()).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Missing required argument");
            assertThat(d.subject().start().byteOffset()).isZero();
        });
    }

    @Test
    void wrongValueTypesForBlocks() {
        List<Diagnostic> ds = body("{\"locals\": 1, \"resource\": {\"a\": [1]}}")
                .content(ROOT)
                .diagnostics()
                .asList();
        assertThat(ds)
                .extracting(Diagnostic::summary)
                .containsExactly("Incorrect JSON value type", "Incorrect JSON value type");
        Body element =
                body("{\"locals\": [1]}").content(ROOT).value().blocks().get(0).body();
        assertThat(element.justAttributes().diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Incorrect JSON value type");
    }

    @Test
    void nullBlockValueMeansNoBlock() {
        Result<BodyContent> r = body("{\"terraform\": null}").content(ROOT);
        assertThat(r.diagnostics().isEmpty()).isTrue();
        assertThat(r.value().blocks()).isEmpty();
    }

    @Test
    void partialContentHidesWhatItDecoded() {
        Body b = body("{\"count\": 1, \"locals\": {}, \"extra\": true}");
        BodySchema first =
                new BodySchema(List.of(AttributeSchema.optional("count")), List.of(BlockHeaderSchema.of("locals")));
        Result<Body.PartialContent> p = b.partialContent(first);
        assertThat(p.diagnostics().isEmpty()).isTrue();
        assertThat(p.value().content().attributes()).containsOnlyKeys("count");
        Body remain = p.value().remain();
        assertThat(remain.justAttributes().value()).containsOnlyKeys("extra");
        Result<BodyContent> rest =
                remain.content(new BodySchema(List.of(AttributeSchema.optional("extra")), List.of()));
        assertThat(rest.diagnostics().isEmpty()).isTrue();
        assertThat(rest.value().attributes()).containsOnlyKeys("extra");
    }

    @Test
    void justAttributesTakesEveryProperty() {
        Map<String, Attribute> a = body("{\"x\": {\"y\": 1}, \"//\": \"c\", \"z\": [1]}")
                .justAttributes()
                .value();
        assertThat(a).containsOnlyKeys("x", "z");
        assertThat(a.get("x").nameRange().start().byteOffset()).isEqualTo(1);
    }

    @Test
    void terraformStyleFileDecodesEndToEnd() {
        String json = """
                {
                  "//": "generated",
                  "variable": {"region": {"type": "string", "default": "eu-west-1"}},
                  "resource": {
                    "aws_instance": {
                      "web": {
                        "count": 2,
                        "ami": "ami-${var.region}",
                        "depends_on": ["aws_vpc.main"],
                        "lifecycle": {"ignore_changes": ["tags"]},
                        "provisioner": {"local-exec": [{"command": "echo 1"}, {"command": "echo 2"}]}
                      }
                    }
                  }
                }""";
        BodyContent root = body(json).content(ROOT).value();
        Block web = root.blocksOfType("resource").get(0);
        BodySchema resource = new BodySchema(
                List.of(AttributeSchema.optional("count"), AttributeSchema.optional("depends_on")),
                List.of(BlockHeaderSchema.of("lifecycle"), BlockHeaderSchema.of("provisioner", "type")));
        Result<Body.PartialContent> meta = web.body().partialContent(resource);
        assertThat(meta.diagnostics().isEmpty()).isTrue();
        BodyContent m = meta.value().content();
        assertThat(m.attributes()
                        .get("depends_on")
                        .expr()
                        .asList()
                        .orElseThrow()
                        .get(0)
                        .asTraversal()
                        .value()
                        .orElseThrow()
                        .toString())
                .isEqualTo("aws_vpc.main");
        assertThat(m.blocksOfType("provisioner"))
                .hasSize(2)
                .allSatisfy(b -> assertThat(b.labels()).containsExactly("local-exec"));
        // What the provider schema decodes: the rest, without the meta-arguments.
        Result<BodyContent> config =
                meta.value().remain().content(new BodySchema(List.of(AttributeSchema.required("ami")), List.of()));
        assertThat(config.diagnostics().isEmpty())
                .as("%s", config.diagnostics())
                .isTrue();
        Attribute ami = config.value().attributes().get("ami");
        assertThat(ami.expr().variables())
                .singleElement()
                .satisfies(t -> assertThat(t.range().sliceOf(json.getBytes(StandardCharsets.UTF_8)))
                        .isEqualTo("var.region"));
    }
}
