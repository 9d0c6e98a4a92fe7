package dev.strata.stacks.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.addr.Version;
import dev.strata.addr.VersionConstraint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A source bundle: a directory whose {@code terraform-sources.json} maps remote source addresses
 * (packages) and registry addresses with versions to local subdirectories, the layout HashiCorp's
 * Stacks tooling prepares so a Stack loads without network access. Strata reads it when a stack's
 * directory lies inside one.
 */
final class SourceBundle {
    static final String MANIFEST = "terraform-sources.json";

    private final Path root;
    private final Map<String, String> packages = new TreeMap<>();
    private final Map<String, Map<Version, String>> registry = new TreeMap<>();

    private SourceBundle(Path root) {
        this.root = root;
    }

    /** The bundle enclosing {@code dir}, if any. */
    static Optional<SourceBundle> enclosing(Path dir) {
        for (Path p = dir.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
            Path m = p.resolve(MANIFEST);
            if (Files.isRegularFile(m)) {
                try {
                    return Optional.of(read(p, m));
                } catch (IOException | RuntimeException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static SourceBundle read(Path root, Path manifest) throws IOException {
        JsonNode doc = new ObjectMapper().readTree(manifest.toFile());
        SourceBundle b = new SourceBundle(root);
        for (JsonNode p : doc.path("packages")) {
            b.packages.put(p.path("source").asText(), p.path("local").asText());
        }
        for (String section : List.of("registry", "components")) {
            for (JsonNode r : doc.path(section)) {
                Map<Version, String> versions = new TreeMap<>();
                Iterator<Map.Entry<String, JsonNode>> it = r.path("versions").fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    Version.parse(e.getKey())
                            .ifPresent(v ->
                                    versions.put(v, e.getValue().path("source").asText()));
                }
                b.registry.put(r.path("source").asText(), versions);
            }
        }
        return b;
    }

    /**
     * The directory a remote or registry source means in this bundle, or empty when the bundle does
     * not hold it. Registry sources select the newest version the constraint allows.
     */
    Optional<Path> locate(String source, String versionConstraint) {
        Map<Version, String> versions = registry.get(source);
        if (versions != null) {
            VersionConstraint c = versionConstraint == null
                    ? VersionConstraint.ANY
                    : VersionConstraint.parse(versionConstraint).value();
            if (c == null) {
                return Optional.empty();
            }
            List<Version> allowed = new ArrayList<>();
            for (Version v : versions.keySet()) {
                if (c.allows(v)) {
                    allowed.add(v);
                }
            }
            return allowed.stream().max(Comparator.naturalOrder()).flatMap(v -> locate(versions.get(v), null));
        }
        String pkg = source;
        String sub = "";
        int scheme = source.indexOf("://");
        int split = source.indexOf("//", scheme < 0 ? 0 : scheme + 3);
        if (split >= 0) {
            pkg = source.substring(0, split);
            sub = source.substring(split + 2);
            int q = sub.indexOf('?');
            if (q >= 0) {
                // go-getter writes the query after the subdirectory; it belongs to the package
                pkg = pkg + sub.substring(q);
                sub = sub.substring(0, q);
            }
        }
        String local = packages.get(pkg);
        if (local == null) {
            return Optional.empty();
        }
        Path dir = root.resolve(local).resolve(sub).normalize();
        return Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
    }
}
