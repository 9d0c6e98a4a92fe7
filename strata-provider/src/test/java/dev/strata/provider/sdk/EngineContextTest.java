package dev.strata.provider.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineContextTest {

    @TempDir
    Path dir;

    /** A data source that answers with what its provider's context says. */
    private record Where(EngineContext ctx) implements DataSource {
        @Override
        public String typeName() {
            return "test_where";
        }

        @Override
        public Schema schema() {
            return Schema.of(Block.builder()
                    .attribute("name", Attribute.required(Type.STRING))
                    .attribute("path", Attribute.computed(Type.STRING))
                    .attribute("env", Attribute.computed(Type.STRING))
                    .build());
        }

        @Override
        public Value read(Value config, ProviderDiagnostics.Builder diags) {
            String v = ctx.env("WHERE_TEST");
            return Attrs.with(
                    config,
                    "path",
                    Value.string(ctx.resolve(Attrs.string(config, "name")).toString()),
                    "env",
                    v == null ? Value.nullValue(Type.STRING) : Value.string(v));
        }
    }

    private static Provider provider(EngineContext ctx) {
        return new SdkProvider(Schema.of(Block.builder().build()), List.of(), List.of(new Where(ctx)), ctx);
    }

    private static Value read(Provider p, String name) {
        Provider.ReadDataResponse r = p.readDataSource(new Provider.ReadDataRequest(
                "test_where",
                Value.objectOf(
                        "name",
                        Value.string(name),
                        "path",
                        Value.nullValue(Type.STRING),
                        "env",
                        Value.nullValue(Type.STRING))));
        assertThat(r.diagnostics().hasErrors()).isFalse();
        return r.state();
    }

    @Test
    void resourcesSeeTheWorkingDirectoryAndEnvironmentGivenToConfigure() {
        EngineContext ctx = new EngineContext();
        Provider p = provider(ctx);
        assertThat(p.configure(new Provider.ConfigureRequest(
                                Value.EMPTY_OBJECT,
                                "1.0",
                                dir.resolve("a/../b"),
                                Map.of("WHERE_TEST", "yes", "EMPTY", "")))
                        .hasErrors())
                .isFalse();
        Value v = read(p, "sub/file.txt");
        assertThat(v.attributes().get("path"))
                .isEqualTo(Value.string(dir.resolve("b/sub/file.txt").toString()));
        assertThat(v.attributes().get("env")).isEqualTo(Value.string("yes"));
        assertThat(ctx.env("EMPTY")).as("empty counts as unset").isNull();
        assertThat(read(p, "/abs/file").attributes().get("path")).isEqualTo(Value.string("/abs/file"));
        assertThat(ctx.workingDirectory()).isEqualTo(dir.resolve("b"));
    }

    @Test
    void theTwoArgumentRequestMeansTheJvmDirectoryAndEnvironment() {
        Provider.ConfigureRequest r = new Provider.ConfigureRequest(Value.EMPTY_OBJECT, "1.0");
        assertThat(r.workingDirectory()).isEqualTo(Path.of("").toAbsolutePath());
        assertThat(r.environment()).isEqualTo(System.getenv());
        Provider.ConfigureRequest three = new Provider.ConfigureRequest(Value.EMPTY_OBJECT, "1.0", dir);
        assertThat(three.workingDirectory()).isEqualTo(dir.toAbsolutePath());
        assertThat(three.resolve("x")).isEqualTo(dir.resolve("x"));
        // Before configure, the context answers for the JVM.
        assertThat(new EngineContext().workingDirectory()).isEqualTo(Path.of("").toAbsolutePath());
    }

    @Test
    void theEnvironmentNeverShowsInTheRequestsText() {
        Provider.ConfigureRequest r =
                new Provider.ConfigureRequest(Value.EMPTY_OBJECT, "1.0", dir, Map.of("PGPASSWORD", "hunter2"));
        assertThat(r.toString()).doesNotContain("hunter2").contains(dir.toString());
    }
}
