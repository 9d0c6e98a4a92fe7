package dev.strata.sdk.gen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.Schema;
import dev.strata.sdk.AnyValue;
import dev.strata.sdk.Stack;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schema made to break a naive generator: keywords, leading digits, names that clash with generated
 * members or with each other, a block named like its class or like {@code Ref}, repeated structures,
 * map and set blocks, deprecations and descriptions that could end a comment or start a Unicode escape.
 * The sources must compile and have the promised names.
 */
class GeneratedNamesTest {
    @TempDir
    static Path dir;

    private static SortedMap<String, String> sources;
    private static URLClassLoader loader;

    static ProviderBinding edge() {
        Block rule = Block.builder()
                .attribute("port", Attribute.required(Type.NUMBER))
                .build();
        Block inner =
                Block.builder().attribute("x", Attribute.optional(Type.STRING)).build();
        Block a = Block.builder()
                .attribute("name", Attribute.optional(Type.STRING))
                .block("a", NestedBlock.of(NestingMode.SINGLE, inner))
                .build();
        Block thing = Block.builder()
                .description("A thing. */ not the end @param x \\u000a <b>bold</b> & more")
                .attribute("default", Attribute.optional(Type.STRING))
                .attribute("6to4", Attribute.optional(Type.STRING))
                .attribute("class", Attribute.required(Type.NUMBER))
                .attribute("resource", Attribute.optional(Type.STRING))
                .attribute("to_string", Attribute.optional(Type.STRING))
                .attribute("foo_bar", Attribute.optional(Type.STRING))
                .attribute("foo__bar", Attribute.optional(Type.STRING))
                .attribute(
                        "old", Attribute.optional(Type.STRING).withDeprecated().withDescription("Use new. \\u0022"))
                .attribute("secret", Attribute.optional(Type.STRING).withSensitive())
                .attribute("dyn", Attribute.optional(Type.DYNAMIC))
                .attribute("tags", Attribute.optional(Type.map(Type.STRING)))
                .attribute("ports", Attribute.optional(Type.set(Type.NUMBER)))
                .attribute("names", Attribute.optional(Type.list(Type.STRING)))
                .attribute("obj", Attribute.optional(Type.object(Map.of("a", Type.STRING))))
                .attribute("id", Attribute.computed(Type.STRING))
                .block("edge_thing", NestedBlock.of(NestingMode.LIST, rule))
                .block(
                        "ref",
                        NestedBlock.of(
                                NestingMode.SINGLE,
                                Block.builder()
                                        .attribute("y", Attribute.optional(Type.STRING))
                                        .build()))
                .block("a", NestedBlock.of(NestingMode.LIST, a))
                .block("same_one", new NestedBlock(NestingMode.LIST, rule, 1, 2))
                .block("labels", NestedBlock.of(NestingMode.MAP, inner))
                .block("members", NestedBlock.of(NestingMode.SET, a))
                .block(
                        "legacy",
                        NestedBlock.of(
                                NestingMode.LIST,
                                Block.builder()
                                        .attribute("v", Attribute.optional(Type.STRING))
                                        .deprecated()
                                        .build()))
                .build();
        Block provider = Block.builder()
                .attribute("region", Attribute.optional(Type.STRING))
                .attribute("alias", Attribute.optional(Type.STRING))
                .build();
        TreeMap<String, Schema> resources = new TreeMap<>(Map.of("edge_thing", Schema.of(thing)));
        TreeMap<String, Schema> data = new TreeMap<>(Map.of("edge_thing", Schema.of(thing)));
        return new ProviderBinding(
                dev.strata.addr.Provider.parse("acme/edge").value(),
                "1.0.0",
                new ProviderSchema(Schema.of(provider), resources, data));
    }

