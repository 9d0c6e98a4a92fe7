package dev.strata.providers.nullprovider;

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
import java.util.Map;
import org.junit.jupiter.api.Test;

class NullProviderTest {

    private static ProviderTester tester() {
        return ProviderTester.configure(ProviderRegistry.load()
                .resolve(
                        Provider.impliedFor("null_resource"),
                        VersionConstraint.parse("~> 3.2").value())
                .value()
                .create());
    }

    private static Value triggers(String v) {
        return Value.map(Type.STRING, Map.of("t", Value.string(v)));
    }

    @Test
    void nullResourceLifecycle() {
        ResourceTester r = tester().resource("null_resource");
        Step s = r.apply(Map.of("triggers", triggers("1")));
        assertThat(s.action()).isEqualTo(Action.CREATE);
        String id = s.state().attributes().get("id").asString();
        assertThat(id).matches("[0-9]+");
        assertThat(r.apply(Map.of("triggers", triggers("1"))).action()).isEqualTo(Action.NO_OP);
        Step replaced = r.apply(Map.of("triggers", triggers("2")));
        assertThat(replaced.action()).isEqualTo(Action.REPLACE);
        assertThat(replaced.requiresReplace()).containsExactly(AttributePath.of("triggers"));
        assertThat(replaced.state().attributes().get("id").asString()).isNotEqualTo(id);
        assertThat(r.importErrors("123").hasErrors()).isTrue();
        r.destroy();
    }

    @Test
    void nullDataSourceEchoesInputs() {
        Value s = tester().readData("null_data_source", Map.of("inputs", triggers("x")));
        assertThat(s.attributes().get("outputs")).isEqualTo(triggers("x"));
        assertThat(s.attributes().get("has_computed_default")).isEqualTo(Value.string("default"));
        assertThat(s.attributes().get("id")).isEqualTo(Value.string("static"));
        assertThat(s.attributes().get("random").asString()).matches("[0-9]+");
        Value set = tester().readData("null_data_source", Map.of("has_computed_default", Value.string("mine")));
        assertThat(set.attributes().get("has_computed_default")).isEqualTo(Value.string("mine"));
        assertThat(set.attributes().get("outputs")).isEqualTo(Value.map(Type.STRING, Map.of()));
    }
}
