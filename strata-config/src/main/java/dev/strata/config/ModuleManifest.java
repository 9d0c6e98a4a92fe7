package dev.strata.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The record of installed modules, in the shape of Terraform's {@code modules.json}: one entry per
 * module of the tree with its key ({@code net.sub}; "" for the root), its source as written, and its
 * directory relative to the root module. Strata keeps it in {@code .strata/modules/modules.json};
 * when that file is absent, Terraform's {@code modules/modules.json} in its data directory
 * ({@code .terraform}, or {@code TF_DATA_DIR}) is read instead, so a configuration whose modules
 * {@code terraform init} installed loads as it is.
 */
record ModuleManifest(List<Entry> entries) {
    /** Where Strata installs modules and keeps its manifest, relative to the root module. */
    static final String DIR = ".strata/modules";

    static final String FILE = DIR + "/modules.json";
    /** Terraform's manifest, relative to its data directory. */
    static final String TERRAFORM_FILE = "modules/modules.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param version the registry version installed, or null (only registry modules have one)
     * @param dir     the module's directory relative to the root module, with forward slashes
     */
    record Entry(String key, String source, String version, String dir) {}

    ModuleManifest {
        entries = List.copyOf(entries);
    }

    static final ModuleManifest EMPTY = new ModuleManifest(List.of());

    Optional<Entry> entry(String key) {
        return entries.stream().filter(e -> e.key().equals(key)).findFirst();
    }

    /**
     * Strata's manifest in {@code root}, else Terraform's in the data directory {@code dataDir} (relative
     * to {@code root} or absolute; null or empty for {@code .terraform}), else an empty one; unreadable
     * files count as absent.
     */
    static ModuleManifest read(Path root, String dataDir) {
        Path terraform = root.resolve(dataDir == null || dataDir.isEmpty() ? ".terraform" : dataDir)
                .resolve(TERRAFORM_FILE);
        for (Path f : List.of(root.resolve(FILE), terraform)) {
            if (Files.isRegularFile(f)) {
                try {
                    return parse(Files.readString(f, StandardCharsets.UTF_8));
                } catch (IOException | RuntimeException e) {
                    return EMPTY;
                }
            }
        }
        return EMPTY;
    }

    /** The manifest in {@code file}; absent or unreadable is an empty one. */
    static ModuleManifest readFile(Path file) {
        if (!Files.isRegularFile(file)) {
            return EMPTY;
        }
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return EMPTY;
        }
    }

    static ModuleManifest parse(String json) throws IOException {
        List<Entry> out = new ArrayList<>();
        for (JsonNode m : JSON.readTree(json).path("Modules")) {
            JsonNode v = m.get("Version");
            out.add(new Entry(
                    m.path("Key").asText(""),
                    m.path("Source").asText(""),
                    v == null || v.isNull() || v.asText().isEmpty() ? null : v.asText(),
                    m.path("Dir").asText(".")));
        }
        return new ModuleManifest(out);
    }

    /** The manifest as Terraform writes it: compact JSON, one object per module, then a newline. */
    String toJson() {
        List<Map<String, String>> modules = new ArrayList<>();
        for (Entry e : entries) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("Key", e.key());
            m.put("Source", e.source());
            if (e.version() != null) {
                m.put("Version", e.version());
            }
            m.put("Dir", e.dir());
            modules.add(m);
        }
        try {
            return JSON.writeValueAsString(Map.of("Modules", modules)) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("strings always serialise", e);
        }
    }

    /** Writes {@code .strata/modules/modules.json} atomically (temporary file, then rename). */
    void write(Path root) throws IOException {
        writeFile(root.resolve(FILE));
    }

    /** Writes the manifest to {@code out} atomically. */
    void writeFile(Path out) throws IOException {
        Files.createDirectories(out.getParent());
        Path tmp = Files.createTempFile(out.getParent(), "modules", ".json.tmp");
        try {
            Files.writeString(tmp, toJson(), StandardCharsets.UTF_8);
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
