package dev.strata.sdk.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.InputVariables;
import dev.strata.engine.Engine;
import dev.strata.engine.EngineEvents;
import dev.strata.engine.OutputChange;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanOptions;
import dev.strata.engine.ResourceChange;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.value.Value;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.ValueJson;
import dev.strata.sdk.Stack;
import dev.strata.sdk.Synthesis;
import dev.strata.sdk.SynthesisException;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Unit-testing helpers for stack programs.
 *
 * <pre>{@code
 * JsonNode json = StackTester.synthesize(new Infra().build());
 * assertThat(json.at("/resource/terraform_data/web/input").asText()).isEqualTo("hello");
 *
 * PlannedStack plan = StackTester.plan(new Infra().build());
 * assertThat(plan.change("terraform_data.web").actions()).containsExactly("create");
 * }</pre>
 *
 * Problems of the program, of its configuration and of the plan fail with an {@link AssertionError}
 * whose message has every diagnostic, each naming the program line behind it.
 */
public final class StackTester {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String SENSITIVE = "(sensitive value)";

    private StackTester() {}

    /** The stack's {@code main.tf.json} as a JSON tree. */
    public static JsonNode synthesize(Stack stack) {
        Synthesis s = stack.synthesize();
        if (s.hasErrors()) {
            throw new AssertionError(s.problems().stream().map(Object::toString).collect(Collectors.joining("\n\n")));
        }
        try {
            return JSON.readTree(s.json());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Plans the stack against an empty state and Strata's built-in providers, in this process. */
    public static PlannedStack plan(Stack stack) {
        return plan(stack, Map.of());
    }

    /**
     * As {@link #plan(Stack)}, with root variables given as {@code -var} would give them
     * ({@code "3"}, {@code "[\"a\"]"} for a list).
     */
    public static PlannedStack plan(Stack stack, Map<String, String> variables) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("strata-stack-test");
            return plan(stack, variables, dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                delete(dir);
            }
        }
    }

    private static PlannedStack plan(Stack stack, Map<String, String> variables, Path dir) throws IOException {
        try {
            stack.writeTo(dir);
        } catch (SynthesisException e) {
            throw new AssertionError(e.getMessage());
        }
        Result<ConfigTree> tree = ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        if (tree.value() == null) {
            throw failure("The stack's configuration does not load", tree.diagnostics(), null);
        }
        DiagnosticRenderer.Sources sources = tree.value().diagnosticSources();
        check("The stack's configuration does not load", tree.diagnostics(), sources);
        Engine engine = Engine.builder(
                        tree.value(), ProviderRegistry.load(StackTester.class.getClassLoader()), "sdk-test")
                .environment(Map.of())
                .build();
        check("The stack's configuration is invalid", engine.checkConfig(), sources);
        List<InputVariables.Arg> args = new TreeMap<>(variables)
                .entrySet().stream()
                        .map(e -> (InputVariables.Arg) new InputVariables.Arg.Var(e.getKey() + "=" + e.getValue()))
                        .toList();
        Result<SortedMap<String, Value>> values =
                InputVariables.resolve(tree.value().root().module(), dir, Map.of(), args);
        check("The stack's variables are invalid", values.diagnostics(), sources);
        Result<Plan> plan = engine.plan(
                values.value(), StateSnapshot.empty("sdk-test"), PlanOptions.defaults(dir), EngineEvents.NONE);
        if (plan.value() == null) {
            throw failure("The stack cannot be planned", plan.diagnostics(), sources);
        }
        return planned(plan.value());
    }

    private static PlannedStack planned(Plan plan) {
        List<PlannedChange> changes = new ArrayList<>();
        plan.changes().stream().sorted(ResourceChange.TERRAFORM_ORDER).forEach(c -> {
            SortedSet<String> unknown = new TreeSet<>();
            JsonNode after =
                    c.action().deletes() && !c.action().creates() ? NODES.nullNode() : json(c.after(), "", unknown);
            changes.add(new PlannedChange(
                    c.addr().toString(), c.action().jsonActions(), after == null ? NODES.nullNode() : after, unknown));
        });
        SortedMap<String, JsonNode> outputs = new TreeMap<>();
        for (OutputChange o : plan.outputs().values()) {
            JsonNode v = o.sensitive() ? NODES.textNode(SENSITIVE) : json(o.after(), "", new TreeSet<>());
            outputs.put(o.name(), v == null ? NODES.nullNode() : v);
        }
        return new PlannedStack(changes, outputs);
    }

    /** The known part of {@code v}; unknown paths go to {@code unknown} and are left out (null in arrays). */
    static JsonNode json(Value v, String path, SortedSet<String> unknown) {
        if (v == null) {
            return NODES.nullNode();
        }
        if (!v.isKnown()) {
            unknown.add(path);
            return null;
        }
        if (v.isSensitive()) {
            return NODES.textNode(SENSITIVE);
        }
        if (v.isNull()) {
            return NODES.nullNode();
        }
        return switch (v.type()) {
            case ObjectType o -> object(v, path, unknown);
            case MapType m -> object(v, path, unknown);
            case ListType l -> array(v, path, unknown);
            case SetType s -> array(v, path, unknown);
            case TupleType t -> array(v, path, unknown);
            default -> ValueJson.toNode(v.unmarkDeep(), v.type());
        };
    }

    private static ObjectNode object(Value v, String path, SortedSet<String> unknown) {
        ObjectNode o = NODES.objectNode();
        v.attributes().forEach((k, e) -> {
            JsonNode n = json(e, path.isEmpty() ? k : path + "." + k, unknown);
            if (n != null) {
                o.set(k, n);
            }
        });
        return o;
    }

    private static ArrayNode array(Value v, String path, SortedSet<String> unknown) {
        ArrayNode a = NODES.arrayNode();
        List<Value> elements = v.elements();
        for (int i = 0; i < elements.size(); i++) {
            JsonNode n = json(elements.get(i), path + "[" + i + "]", unknown);
            a.add(n == null ? NODES.nullNode() : n);
        }
        return a;
    }

    private static void check(String what, Diagnostics diags, DiagnosticRenderer.Sources sources) {
        if (diags.hasErrors()) {
            throw failure(what, diags, sources);
        }
    }

    private static AssertionError failure(String what, Diagnostics diags, DiagnosticRenderer.Sources sources) {
        DiagnosticRenderer r =
                new DiagnosticRenderer(sources == null ? DiagnosticRenderer.NO_SOURCES : sources, false, 100);
        return new AssertionError(
                what + ":\n" + diags.asList().stream().map(r::render).collect(Collectors.joining()));
    }

    private static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a temp file left behind is harmless
                }
            });
        } catch (IOException e) {
            // same
        }
    }
}
