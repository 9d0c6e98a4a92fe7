package dev.strata.providers.random;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AttributePath;
import dev.strata.addr.VersionConstraint;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.ValueJson;
import dev.strata.provider.testkit.Action;
import dev.strata.provider.testkit.ProviderTester;
import dev.strata.provider.testkit.ResourceTester;
import dev.strata.provider.testkit.Step;
import java.math.BigInteger;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomProviderTest {

    private static Provider provider() {
        return ProviderRegistry.load()
                .resolve(
                        dev.strata.addr.Provider.impliedFor("random_id"),
                        VersionConstraint.parse("~> 3.0").value())
                .value()
                .create();
    }

    private static ProviderTester tester() {
        return ProviderTester.configure(provider());
    }

    private static Value keepers(String v) {
        return Value.map(Type.STRING, Map.of("k", Value.string(v)));
    }

    private static String str(Value state, String attr) {
        return state.attributes().get(attr).asString();
    }

    private static void keepersReplace(ResourceTester r, Map<String, Value> config, String attr) {
        Map<String, Value> with = new java.util.HashMap<>(config);
        with.put("keepers", keepers("a"));
        Value first = r.apply(with).state().attributes().get(attr);
        assertThat(r.apply(with).action()).isEqualTo(Action.NO_OP);
        with.put("keepers", keepers("b"));
        Step s = r.apply(with);
        assertThat(s.action()).isEqualTo(Action.REPLACE);
        assertThat(s.requiresReplace()).contains(AttributePath.of("keepers"));
        assertThat(s.state().attributes().get(attr)).isNotEqualTo(first);
    }

    @Test
    void randomIdFormatsAgree() {
        ResourceTester r = tester().resource("random_id");
        Value s = r.apply(Map.of("byte_length", Value.number(8), "prefix", Value.string("p-")))
                .state();
        byte[] bytes = Base64.getUrlDecoder().decode(str(s, "id"));
        assertThat(bytes).hasSize(8);
        assertThat(str(s, "id")).matches("[A-Za-z0-9_-]{11}");
        assertThat(str(s, "b64_url")).isEqualTo("p-" + str(s, "id"));
        assertThat(str(s, "b64_std")).isEqualTo("p-" + Base64.getEncoder().encodeToString(bytes));
        assertThat(str(s, "hex"))
                .isEqualTo("p-" + HexFormat.of().formatHex(bytes))
                .hasSize(2 + 16);
        assertThat(str(s, "dec")).isEqualTo("p-" + new BigInteger(1, bytes));
        r.importAndVerify("p-," + str(s, "id"), Set.of("keepers"));
        keepersReplace(r, Map.of("byte_length", Value.number(4)), "id");
        r.destroy();
        assertThat(tester().validateResource("random_id", Map.of("byte_length", Value.number(0)))
                        .hasErrors())
                .isTrue();
    }

    @Test
    void randomIntegerInRangeAndRepeatableWithSeed() {
        ResourceTester r = tester().resource("random_integer");
        for (int i = 0; i < 20; i++) {
            Value s = r.apply(Map.of("min", Value.number(1), "max", Value.number(3), "keepers", keepers("" + i)))
                    .state();
            int v = s.attributes().get("result").asNumber().intValueExact();
            assertThat(v).isBetween(1, 3);
            assertThat(str(s, "id")).isEqualTo(Integer.toString(v));
        }
        Map<String, Value> seeded =
                Map.of("min", Value.number(1), "max", Value.number(1000000), "seed", Value.string("x"));
        Value a = tester().resource("random_integer")
                .apply(seeded)
                .state()
                .attributes()
                .get("result");
        Value b = tester().resource("random_integer")
                .apply(seeded)
                .state()
                .attributes()
                .get("result");
        assertThat(a).isEqualTo(b);
        ResourceTester imp = tester().resource("random_integer");
        Value st = imp.apply(Map.of("min", Value.number(5), "max", Value.number(9)))
                .state();
        imp.importAndVerify(str(st, "id") + ",5,9", Set.of());
        assertThat(tester().validateResource("random_integer", Map.of("min", Value.number(5), "max", Value.number(1)))
                        .asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Create Random Integer Error");
        assertThat(imp.importErrors("1,2").hasErrors()).isTrue();
        imp.destroy();
    }

    @Test
    void randomPasswordIsSensitiveAndHashed() {
        ResourceTester r = tester().resource("random_password");
        Step step = r.apply(Map.of(
                "length",
                Value.number(24),
                "min_upper",
                Value.number(3),
                "min_numeric",
                Value.number(3),
                "min_special",
                Value.number(2),
                "override_special",
                Value.string("_%@")));
        Value s = step.state();
        String pw = str(s, "result");
        assertThat(pw).hasSize(24).matches("[A-Za-z0-9_%@]+");
        assertThat(pw.chars().filter(Character::isUpperCase).count()).isGreaterThanOrEqualTo(3);
        assertThat(pw.chars().filter(Character::isDigit).count()).isGreaterThanOrEqualTo(3);
        assertThat(pw.chars().filter(c -> "_%@".indexOf(c) >= 0).count()).isGreaterThanOrEqualTo(2);
        assertThat(str(s, "id")).isEqualTo("none");
        assertThat(str(s, "bcrypt_hash")).startsWith("$2a$10$");
        assertThat(RandomStringResource.matchesBcrypt(pw, str(s, "bcrypt_hash")))
                .isTrue();
        assertThat(s.attributes().get("special")).isEqualTo(Value.TRUE);
        assertThat(s.attributes().get("number")).isEqualTo(Value.TRUE);
        var schema = provider().schema().resourceType("random_password");
        assertThat(schema.version()).isEqualTo(3);
        assertThat(schema.block().attribute("result").sensitive()).isTrue();
        assertThat(schema.block().attribute("bcrypt_hash").sensitive()).isTrue();
        Value imported = r.importState("Imp0rted!");
        assertThat(str(imported, "result")).isEqualTo("Imp0rted!");
        assertThat(imported.attributes().get("length")).isEqualTo(Value.number(9));
        assertThat(RandomStringResource.matchesBcrypt("Imp0rted!", str(imported, "bcrypt_hash")))
                .isTrue();
        keepersReplace(r, Map.of("length", Value.number(10)), "result");
        r.destroy();
    }

    @Test
    void randomStringHonoursCharacterClasses() {
        ResourceTester r = tester().resource("random_string");
        Value s = r.apply(Map.of(
                        "length",
                        Value.number(40),
                        "special",
                        Value.FALSE,
                        "upper",
                        Value.FALSE,
                        "number",
                        Value.FALSE))
                .state();
        assertThat(str(s, "result")).matches("[a-z]{40}");
        assertThat(str(s, "id")).isEqualTo(str(s, "result"));
        assertThat(s.attributes().get("numeric")).isEqualTo(Value.FALSE);
        Value d = tester().resource("random_string")
                .apply(Map.of("length", Value.number(200)))
                .state();
        assertThat(str(d, "result")).matches("[A-Za-z0-9!@#$%&*()\\-_=+\\[\\]{}<>:?]{200}");
        assertThat(tester().validateResource(
                                "random_string", Map.of("length", Value.number(2), "min_lower", Value.number(3)))
                        .hasErrors())
                .isTrue();
        assertThat(tester().validateResource(
                                "random_string",
                                Map.of("length", Value.number(2), "number", Value.TRUE, "numeric", Value.FALSE))
                        .hasErrors())
                .isTrue();
        r.importAndVerify(str(s, "result"), Set.of("special", "upper", "number", "numeric"));
        r.destroy();
    }

    @Test
    void olderPasswordStateIsUpgraded() {
        Provider p = provider();
        ProviderTester.configure(p);
        String v2 = "{\"id\":\"none\",\"keepers\":null,\"length\":8,\"lower\":true,\"min_lower\":0,\"min_numeric\":0,"
                + "\"min_special\":0,\"min_upper\":0,\"number\":true,\"override_special\":null,\"result\":\"abcdefgh\","
                + "\"special\":true,\"upper\":true}";
        var up = p.upgradeResourceState(new Provider.UpgradeRequest("random_password", 2, v2));
        assertThat(up.diagnostics().hasErrors()).isFalse();
        Value s = up.upgradedState();
        assertThat(s.attributes().get("numeric")).isEqualTo(Value.TRUE);
        assertThat(RandomStringResource.matchesBcrypt("abcdefgh", str(s, "bcrypt_hash")))
                .isTrue();
        String json = ValueJson.encode(
                s, p.schema().resourceType("random_password").block().impliedType());
        assertThat(p.upgradeResourceState(new Provider.UpgradeRequest("random_password", 4, json))
                        .diagnostics()
                        .hasErrors())
                .isTrue();
    }

    @Test
    void randomPetUsesPetnameWords() {
        ResourceTester r = tester().resource("random_pet");
        String two = str(r.apply(Map.of()).state(), "id");
        String[] w = two.split("-");
        assertThat(w).hasSize(2);
        assertThat(RandomPet.isAdjective(w[0]) && RandomPet.isName(w[1])).isTrue();
        Value four = tester().resource("random_pet")
                .apply(Map.of("length", Value.number(4), "separator", Value.string("."), "prefix", Value.string("web")))
                .state();
        String[] p = str(four, "id").split("\\.");
        assertThat(p).hasSize(5);
        assertThat(p[0]).isEqualTo("web");
        assertThat(RandomPet.isAdverb(p[1])
                        && RandomPet.isAdverb(p[2])
                        && RandomPet.isAdjective(p[3])
                        && RandomPet.isName(p[4]))
                .isTrue();
        assertThat(RandomPet.isName(str(
                        tester().resource("random_pet")
                                .apply(Map.of("length", Value.number(1)))
                                .state(),
                        "id")))
                .isTrue();
        keepersReplace(r, Map.of(), "id");
        assertThat(r.importErrors("x").asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Resource Import Not Implemented");
        r.destroy();
    }

    @Test
    void randomShufflePermutes() {
        List<Value> in = List.of(Value.string("a"), Value.string("b"), Value.string("c"), Value.string("d"));
        ResourceTester r = tester().resource("random_shuffle");
        Value s = r.apply(Map.of("input", Value.list(Type.STRING, in))).state();
        assertThat(s.attributes().get("result").elements()).containsExactlyInAnyOrderElementsOf(in);
        assertThat(str(s, "id")).isEqualTo("-");
        Value more = tester().resource("random_shuffle")
                .apply(Map.of("input", Value.list(Type.STRING, in), "result_count", Value.number(6)))
                .state();
        assertThat(more.attributes().get("result").elements()).hasSize(6);
        Value fewer = tester().resource("random_shuffle")
                .apply(Map.of("input", Value.list(Type.STRING, in), "result_count", Value.number(2)))
                .state();
        assertThat(fewer.attributes().get("result").elements()).hasSize(2).doesNotHaveDuplicates();
        Map<String, Value> seeded = Map.of("input", Value.list(Type.STRING, in), "seed", Value.string("s"));
        assertThat(tester().resource("random_shuffle").apply(seeded).state())
                .isEqualTo(tester().resource("random_shuffle").apply(seeded).state());
        Step changed = r.apply(Map.of("input", Value.list(Type.STRING, in.subList(0, 2))));
        assertThat(changed.action()).isEqualTo(Action.REPLACE);
        r.destroy();
    }

    @Test
    void randomUuidFormat() {
        ResourceTester r = tester().resource("random_uuid");
        Value s = r.apply(Map.of()).state();
        assertThat(str(s, "result")).matches(RandomUuid.FORMAT.pattern());
        assertThat(str(s, "id")).isEqualTo(str(s, "result"));
        r.importAndVerify(str(s, "id").toUpperCase(), Set.of());
        assertThat(r.importErrors("not-a-uuid").hasErrors()).isTrue();
        keepersReplace(r, Map.of(), "result");
        r.destroy();
    }

    @Test
    void crc64IsoMatchesTheStandardCheckValue() {
        // CRC-64/GO-ISO check value for "123456789".
        assertThat(Long.toHexString(Common.crc64Iso("123456789".getBytes()))).isEqualTo("b90956c775a41001");
    }
}
