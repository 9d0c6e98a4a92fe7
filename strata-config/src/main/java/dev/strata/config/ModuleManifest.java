package dev.strata.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The record of installed modules, in the shape of Terraform's {@code modules.json}: one entry per
 * module of the tree with its key ({@code net.sub}; "" for the root), its source as written, and its
 * directory relative to the root module. Strata keeps it in {@code .strata/modules/modules.json};
 * when that file is absent, Terraform's {@code modules/modules.json} in its data directory
 * ({@code .terraform}, or {@code TF_DATA_DIR}) is read instead, so a configuration whose modules
 * {@code terraform init} installed loads as it is.
 *
 * <p>Read and written with Jackson's streaming parser and generator, not its object mapper: every {@code init}
 * and every configuration load touches this file, and the mapper's classes cost more to load than the file
 * costs to handle.
 */
record ModuleManifest(List<Entry> entries) {
    /** Where Strata installs modules and keeps its manifest, relative to the root module. */
    static final String DIR = ".strata/modules";

    static final String FILE = DIR + "/modules.json";
    /** Terraform's manifest, relative to its data directory. */
    static final String TERRAFORM_FILE = "modules/modules.json";

    private static final JsonFactory JSON = new JsonFactory();

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

    /**
     * The entries of the {@code Modules} array; a document without one (not an object, or no such field) is an
     * empty manifest. In an entry, a missing or null field takes its default ("" for the key and source, "." for
     * the directory, none for the version), a number or boolean its text, and an array or object "".
     */
    static ModuleManifest parse(String json) throws IOException {
        List<Entry> out = List.of();
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return EMPTY;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("Modules") && value == JsonToken.START_ARRAY) {
                    out = entries(p);
                } else {
                    if (field.equals("Modules")) {
                        out = List.of();
                    }
                    p.skipChildren();
                }
            }
        }
        return new ModuleManifest(out);
    }

    /** The array's elements, the parser on its start; leaves the parser on its end. */
    private static List<Entry> entries(JsonParser p) throws IOException {
        List<Entry> out = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            String key = "";
            String source = "";
            String version = null;
            String dir = ".";
            if (t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    p.nextToken();
                    String text = text(p);
                    switch (field) {
                        case "Key" -> key = text == null ? "" : text;
                        case "Source" -> source = text == null ? "" : text;
                        case "Version" -> version = text == null || text.isEmpty() ? null : text;
                        case "Dir" -> dir = text == null ? "." : text;
                        default -> {}
                    }
                }
            } else {
                p.skipChildren();
            }
            out.add(new Entry(key, source, version, dir));
        }
        return out;
    }

    /** The current value's text: null for JSON null, "" for an array or object (skipped). */
    private static String text(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_NULL -> null;
            case START_ARRAY, START_OBJECT -> {
                p.skipChildren();
                yield "";
            }
            default -> p.getText();
        };
    }

    /**
     * Go's JSON encoder escapes the HTML-significant characters and the line separators U+2028/U+2029 (as
     * {@code \u0026}, lowercase hex), so a source with a query ({@code ?ref=v1&depth=1}) reads in Terraform's
     * manifest as {@code ?ref=v1\u0026depth=1}; Jackson is told to write the same.
     */
    private static final class GoEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private static final int[] ASCII = CharacterEscapes.standardAsciiEscapesForJSON();

        static {
            for (char c : new char[] {'<', '>', '&'}) {
                ASCII[c] = CharacterEscapes.ESCAPE_CUSTOM;
            }
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ASCII;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch == '<' || ch == '>' || ch == '&' || ch == 0x2028 || ch == 0x2029
                    ? new SerializedString(String.format("\\u%04x", ch))
                    : null;
        }
    }

    /** The manifest as Terraform writes it: compact JSON, one object per module, then a newline. */
    String toJson() {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.setCharacterEscapes(new GoEscapes());
            g.writeStartObject();
            g.writeArrayFieldStart("Modules");
            for (Entry e : entries) {
                g.writeStartObject();
                g.writeStringField("Key", e.key());
                g.writeStringField("Source", e.source());
                if (e.version() != null) {
                    g.writeStringField("Version", e.version());
                }
                g.writeStringField("Dir", e.dir());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("writing to a string cannot fail", e);
        }
        return out + "\n";
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
