package dev.strata.config;

import dev.strata.addr.Module;
import dev.strata.hcl.DiagnosticRenderer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A whole configuration: the root module and every module it calls, recursively, plus the source
 * bytes of every file read (for rendering diagnostics with snippets).
 */
public final class ConfigTree {
    private final ConfigNode root;
    private final Map<String, byte[]> sources;
    private final Map<String, dev.strata.hcl.Body> bodies;

    ConfigTree(ConfigNode root, Map<String, byte[]> sources, Map<String, dev.strata.hcl.Body> bodies) {
        this.root = root;
        this.sources = Collections.unmodifiableMap(new TreeMap<>(sources));
        this.bodies = Collections.unmodifiableMap(new TreeMap<>(bodies));
    }

    public ConfigNode root() {
        return root;
    }

    /** The node at a static module path, if that module was loaded. */
    public Optional<ConfigNode> node(Module path) {
        ConfigNode n = root;
        for (String name : path.names()) {
            n = n.children().get(name);
            if (n == null) {
                return Optional.empty();
            }
        }
        return Optional.of(n);
    }

    /** Every node, parents before children, children by name. */
    public List<ConfigNode> nodes() {
        List<ConfigNode> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(ConfigNode n, List<ConfigNode> out) {
        out.add(n);
        n.children().values().forEach(c -> collect(c, out));
    }

    /** File contents by the display name diagnostics use. */
    public Map<String, byte[]> files() {
        return sources;
    }

    /** File bytes and parsed bodies, so rendered diagnostics show snippets and the enclosing block. */
    public DiagnosticRenderer.Sources diagnosticSources() {
        return new DiagnosticRenderer.Sources() {
            @Override
            public byte[] bytes(String filename) {
                return sources.get(filename);
            }

            @Override
            public dev.strata.hcl.Body body(String filename) {
                return bodies.get(filename);
            }
        };
    }
}
