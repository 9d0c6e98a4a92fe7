package dev.strata.providers.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AttributePath;
import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.testkit.Action;
import dev.strata.provider.testkit.ProviderTester;
import dev.strata.provider.testkit.ResourceTester;
import dev.strata.provider.testkit.Step;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TerraformDataTest {

    private static final String UUID_RE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    private static ResourceTester data() {
        var factory = ProviderRegistry.load()
                .resolve(Provider.impliedFor("terraform_data"), VersionConstraint.ANY)
                .value();
        return ProviderTester.configure(factory.create()).resource("terraform_data");
    }

    @Test
    void createEchoesInputAsOutput() {
        ResourceTester r = data();
        Step s = r.apply(Map.of("input", Value.string("hello")));
        assertThat(s.action()).isEqualTo(Action.CREATE);
        assertThat(s.planned().attributes().get("output")).isEqualTo(Value.unknown(Type.STRING));
        assertThat(s.state().attributes().get("output")).isEqualTo(Value.string("hello"));
        assertThat(s.state().attributes().get("id").asString()).matches(UUID_RE);
        r.destroy();
        assertThat(r.state().isNull()).isTrue();
    }

    @Test
    void nullInputPlansNullOutput() {
        Step s = data().apply(Map.of());
        assertThat(s.planned().attributes().get("output").isNull()).isTrue();
    }

    /** As terraform 1.11: "~ output = "x" -> (known after apply)" when the input is removed. */
    @Test
    void removingTheInputPlansAnUnknownOutputThenNull() {
        ResourceTester r = data();
        r.apply(Map.of("input", Value.string("x")));
        Step s = r.apply(Map.of());
        assertThat(s.action()).isEqualTo(Action.UPDATE);
        assertThat(s.planned().attributes().get("output").isKnown()).isFalse();
        assertThat(s.state().attributes().get("output").isNull()).isTrue();
    }

    @Test
    void inputChangeUpdatesInPlaceKeepingId() {
        ResourceTester r = data();
        String id = r.apply(Map.of("input", Value.number(1)))
                .state()
                .attributes()
                .get("id")
                .asString();
        Step s = r.apply(Map.of("input", Value.tuple(List.of(Value.string("a"), Value.TRUE))));
        assertThat(s.action()).isEqualTo(Action.UPDATE);
        assertThat(s.planned().attributes().get("id").asString()).isEqualTo(id);
        assertThat(s.planned().attributes().get("output").isKnown()).isFalse();
        assertThat(s.state().attributes().get("output")).isEqualTo(Value.tuple(List.of(Value.string("a"), Value.TRUE)));
        assertThat(r.apply(Map.of("input", Value.tuple(List.of(Value.string("a"), Value.TRUE))))
                        .action())
                .isEqualTo(Action.NO_OP);
    }

    @Test
    void triggersReplaceForcesReplacement() {
        ResourceTester r = data();
        String id = r.apply(Map.of("triggers_replace", Value.string("v1")))
                .state()
                .attributes()
                .get("id")
                .asString();
        Step s = r.apply(Map.of("triggers_replace", Value.string("v2")));
        assertThat(s.action()).isEqualTo(Action.REPLACE);
        assertThat(s.requiresReplace()).containsExactly(AttributePath.of("triggers_replace"));
        assertThat(s.state().attributes().get("id").asString()).isNotEqualTo(id).matches(UUID_RE);
    }

    @Test
    void importTakesTheIdOnly() {
        ResourceTester r = data();
        r.apply(Map.of());
        String id = r.state().attributes().get("id").asString();
        Value imported = r.importAndVerify(id, Set.of());
        assertThat(imported.attributes().get("input").isNull()).isTrue();
    }
}
