package dev.strata.provider.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.testkit.Action;
import dev.strata.provider.testkit.ProviderTester;
import dev.strata.provider.testkit.ResourceTester;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SdkProviderTest {

    /** A resource with one of everything the framework plans for. */
    private static class Thing implements ManagedResource {
        int creates;
        boolean leak;
        boolean unknownAfterApply;
        boolean changePlanned;

        @Override
        public String typeName() {
            return "test_thing";
        }

        @Override
        public Schema schema() {
            return new Schema(
                    2,
                    Block.builder()
                            .attribute("name", Attribute.required(Type.STRING))
                            .attribute("zone", Attribute.optional(Type.STRING))
                            .attribute("size", Attribute.optionalComputed(Type.NUMBER))
                            .attribute("secret", Attribute.optional(Type.STRING).withSensitive())
                            .attribute("id", Attribute.computed(Type.STRING))
                            .attribute("etag", Attribute.computed(Type.STRING))
                            .attribute(
                                    "password_wo",
                                    Attribute.optional(Type.STRING).withWriteOnly())
                            .build());
        }

        @Override
        public Set<String> forceNew() {
            return Set.of("zone");
        }

        @Override
        public Map<String, Value> defaults() {
            return Map.of("size", Value.number(1));
        }

        @Override
        public Set<String> stableComputed() {
            return Set.of("id");
        }

        @Override
        public Value create(Value planned, Value config, String token, ProviderDiagnostics.Builder diags) {
            creates++;
            if (leak) {
                diags.error("Bad secret", "the secret " + Attrs.string(planned, "secret") + " was refused", null);
                return null;
            }
            return Attrs.with(
                    planned,
                    "id",
                    Value.string("id-" + creates),
                    "etag",
                    unknownAfterApply ? Value.unknown(Type.STRING) : Value.string("e" + creates),
                    "name",
                    changePlanned ? Value.string("other") : Attrs.get(planned, "name"));
        }

        @Override
        public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
            return Attrs.with(planned, "etag", Value.string("e-updated"));
        }
    }

    private static ProviderTester tester(Thing t) {
        return ProviderTester.configure(
                new SdkProvider(Schema.of(Block.builder().build()), List.of(t), List.of()));
    }

    @Test
    void plansDefaultsUnknownsAndReplacement() {
        Thing t = new Thing();
        ResourceTester r = tester(t).resource("test_thing");
        var created = r.apply(Map.of("name", Value.string("a"), "zone", Value.string("z1")));
        assertThat(created.planned().attributes().get("size")).isEqualTo(Value.number(1));
        assertThat(created.planned().attributes().get("id").isKnown()).isFalse();
        var updated = r.apply(Map.of("name", Value.string("b"), "zone", Value.string("z1")));
        assertThat(updated.action()).isEqualTo(Action.UPDATE);
        assertThat(updated.planned().attributes().get("id")).isEqualTo(Value.string("id-1"));
        assertThat(updated.planned().attributes().get("etag").isKnown()).isFalse();
        var replaced = r.apply(Map.of("name", Value.string("b"), "zone", Value.string("z2")));
        assertThat(replaced.action()).isEqualTo(Action.REPLACE);
        assertThat(replaced.requiresReplace()).containsExactly(AttributePath.of("zone"));
        assertThat(replaced.state().attributes().get("id")).isEqualTo(Value.string("id-2"));
        assertThat(t.creates).isEqualTo(2);
    }

    /** Write-only values reach the provider in the configuration but are never planned nor recorded. */
    @Test
    void writeOnlyValuesAreNeitherPlannedNorKept() {
        ResourceTester r = tester(new Thing()).resource("test_thing");
        var created = r.apply(Map.of("name", Value.string("a"), "password_wo", Value.string("hunter2")));
        assertThat(created.planned().attributes().get("password_wo").isNull()).isTrue();
        assertThat(created.state().attributes().get("password_wo").isNull()).isTrue();
    }

    @Test
    void unknownTypesAreNamedWithTheAlternatives() {
        Provider p = new SdkProvider(Schema.of(Block.builder().build()), List.of(new Thing()), List.of());
        ProviderDiagnostics d = p.validateResourceConfig("test_other", Value.EMPTY_OBJECT);
        assertThat(d.asList())
                .extracting(ProviderDiagnostic::detail)
                .containsExactly(
                        "This provider does not support resource type \"test_other\". Its resource types are: test_thing.");
    }

    @Test
    void theKitCatchesProtocolViolations() {
        Thing unknown = new Thing();
        unknown.unknownAfterApply = true;
        assertThatThrownBy(() -> tester(unknown).resource("test_thing").apply(Map.of("name", Value.string("a"))))
                .hasMessageContaining("left values unknown")
                .hasMessageContaining("etag");
        Thing changes = new Thing();
        changes.changePlanned = true;
        assertThatThrownBy(() -> tester(changes).resource("test_thing").apply(Map.of("name", Value.string("a"))))
                .hasMessageContaining(".name: was a different value in the plan");
        Thing leaks = new Thing();
        leaks.leak = true;
        assertThatThrownBy(() -> tester(leaks)
                        .resource("test_thing")
                        .apply(Map.of(
                                "name",
                                Value.string("a"),
                                "secret",
                                Value.string("hunter22").mark(Mark.SENSITIVE))))
                .hasMessage("a diagnostic contains the sensitive attribute secret");
    }

    @Test
    void upgradeRefusesNewerStatesAndReadsTheCurrentVersion() {
        Provider p = new SdkProvider(Schema.of(Block.builder().build()), List.of(new Thing()), List.of());
        var current =
                p.upgradeResourceState(new Provider.UpgradeRequest("test_thing", 2, "{\"name\":\"a\",\"size\":3}"));
        assertThat(current.diagnostics().hasErrors()).isFalse();
        assertThat(current.upgradedState().attributes().get("size")).isEqualTo(Value.number(3));
        assertThat(p.upgradeResourceState(new Provider.UpgradeRequest("test_thing", 3, "{}"))
                        .diagnostics()
                        .asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Resource instance managed by newer provider version");
        assertThat(p.upgradeResourceState(new Provider.UpgradeRequest("test_thing", 1, "{}"))
                        .diagnostics()
                        .asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Unable to Upgrade Resource State");
        assertThat(p.upgradeResourceState(new Provider.UpgradeRequest("test_thing", 2, "{\"size\":\"x\"}"))
                        .diagnostics()
                        .hasErrors())
                .isTrue();
    }

    @Test
    void aCrashKeepsThePriorStateAndSaysNothingSecret() {
        ManagedResource boom = new Thing() {
            @Override
            public Value create(Value planned, Value config, String token, ProviderDiagnostics.Builder diags) {
                throw new IllegalStateException("secret " + Attrs.string(planned, "secret"));
            }
        };
        Provider p = new SdkProvider(Schema.of(Block.builder().build()), List.of(boom), List.of());
        Block b = boom.schema().block();
        Value cfg = dev.strata.provider.SchemaValues.coerce(
                        b, Value.objectOf("name", Value.string("a"), "secret", Value.string("hunter22")))
                .value();
        var resp = p.applyResourceChange(new Provider.ApplyRequest("test_thing", b.nullValue(), cfg, cfg, null, "t"));
        assertThat(resp.newState().isNull()).isTrue();
        assertThat(resp.diagnostics().toString())
                .contains("Provider internal error")
                .doesNotContain("hunter22");
    }
}