    @BeforeAll
    static void generateAndCompile() throws IOException {
        sources = new BindingGenerator("com.example.gen").generate(List.of(edge()));
        Path src = dir.resolve("src");
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
        }
        InProcessCompiler.Outcome o =
                InProcessCompiler.compile(InProcessCompiler.javaFiles(src), dir.resolve("classes"), List.of());
        assertThat(o.errors()).isEmpty();
        loader = new URLClassLoader(
                new URL[] {dir.resolve("classes").toUri().toURL()}, GeneratedNamesTest.class.getClassLoader());
    }

    @AfterAll
    static void close() throws IOException {
        if (loader != null) {
            loader.close();
        }
    }

    private static Class<?> load(String name) throws ClassNotFoundException {
        return Class.forName("com.example.gen.edge." + name, true, loader);
    }

    private static List<String> methods(Class<?> c) {
        return Arrays.stream(c.getDeclaredMethods())
                .map(Method::getName)
                .distinct()
                .sorted()
                .toList();
    }

    @Test
    void filesAreTheProvidersAndOneClassPerType() {
        assertThat(sources.keySet())
                .containsExactly(
                        "com/example/gen/edge/DataEdgeThing.java",
                        "com/example/gen/edge/EdgeProvider.java",
                        "com/example/gen/edge/EdgeThing.java",
                        "com/example/gen/edge/package-info.java");
    }

    @Test
    void namesAreJavaIdentifiersThatDoNotClash() throws Exception {
        Class<?> thing = load("EdgeThing");
        assertThat(methods(thing))
                .contains("default_", "_6to4", "class_", "resource", "resource_", "to_string", "fooBar", "foo_bar")
                .doesNotContain("toString", "default", "6to4");
        // One class per structure: "labels" has the structure of a's inner "a" (A2), "members" that of "a",
        // "same_one" that of "edge_thing", which is named like the class; "ref" is named like the readers.
        assertThat(Arrays.stream(thing.getDeclaredClasses())
                        .map(Class::getSimpleName)
                        .sorted()
                        .toList())
                .containsExactly("A", "A2", "EdgeThing2", "Legacy", "Ref2");
        assertThat(methods(load("EdgeThing$A2$Ref"))).containsExactly("asAny", "x");
    }

    @Test
    void deprecatedAttributesAndBlocksAreDeprecated() throws Exception {
        Class<?> thing = load("EdgeThing");
        assertThat(thing.getMethod("old").isAnnotationPresent(Deprecated.class)).isTrue();
        assertThat(thing.getMethod("old", String.class).isAnnotationPresent(Deprecated.class))
                .isTrue();
        assertThat(thing.getMethod("id").isAnnotationPresent(Deprecated.class)).isFalse();
        assertThat(load("EdgeThing$Legacy").isAnnotationPresent(Deprecated.class))
                .isTrue();
        assertThat(sources.get("com/example/gen/edge/EdgeThing.java"))
                .contains("A thing. &#42;/ not the end &#64;param x &#92;u000a &lt;b&gt;bold&lt;/b&gt; &amp; more")
                .contains("{@code secret}: string, optional, sensitive.")
                .contains("Block {@code same_one}: a list of 1 to 2 blocks; each call adds one.");
    }

    @Test
    void computedOnlyAttributesHaveNoSetterAndMapBlocksNone() throws Exception {
        Class<?> thing = load("EdgeThing");
        assertThat(Arrays.stream(thing.getMethods()).filter(m -> m.getName().equals("id")))
                .allMatch(m -> m.getParameterCount() == 0);
        assertThat(Arrays.stream(thing.getMethods()).filter(m -> m.getName().equals("labels")))
                .allMatch(m -> m.getParameterCount() == 0 || m.getParameterTypes()[0] == String.class);
    }

    @Test
    void gettersCarryTheLineageThroughNestedBlocks() throws Exception {
        Stack stack = new Stack();
        Class<?> thing = load("EdgeThing");
        Object t = thing.getConstructor(Stack.class, String.class).newInstance(stack, "t");
        Object a0 = thing.getMethod("a", long.class).invoke(t, 0L);
        Object inner = a0.getClass().getMethod("a").invoke(a0);
        Object x = inner.getClass().getMethod("x").invoke(inner);
        assertThat(((dev.strata.sdk.StringValue) x).lineage()).get().hasToString("edge_thing.t.a[0].a.x");
        Object label = thing.getMethod("labels", String.class).invoke(t, "k");
        assertThat(((AnyValue) label.getClass().getMethod("asAny").invoke(label)).lineage())
                .get()
                .hasToString("edge_thing.t.labels[\"k\"]");
        Object data =
                load("DataEdgeThing").getConstructor(Stack.class, String.class).newInstance(stack, "d");
        assertThat(((dev.strata.sdk.StringValue) data.getClass().getMethod("id").invoke(data)).lineage())
                .get()
                .hasToString("data.edge_thing.d.id");
    }
}
