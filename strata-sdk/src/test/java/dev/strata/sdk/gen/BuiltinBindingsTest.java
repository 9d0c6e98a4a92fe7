package dev.strata.sdk.gen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.sdk.Problem;
import dev.strata.sdk.Resource;
import dev.strata.sdk.Stack;
import dev.strata.sdk.StringValue;
import dev.strata.sdk.Synthesis;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bindings for every built-in provider, generated, written and compiled in process together with a
 * program that uses them ({@code src/test/resources/bindings/program/BuiltinStack.java}); the
 * program's stack is synthesised against a golden file and its values' lineages checked.
 */
class BuiltinBindingsTest {
    @TempDir
    static Path dir;

    private static List<ProviderBinding> builtins;
    private static SortedMap<String, String> sources;
    private static InProcessCompiler.Outcome compiled;
    private static URLClassLoader loader;

    @BeforeAll
    static void generateAndCompile() throws IOException {
        builtins = BuiltinBindings.all();
        sources = new BindingGenerator("bindings").generate(builtins);
        Path src = dir.resolve("src");
        for (Map.Entry<String, String> e : sources.entrySet()) {
            write(src.resolve(e.getKey()), e.getValue());
        }
        write(src.resolve("program/BuiltinStack.java"), resource("/bindings/program/BuiltinStack.java"));
        compiled = InProcessCompiler.compile(InProcessCompiler.javaFiles(src), dir.resolve("classes"), List.of());
        loader = new URLClassLoader(
                new URL[] {dir.resolve("classes").toUri().toURL()}, BuiltinBindingsTest.class.getClassLoader());
    }

    @AfterAll
    static void close() throws IOException {
        if (loader != null) {
            loader.close();
        }
    }

    @Test
    void theBindingsOfEveryBuiltInProviderCompile() {
        assertThat(builtins)
                .extracting(b -> b.address().type())
                .contains("random", "terraform", "tls", "time", "local", "null", "http");
        assertThat(compiled.errors()).isEmpty();
        assertThat(compiled.ok()).isTrue();
        for (ProviderBinding b : builtins) {
            String pkg = "bindings/" + Identifiers.packageSegment(b.address().type()) + "/";
            assertThat(sources).containsKey(pkg + Identifiers.type(b.address().type()) + "Provider.java");
            for (String type : b.schema().resourceTypes().keySet()) {
                assertThat(sources).containsKey(pkg + Identifiers.type(type) + ".java");
            }
            for (String type : b.schema().dataSources().keySet()) {
                assertThat(sources).containsKey(pkg + "Data" + Identifiers.type(type) + ".java");
            }
        }
    }

    @Test
    void generatingTwiceGivesTheSameSources() {
        assertThat(new BindingGenerator("bindings").generate(BuiltinBindings.all()))
                .isEqualTo(sources);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aProgramUsingTheBindingsSynthesisesWithReferencesFromItsLineages() throws Exception {
        assertThat(compiled.errors()).isEmpty();
        Map<String, Object> built =
                (Map<String, Object>) program().getMethod("build").invoke(null);
        Synthesis s = ((Stack) built.get("stack")).synthesize();
        assertThat(s.problems()).isEmpty();
        assertThat(s.json()).isEqualTo(golden("bindings.tf.json", s.json()));

        StringValue petId = (StringValue) built.get("petId");
        assertThat(petId.lineage()).get().hasToString("random_pet.pet.id");
        assertThat(((StringValue) built.get("subjectCn")).lineage())
                .get()
                .hasToString("tls_cert_request.csr.subject[0].common_name");
        assertThat(((StringValue) built.get("keyPem")).lineage())
                .get()
                .hasToString("tls_private_key.key.private_key_pem");
        // The program's line, not the generated class's, is where the resource was created.
        Resource pet = (Resource) built.get("pet");
        assertThat(pet.site().file()).isEqualTo("BuiltinStack.java");
        assertThat(pet.site().method()).isEqualTo("build");
        assertThat(petId.site().file()).isEqualTo("BuiltinStack.java");
    }

    @Test
    void aProblemPointsAtTheProgramLineThatCalledTheBinding() throws Exception {
        Stack stack = (Stack) program().getMethod("duplicate").invoke(null);
        List<Problem> problems = stack.synthesize().problems();
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0).summary()).isEqualTo("Duplicate resource \"random_pet\" configuration");
        int line = lineOf(resource("/bindings/program/BuiltinStack.java"), "new RandomPet(stack, \"pet\").length(3)");
        assertThat(problems.get(0).site().file()).isEqualTo("BuiltinStack.java");
        assertThat(problems.get(0).site().line()).isEqualTo(line);
    }

    private static Class<?> program() throws ClassNotFoundException {
        return Class.forName("program.BuiltinStack", true, loader);
    }

    private static int lineOf(String text, String needle) {
        List<String> lines = new ArrayList<>(text.lines().toList());
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(needle)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line with " + needle);
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = BuiltinBindingsTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
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
        return resource("/golden/" + name);
    }
}
