package dev.strata.tfplugin.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Stream;

/**
 * Package {@code h1:} hashes remembered by the files' paths, sizes and modification times, in the
 * user's cache ({@link UserCache}), so that a second {@code init}, in any working directory, does not
 * read a provider package again: the AWS provider's executable is
 * 700 MB, and hashing it takes seconds (many more when the JVM runs without its optimising
 * compiler). A package whose files changed in size or time is hashed again.
 *
 * <p>Within one process a package is hashed at most once: a hash another thread is computing (the
 * early hash {@link ProviderInstaller#prehash} starts) is waited for, not computed again.
 */
final class HashCache {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Hashes computed or being computed in this process, by real path and {@link #stamp}. */
    private static final ConcurrentMap<String, CompletableFuture<String>> IN_PROCESS = new ConcurrentHashMap<>();

    private final Path file;
    private final Map<String, JsonNode> entries = new TreeMap<>();
    private boolean dirty;

    HashCache(Path file) {
        this.file = file;
        try {
            if (Files.isRegularFile(file)) {
                JSON.readTree(file.toFile()).fields().forEachRemaining(e -> entries.put(e.getKey(), e.getValue()));
            }
        } catch (IOException | RuntimeException e) {
            // An unreadable cache only means hashing again.
            entries.clear();
        }
    }

    String h1(FilesystemMirror.Package pkg) throws IOException {
        Path real = pkg.location().toRealPath();
        String stamp = stamp(real);
        JsonNode e = entries.get(real.toString());
        if (e != null
                && stamp.equals(e.path("stamp").asText())
                && e.path("h1").asText().startsWith("h1:")) {
            return e.path("h1").asText();
        }
        String h1 = computeOnce(pkg, real + "\n" + stamp);
        ObjectNode o = JSON.createObjectNode();
        o.put("stamp", stamp);
        o.put("h1", h1);
        entries.put(real.toString(), o);
        dirty = true;
        return h1;
    }

    /** The package's hash, computed here unless another thread of this process computed or is computing it. */
    private static String computeOnce(FilesystemMirror.Package pkg, String key) throws IOException {
        CompletableFuture<String> mine = new CompletableFuture<>();
        CompletableFuture<String> theirs = IN_PROCESS.putIfAbsent(key, mine);
        if (theirs == null) {
            try {
                String h1 = pkg.h1();
                mine.complete(h1);
                return h1;
            } catch (IOException | RuntimeException | Error e) {
                // A failure is not remembered: the next caller tries (and reports) it again.
                IN_PROCESS.remove(key, mine);
                mine.completeExceptionally(e);
                throw e;
            }
        }
        try {
            return theirs.join();
        } catch (CompletionException e) {
            // The other thread failed: hash here, so the failure is this caller's to report.
            return computeOnce(pkg, key);
        }
    }

    /** Every file's relative name, size and modification time. */
    private static String stamp(Path real) throws IOException {
        List<String> parts = new ArrayList<>();
        if (Files.isDirectory(real)) {
            try (Stream<Path> s = Files.walk(real)) {
                for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
                    BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                    parts.add(real.relativize(f) + ":" + a.size() + ":"
                            + a.lastModifiedTime().toMillis());
                }
            } catch (java.io.UncheckedIOException e) {
                // A directory the walk could not read (or one that went away meanwhile): a file error like any other.
                throw e.getCause();
            }
        } else {
            BasicFileAttributes a = Files.readAttributes(real, BasicFileAttributes.class);
            parts.add(a.size() + ":" + a.lastModifiedTime().toMillis());
        }
        return String.join("|", parts);
    }

    /** Writes the cache if it learned something; failures cost only a slower next run. */
    void save() {
        if (!dirty) {
            return;
        }
        try {
            Files.createDirectories(file.getParent());
            // Other processes share the file: keep what they learned meanwhile, ours on top.
            Map<String, JsonNode> merged = new TreeMap<>();
            if (Files.isRegularFile(file)) {
                try {
                    JSON.readTree(file.toFile()).fields().forEachRemaining(e -> merged.put(e.getKey(), e.getValue()));
                } catch (IOException | RuntimeException e) {
                    // a damaged file is replaced
                }
            }
            merged.putAll(entries);
            ObjectNode root = JSON.createObjectNode();
            merged.forEach(root::set);
            Path tmp = Files.createTempFile(file.getParent(), "hashes", ".tmp");
            JSON.writeValue(tmp.toFile(), root);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // Not worth failing an install over.
        }
    }
}
