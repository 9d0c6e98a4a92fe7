package dev.strata.sdk;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which lines of the synthesised JSON each program line produced: written beside {@code main.tf.json}
 * as {@value #SUFFIX}, so that an error Strata finds in the JSON can name the Java line that created
 * the offending value. Ranges nest (a resource, then its argument); the smallest containing one wins.
 *
 * <pre>{"sites": [{"from": 12, "to": 20, "file": "Network.java", "line": 14, "method": "Network.build"}]}</pre>
 */
final class SourceMap {
    /** Appended to the configuration file's name: {@code main.tf.json.sites}. */
    static final String SUFFIX = ".sites";

    private static final JsonFactory FACTORY = new JsonFactory();

    private record Span(int from, int to, Site site) {}

    private final Map<List<String>, Site> sites = new HashMap<>();

    private SourceMap() {}

    /** The map of {@code json}, the synthesis of {@code stack}, as JSON text. */
    static String of(Stack stack, String json) {
        SourceMap m = new SourceMap();
        m.collect(stack);
        List<Span> spans = m.spans(json);
        ArrayNode list = Render.NODES.arrayNode();
        spans.stream()
                .sorted(Comparator.comparingInt(Span::from)
                        .thenComparing(Comparator.comparingInt(Span::to).reversed()))
                .forEach(s -> {
                    ObjectNode o = list.addObject();
                    o.put("from", s.from());
                    o.put("to", s.to());
                    o.put("file", s.site().file());
                    o.put("line", s.site().line());
                    String simple =
                            s.site().className().substring(s.site().className().lastIndexOf('.') + 1);
                    o.put(
                            "method",
                            s.site().method().isEmpty()
                                    ? ""
                                    : simple + "." + s.site().method());
                });
        ObjectNode root = Render.NODES.objectNode();
        root.set("sites", list);
        return root.toPrettyString() + "\n";
    }

    private void collect(Stack stack) {
        stack.variables.forEach(v -> sites.putIfAbsent(List.of("variable", v.name), v.site));
        stack.locals.forEach(l -> sites.putIfAbsent(List.of("locals", l.name()), l.site()));
        stack.outputs.forEach(o -> sites.putIfAbsent(List.of("output", o.name), o.site));
        stack.resources.forEach(r -> instanced(List.of("resource", r.type, r.name), r));
        stack.data.forEach(d -> instanced(List.of("data", d.type, d.name), d));
        stack.modules.forEach(m -> instanced(List.of("module", m.name), m));
        Map<String, List<Provider>> byName = new HashMap<>();
        stack.providers.forEach(
                p -> byName.computeIfAbsent(p.name, k -> new ArrayList<>()).add(p));
        byName.forEach((name, configs) -> {
            List<Provider> sorted = configs.stream()
                    .sorted(Comparator.comparing((Provider p) -> p.alias == null ? "" : p.alias))
                    .toList();
            for (int i = 0; i < sorted.size(); i++) {
                body(List.of("provider", name, Integer.toString(i)), sorted.get(i));
            }
        });
    }

    private void instanced(List<String> at, Instanced<?> d) {
        body(at, d);
        if (d.count != null) {
            sites.putIfAbsent(child(at, "count"), d.count.site());
        }
        if (d.forEach != null) {
            sites.putIfAbsent(child(at, "for_each"), d.forEach.site());
        }
    }

    private void body(List<String> at, Body<?> b) {
        sites.putIfAbsent(at, b.site);
        b.args().forEach((name, arg) -> sites.putIfAbsent(child(at, name), arg.site()));
        Map<String, Integer> seen = new HashMap<>();
        for (Block nested : b.blocks) {
            int i = seen.merge(nested.type, 1, Integer::sum) - 1;
            body(child(child(at, nested.type), Integer.toString(i)), nested);
        }
        Map<String, Integer> dynamicSeen = new HashMap<>();
        for (Body.Dynamic d : b.dynamics) {
            int i = dynamicSeen.merge(d.type(), 1, Integer::sum) - 1;
            List<String> block = child(child(child(at, "dynamic"), d.type()), Integer.toString(i));
            sites.putIfAbsent(block, d.site());
            body(child(block, "content"), d.content());
        }
    }

    private static List<String> child(List<String> at, String name) {
        List<String> out = new ArrayList<>(at);
        out.add(name);
        return List.copyOf(out);
    }

    /** Walks the JSON text with token locations and keeps the line span of every value that has a site. */
    private List<Span> spans(String json) {
        List<Span> out = new ArrayList<>();
        // One frame per open container: its path, the next array index, and where each value started.
        record Frame(List<String> path, int[] nextIndex, boolean array) {}
        Deque<Frame> frames = new ArrayDeque<>();
        Deque<Integer> starts = new ArrayDeque<>();
        String field = null;
        int fieldLine = 0;
        try (JsonParser p = FACTORY.createParser(json)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                int line = p.currentTokenLocation().getLineNr();
                if (t == JsonToken.FIELD_NAME) {
                    field = p.currentName();
                    fieldLine = line;
                    continue;
                }
                if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    Frame done = frames.pop();
                    int from = starts.pop();
                    record(out, done.path(), from, line);
                    continue;
                }
                List<String> path;
                int from;
                Frame parent = frames.peek();
                if (parent == null) {
                    path = List.of();
                    from = line;
                } else if (parent.array()) {
                    path = child(parent.path(), Integer.toString(parent.nextIndex()[0]++));
                    from = line;
                } else {
                    path = child(parent.path(), field);
                    from = fieldLine;
                }
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    frames.push(new Frame(path, new int[] {0}, t == JsonToken.START_ARRAY));
                    starts.push(from);
                } else {
                    record(out, path, from, line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private void record(List<Span> out, List<String> path, int from, int to) {
        Site s = sites.get(path);
        if (s != null && s != Site.UNKNOWN) {
            out.add(new Span(from, to, s));
        }
    }
}
