package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.Addrs;
import dev.strata.addr.AttributePath;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StateCodecTest {

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = StateCodecTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    static StateSnapshot read(String text) {
        Result<StateSnapshot> r = StateCodec.read(text.getBytes(StandardCharsets.UTF_8), "terraform.tfstate", "");
        assertThat(r.diagnostics().asList()).isEmpty();
        return r.value();
    }

    static Diagnostic readError(String text) {
        Result<StateSnapshot> r = StateCodec.read(
                text.getBytes(StandardCharsets.UTF_8),
                "terraform.tfstate",
                "The previous state is in terraform.tfstate.backup.");
        assertThat(r.value()).isNull();
        assertThat(r.hasErrors()).isTrue();
        return r.diagnostics().asList().get(0);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "tf-1.11-count-foreach-module-check.tfstate",
                "tf-1.11-tainted-cbd-escapes.tfstate",
                "handwritten-deposed-identity-unknown.tfstate"
            })
    void fixturesRoundTripByteForByte(String name) throws IOException {
        byte[] src = fixture(name);
        Result<StateSnapshot> r = StateCodec.read(src, name, "");
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(new String(StateCodec.write(r.value()), StandardCharsets.UTF_8))
                .isEqualTo(new String(src, StandardCharsets.UTF_8));
        // And the written form reads back to an equal snapshot.
        assertThat(StateCodec.read(StateCodec.write(r.value()), name, "").value())
                .isEqualTo(r.value());
    }

    @Test
    void terraformWrittenStateIsModelled() throws IOException {
        StateSnapshot s = StateCodec.read(fixture("tf-1.11-count-foreach-module-check.tfstate"), "f", "")
                .value();
        assertThat(s.serial()).isEqualTo(7);
        assertThat(s.lineage()).isEqualTo("bf43aa70-bfd1-fb61-2f84-fe907f1f9be4");
        assertThat(s.terraformVersion()).isEqualTo("1.11.4");
        assertThat(s.outputs().get("s").sensitive()).isTrue();
        assertThat(s.outputs().get("s").value()).isEqualTo(JsonValue.of("shh"));
        assertThat(s.instanceAddresses())
                .extracting(Object::toString)
                .containsExactly(
                        "terraform_data.a",
                        "terraform_data.b[0]",
                        "terraform_data.b[1]",
                        "terraform_data.c[\"k1\"]",
                        "terraform_data.c[\"k2\"]",
                        "module.m.terraform_data.z");
        ResourceInstanceObject c1 = s.objects(Addrs.parseAbsResourceInstance("terraform_data.c[\"k1\"]")
                        .value())
                .get(0);
        assertThat(c1.sensitiveAttributes())
                .containsExactly(new AttributePath(List.of(new AttributePath.Attr("input"))));
        assertThat(c1.attributes()).isInstanceOf(JsonValue.ObjectValue.class);
        ResourceInstanceObject b0 = s.resources().get(1).instances().get(0);
        assertThat(b0.key()).isEqualTo(InstanceKey.of(0));
        assertThat(b0.dependencies()).extracting(Object::toString).containsExactly("terraform_data.a");
        assertThat(s.checkResults()).hasSize(1);
        assertThat(s.checkResults().get(0).objects().get(0).status()).isEqualTo("pass");
    }

    @Test
    void handwrittenFixtureCoversDeposedIdentityPrivateFlatAndUnknownFields() throws IOException {
        StateSnapshot s = StateCodec.read(fixture("handwritten-deposed-identity-unknown.tfstate"), "f", "")
                .value();
        ResourceState db = s.resources().get(1);
        assertThat(db.addr().toString()).isEqualTo("aws_db_instance.main");
        assertThat(db.extra().get("x_future_resource_field")).isEqualTo(JsonValue.of("kept"));
        assertThat(db.instances()).extracting(ResourceInstanceObject::deposed).containsExactly(null, "00000001");
        ResourceInstanceObject current = db.instances().get(0);
        assertThat(current.identitySchemaVersion()).isEqualTo(1);
        assertThat(current.identity()).isNotNull();
        assertThat(current.privateData()).isEqualTo("eyJzY2hlbWFfdmVyc2lvbiI6IjIifQ==");
        assertThat(current.createBeforeDestroy()).isTrue();
        assertThat(current.sensitiveAttributes().get(1).stateText()).isEqualTo(".tags[\"Name\"]");
        ResourceInstanceObject old = db.instances().get(1);
        assertThat(old.extra().get("x_future_instance_field").toCompactJson()).isEqualTo("{\"kept\":[1,2.50]}");
        ResourceState subnet = s.resources().get(2);
        assertThat(subnet.module().toString()).isEqualTo("module.net[\"eu\"]");
        assertThat(subnet.each()).isEqualTo("list");
        assertThat(subnet.instances().get(0).status()).isEqualTo(ObjectStatus.TAINTED);
        assertThat(subnet.instances().get(1).attributesFlat()).containsEntry("id", "subnet-10");
        assertThat(s.checkResults().get(1).objects()).isNull();
        assertThat(s.checkResults().get(0).objects().get(0).failureMessages())
                .containsExactly("The database must be encrypted <1> & tagged.");
        assertThat(s.extra().get("x_future_top_level")).isNotNull();
    }

    @Test
    void writerSortsResourcesAndInstancesAsTerraformDoes() {
        JsonValue attrs = JsonValue.EMPTY_OBJECT;
        ResourceInstanceObject s = ResourceInstanceObject.current(InstanceKey.of("b"), 0, attrs, List.of(), List.of());
        ResourceInstanceObject i = ResourceInstanceObject.current(InstanceKey.of(2), 0, attrs, List.of(), List.of());
        ResourceInstanceObject j = ResourceInstanceObject.current(InstanceKey.of(10), 0, attrs, List.of(), List.of());
        AbsProviderConfig p = AbsProviderConfig.parse("provider[\"registry.terraform.io/hashicorp/x\"]")
                .value();
        ModuleInstance root = ModuleInstance.ROOT;
        ResourceState r1 =
                new ResourceState(root.resource(Resource.managed("x", "b")), null, p, List.of(s, j, i), null);
        ResourceState r2 = new ResourceState(root.resource(Resource.data("x", "a")), null, p, List.of(), null);
        ResourceState r3 = new ResourceState(
                root.child("a", InstanceKey.NONE).resource(Resource.managed("a", "a")), null, p, List.of(), null);
        ResourceState r4 = new ResourceState(root.resource(Resource.managed("x", "a")), null, p, List.of(), null);
        StateSnapshot snap = StateSnapshot.empty("0.1.0").withResources(List.of(r3, r1, r4, r2));
        assertThat(snap.resources())
                .extracting(r -> r.addr().toString())
                .containsExactly("data.x.a", "x.a", "x.b", "module.a.a.a");
        assertThat(snap.resources().get(2).instances())
                .extracting(o -> o.key().toString())
                .containsExactly("[2]", "[10]", "[\"b\"]");
        String text = new String(StateCodec.write(snap), StandardCharsets.UTF_8);
        assertThat(text)
                .startsWith("{\n  \"version\": 4,\n  \"terraform_version\": \"0.1.0\",\n  \"serial\": 0,\n")
                .contains("\"outputs\": {},")
                .contains("\"instances\": []")
                .endsWith("  \"check_results\": null\n}\n");
    }

    @Test
    void stringsAreEscapedAsGoDoes() {
        assertThat(new JsonValue.StringValue(
                                "<a&b> \u2028\u2029 \u00e9 \t\b\f\n\r \u0001 \u007f \"\\ \ud83d\ude00 \ud800")
                        .toCompactJson())
                .isEqualTo(
                        "\"\\u003ca\\u0026b\\u003e \\u2028\\u2029 \u00e9 \\t\\b\\f\\n\\r \\u0001 \u007f \\\"\\\\ \ud83d\ude00 \\ufffd\"");
    }

    @Test
    void numbersKeepTheirText() {
        StateSnapshot s =
                read(minimal("\"outputs\": {\"n\": {\"value\": 12345678901234567890.125, \"type\": \"number\"},"
                        + " \"m\": {\"value\": 1.5e20, \"type\": \"number\"}}"));
        assertThat(s.outputs().get("n").value()).isEqualTo(new JsonValue.NumberValue("12345678901234567890.125"));
        assertThat(new String(StateCodec.write(s), StandardCharsets.UTF_8)).contains("\"value\": 1.5e20,");
    }

    static String minimal(String more) {
        return "{\"version\": 4, \"terraform_version\": \"1.11.4\", \"serial\": 3, \"lineage\": \"l\""
                + (more.isEmpty() ? "" : ", " + more) + "}";
    }

    @Test
    void truncatedFileNamesLineColumnAndBackup() {
        String full = minimal("\"resources\": [\n  {\"mode\": \"managed\"");
        Diagnostic d = readError(full);
        assertThat(d.summary()).isEqualTo("Failed to read the state file");
        assertThat(d.detail())
                .contains("terraform.tfstate is not valid JSON at line 2, column")
                .contains("truncated")
                .contains("terraform.tfstate.backup");
        assertThat(d.subject().start().line()).isEqualTo(2);
    }

    @Test
    void corruptByteIsLocated() {
        Diagnostic d = readError("{\n  \"version\": 4,\n  \"serial\": 1x\n}");
        assertThat(d.subject().start().line()).isEqualTo(3);
        assertThat(d.detail()).contains("at line 3, column");
    }

    @Test
    void emptyFileIsReported() {
        assertThat(readError("").detail()).contains("the file is empty");
    }

    @Test
    void version3IsRefusedWithAWayForward() {
        Diagnostic d = readError("{\"version\": 3, \"serial\": 1, \"modules\": []}");
        assertThat(d.summary()).isEqualTo("Unsupported state file format");
        assertThat(d.detail()).contains("format version 3").contains("terraform state pull");
    }

    @Test
    void newerVersionIsRefused() {
        Diagnostic d = readError("{\"version\": 5}");
        assertThat(d.detail()).contains("format version 5, which is newer");
    }

    @Test
    void notAStateFile() {
        assertThat(readError("[1,2]").detail()).contains("must contain a JSON object");
        assertThat(readError("{\"hello\": 1}").detail()).contains("no valid \"version\" field");
    }

    @Test
    void fieldTypeErrorsPointAtTheField() {
        String text =
                "{\n  \"version\": 4,\n  \"serial\": 1,\n  \"lineage\": \"l\",\n  \"resources\": [\n    {\"mode\": \"managed\", \"type\": \"t\", \"name\": \"n\", \"provider\": \""
                        + P + "\",\n" + "     \"instances\": [{\"index_key\": true}]}\n  ]\n}";
        Diagnostic d = readError(text);
        assertThat(d.summary()).isEqualTo("Invalid resource instance metadata in state");
        assertThat(d.detail()).contains("t.n").contains("invalid instance key true");
        assertThat(d.subject().start().line()).isEqualTo(7);
        assertThat(d.subject().start().column()).isEqualTo(21);
    }

    static String sensitivePaths(String steps) {
        return resource(null, P, "t.m")
                .replace("\"schema_version\": 0,", "\"schema_version\": 0, \"sensitive_attributes\": [" + steps + "],");
    }

    @Test
    void sensitiveIndexKeysAreTypedAndWrittenBackAsRead() {
        String steps = "[{\"type\":\"get_attr\",\"value\":\"rule\"},"
                + "{\"type\":\"index\",\"value\":{\"value\":1.50,\"type\":\"number\"}},"
                + "{\"type\":\"get_attr\",\"value\":\"tags\"},"
                + "{\"type\":\"index\",\"value\":{\"value\":\"a<b\",\"type\":\"string\"}}]";
        Result<StateSnapshot> r =
                StateCodec.read(sensitivePaths(steps).getBytes(StandardCharsets.UTF_8), "terraform.tfstate", "");
        AttributePath p = r.value()
                .resources()
                .get(0)
                .instances()
                .get(0)
                .sensitiveAttributes()
                .get(0);
        assertThat(p)
                .isEqualTo(AttributePath.of("rule")
                        .index(new java.math.BigDecimal("1.50"))
                        .attr("tags")
                        .key("a<b"));
        String written = new String(StateCodec.write(r.value()), StandardCharsets.UTF_8);
        assertThat(written.replaceAll("\\s", "")).contains(steps.replace("<", "\\u003c"));
        assertThat(p.stateText()).isEqualTo(".rule[1.50].tags[\"a\\u003cb\"]");
    }

    @Test
    void sensitiveIndexKeyOfAnotherTypeIsAnError() {
        Diagnostic d = readError(sensitivePaths("[{\"type\":\"index\",\"value\":{\"value\":true,\"type\":\"bool\"}}]"));
        assertThat(d.detail()).contains("must be an index key").contains("but it is");
    }

    /** A valid provider configuration, as the JSON text of the state's {@code provider} field. */
    static final String P = "provider[\\\"registry.terraform.io/hashicorp/t\\\"]";

    static String resource(String module, String provider, String dependency) {
        return minimal("\"resources\": [{" + (module == null ? "" : "\"module\": \"" + module + "\", ")
                + "\"mode\": \"managed\", \"type\": \"t\", \"name\": \"n\", \"provider\": \"" + provider + "\", "
                + "\"instances\": [{\"schema_version\": 0, \"dependencies\": [\"" + dependency + "\"]}]}]");
    }

    @Test
    void addressesAreParsedAndWrittenBackTyped() {
        StateSnapshot s = StateCodec.read(
                        resource(
                                        "module.a[\\\"x\\\"].module.b[2]",
                                        "module.a.provider[\\\"registry.terraform.io/hashicorp/t\\\"].west",
                                        "module.a.t.other")
                                .getBytes(StandardCharsets.UTF_8),
                        "terraform.tfstate",
                        "")
                .value();
        ResourceState r = s.resources().getFirst();
        assertThat(r.module().steps()).extracting(ModuleInstance.Step::name).containsExactly("a", "b");
        assertThat(r.module().steps())
                .extracting(ModuleInstance.Step::key)
                .containsExactly(InstanceKey.of("x"), InstanceKey.of(2));
        assertThat(r.provider().module().names()).containsExactly("a");
        assertThat(r.provider().provider().type()).isEqualTo("t");
        assertThat(r.provider().alias()).isEqualTo("west");
        assertThat(r.instances().getFirst().dependencies())
                .extracting(Object::toString)
                .containsExactly("module.a.t.other");
        String written = new String(StateCodec.write(s), StandardCharsets.UTF_8);
        assertThat(written)
                .contains("\"module\": \"module.a[\\\"x\\\"].module.b[2]\"")
                .contains("\"provider\": \"module.a.provider[\\\"registry.terraform.io/hashicorp/t\\\"].west\"");
    }

    @Test
    void legacyProviderAddressesReadAsTerraformReadsThem() {
        StateSnapshot s = StateCodec.read(
                        resource(null, "provider.aws.east", "t.a").getBytes(StandardCharsets.UTF_8),
                        "terraform.tfstate",
                        "")
                .value();
        assertThat(s.resources().getFirst().provider().toString())
                .isEqualTo("provider[\"registry.terraform.io/-/aws\"].east");
    }

    @Test
    void malformedAddressesNameTheFileTheResourceTheProblemAndTheFix() {
        Diagnostic module = readError(resource("module.a[", P, "t.a"));
        assertThat(module.summary()).isEqualTo("Invalid module instance address in state");
        assertThat(module.detail())
                .contains("terraform.tfstate")
                .contains("module.a[.t.n")
                .contains("correct the \"module\" field");
        assertThat(module.subject().filename()).isEqualTo("terraform.tfstate");

        Diagnostic provider =
                readError(resource(null, "module.m[0].provider[\\\"registry.terraform.io/hashicorp/t\\\"]", "t.a"));
        assertThat(provider.summary()).isEqualTo("Invalid provider configuration address in state");
        assertThat(provider.detail())
                .contains("Resource t.n in terraform.tfstate")
                .contains("module path cannot contain instance keys")
                .contains("strata state replace-provider");

        Diagnostic noProvider = readError(resource(null, "aws", "t.a"));
        assertThat(noProvider.detail()).contains("it must name a provider");

        Diagnostic dependency = readError(resource(null, P, "not an address"));
        assertThat(dependency.summary()).isEqualTo("Invalid resource instance metadata in state");
        assertThat(dependency.detail())
                .contains("Instance t.n in terraform.tfstate depends on \"not an address\"")
                .contains("correct or remove the entry of \"dependencies\"");
        assertThat(dependency.subject().start().line()).isEqualTo(1);
    }

    @Test
    void badModeAndDuplicateInstance() {
        assertThat(readError(minimal(
                                "\"resources\": [{\"mode\": \"weird\", \"type\": \"t\", \"name\": \"n\", \"provider\": \""
                                        + P + "\", \"instances\": []}]"))
                        .summary())
                .isEqualTo("Invalid resource mode in state");
        assertThat(readError(minimal(
                                "\"resources\": [{\"mode\": \"managed\", \"type\": \"t\", \"name\": \"n\", \"provider\": \""
                                        + P + "\", "
                                        + "\"instances\": [{\"schema_version\": 0}, {\"schema_version\": 0}]}]"))
                        .summary())
                .isEqualTo("Duplicate resource instance in state");
        assertThat(readError(minimal(
                                "\"resources\": [{\"mode\": \"managed\", \"type\": \"t\", \"name\": \"n\", \"provider\": \""
                                        + P + "\", " + "\"instances\": [{\"deposed\": \"short\"}]}]"))
                        .detail())
                .contains("not 8 characters long");
        assertThat(readError(minimal("\"serial\": -1")).detail())
                .contains("serial must be a whole number not below zero");
    }

    @Test
    void unknownFieldsSurviveARewrite() {
        StateSnapshot s = read(minimal("\"future\": {\"a\": [1, \"x\"]}"));
        StateSnapshot changed = s.withSerial(4);
        String text = new String(StateCodec.write(changed), StandardCharsets.UTF_8);
        assertThat(text).contains("\"future\": {\n    \"a\": [\n      1,\n      \"x\"\n    ]\n  }");
    }

    @Test
    void sameContentIgnoresSerialAndVersion() {
        StateSnapshot a = StateSnapshot.empty("0.1.0");
        assertThat(a.sameContentAs(a.withSerial(9).withTerraformVersion("1.0.0")))
                .isTrue();
        assertThat(a.sameContentAs(a.withOutputs(
                        java.util.Map.of("o", new OutputValue(JsonValue.TRUE, JsonValue.of("bool"), false)))))
                .isFalse();
    }

    static List<String> problems(String text) {
        Result<StateSnapshot> r = StateCodec.read(
                text.getBytes(StandardCharsets.UTF_8),
                "terraform.tfstate",
                "The previous state is in terraform.tfstate.backup.");
        assertThat(r.value()).isNull();
        return r.diagnostics().asList().stream()
                .map(d -> d.subject().start().line() + ": " + d.detail())
                .toList();
    }

    static final String GOOD_RESOURCE = "{\"mode\": \"managed\", \"type\": \"t\", \"name\": \"n\", \"provider\": \"" + P
            + "\", \"instances\": [{\"schema_version\": 0, \"attributes\": {\"id\": \"a\"}}]}";

    @Test
    void rootMembersInAnyOrderReadTheSame() {
        String ordered = "{\"version\": 4, \"terraform_version\": \"1.11.4\", \"serial\": 3, \"lineage\": \"l\", "
                + "\"outputs\": {\"o\": {\"value\": 1, \"type\": \"number\"}}, \"resources\": [" + GOOD_RESOURCE
                + "], \"check_results\": null, \"future\": true}";
        // As a tool that sorts keys (jq -S) writes it: resources before serial and version.
        String sorted = "{\"check_results\": null, \"future\": true, \"lineage\": \"l\", "
                + "\"outputs\": {\"o\": {\"value\": 1, \"type\": \"number\"}}, \"resources\": [" + GOOD_RESOURCE
                + "], \"serial\": 3, \"terraform_version\": \"1.11.4\", \"version\": 4}";
        StateSnapshot a = read(ordered);
        assertThat(a.resources()).hasSize(1);
        assertThat(read(sorted)).isEqualTo(a);
        assertThat(StateCodec.write(read(sorted))).isEqualTo(StateCodec.write(a));
    }

    @Test
    void problemsComeInTheSameOrderWhereverTheirMembersAre() {
        String badResource = "{\"mode\": \"weird\", \"type\": \"t\", \"name\": \"n\", \"provider\": \"" + P
                + "\", \"instances\": []}";
        String lineageFirst = "{\"version\": 4,\n\"lineage\": 7,\n\"resources\": [" + badResource + "]}";
        String resourcesFirst = "{\"resources\": [" + badResource + "],\n\"lineage\": 7,\n\"version\": 4}";
        List<String> first = problems(lineageFirst);
        List<String> second = problems(resourcesFirst);
        assertThat(first).hasSize(2);
        assertThat(first.get(0))
                .startsWith("2: The field lineage must be a string")
                .contains("terraform.tfstate.backup");
        assertThat(first.get(1))
                .startsWith("3: Resource t.n has mode \"weird\"")
                .doesNotContain("backup");
        // The same problems, each located where it is, in the same order.
        assertThat(second).containsExactly(first.get(0), first.get(1).replaceFirst("^3:", "1:"));
    }

    @Test
    void aWrongVersionAfterTheResourcesIsTheOnlyProblem() {
        List<String> p = problems("{\"resources\": [{\"mode\": \"weird\"}], \"version\": 3}");
        assertThat(p).hasSize(1);
        assertThat(p.get(0)).contains("format version 3");
    }

    @Test
    void aSyntaxErrorAfterBadResourcesIsTheOnlyProblem() {
        List<String> p = problems("{\"version\": 4, \"resources\": [{\"mode\": \"weird\"}],\n\"serial\": 1x}");
        assertThat(p).hasSize(1);
        assertThat(p.get(0)).startsWith("2: ").contains("is not valid JSON at line 2");
    }

    @Test
    void resourcesGivenTwiceCountWithTheLastArray() {
        StateSnapshot s =
                read(minimal("\"resources\": [{\"mode\": \"weird\"}], \"resources\": [" + GOOD_RESOURCE + "]"));
        assertThat(s.resources()).extracting(r -> r.addr().toString()).containsExactly("t.n");
        assertThat(s.resources().get(0).instances().get(0).attributes())
                .isEqualTo(JsonValue.parse("{\"id\": \"a\"}", "x").value());
    }

    static String manyResources(int count, int weird, int duplicateOf) {
        StringBuilder sb = new StringBuilder("{\"version\": 4, \"serial\": 1, \"lineage\": \"l\", \"resources\": [");
        for (int i = 0; i < count; i++) {
            int n = i == duplicateOf + count / 2 && duplicateOf >= 0 ? duplicateOf : i;
            sb.append(i == 0 ? "\n" : ",\n")
                    .append("{\"mode\": \"")
                    .append(i == weird ? "weird" : "managed")
                    .append("\", \"type\": \"t\", \"name\": \"n")
                    .append(String.format("%05d", n))
                    .append("\", \"provider\": \"")
                    .append(P)
                    .append("\", \"instances\": [{\"schema_version\": 0, \"attributes\": {\"id\": \"")
                    .append(n)
                    .append("\"}}]}");
        }
        return sb.append("\n]}").toString();
    }

    @Test
    void largeStatesDecodeWhileTheyAreReadWithTheSameResultsAndProblems() {
        // Over ten batches: decoded on a second thread while the rest is read.
        StateSnapshot s = read(manyResources(6_000, -1, -1));
        assertThat(s.resources()).hasSize(6_000);
        assertThat(s.resources().get(4_321).addr().toString()).isEqualTo("t.n04321");
        assertThat(s.resources().get(4_321).instances().get(0).attributes())
                .isEqualTo(JsonValue.parse("{\"id\": \"4321\"}", "x").value());
        assertThat(read(new String(StateCodec.write(s), StandardCharsets.UTF_8)))
                .isEqualTo(s);
        // Problems late in the file, in different batches, in file order; each on its resource's line.
        List<String> p = problems(manyResources(6_000, 5_700, 100));
        assertThat(p).hasSize(2);
        assertThat(p.get(0)).startsWith("3102: Resource t.n00100 appears more than once");
        assertThat(p.get(1)).startsWith("5702: Resource t.n05700 has mode \"weird\"");
    }

    @Test
    void anInterruptDoesNotStopALargeReadAndIsKept() {
        String text = manyResources(3_000, -1, -1);
        Thread.currentThread().interrupt();
        try {
            assertThat(read(text).resources()).hasSize(3_000);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
