package dev.strata.sdk.gen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bindings for every built-in provider: generated, written, compiled in process. */
class BuiltinBindingsTest {
    @TempDir
    Path dir;

    @Test
    void theBindingsOfEveryBuiltInProviderCompile() throws Exception {
        List<ProviderBinding> builtins = BuiltinBindings.all();
        assertThat(builtins)
                .extracting(b -> b.address().type())
                .contains("random", "terraform", "tls", "time", "local");
        SortedMap<String, String> sources = new BindingGenerator("bindings").generate(builtins);
        Path src = dir.resolve("src");
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
        }
        InProcessCompiler.Outcome o =
                InProcessCompiler.compile(InProcessCompiler.javaFiles(src), dir.resolve("classes"), List.of());
        assertThat(o.errors()).isEmpty();
        assertThat(o.ok()).isTrue();
        for (ProviderBinding b : builtins) {
            for (String type : b.schema().resourceTypes().keySet()) {
                assertThat(sources.keySet()).anyMatch(p -> p.endsWith("/" + Identifiers.type(type) + ".java"));
            }
        }
        if (System.getProperty("strata.sdkgen.dump") != null) {
            Path dump = Path.of(System.getProperty("strata.sdkgen.dump"));
            for (Map.Entry<String, String> e : sources.entrySet()) {
                Path f = dump.resolve(e.getKey());
                Files.createDirectories(f.getParent());
                Files.writeString(f, e.getValue());
            }
        }
    }
}
