package dev.strata.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.version.Version;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.state.Workspaces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The backend {@code strata init} set up, recorded where Terraform records it: {@code backend} of
 * {@code .terraform/terraform.tfstate} (version 3), with the settings after {@code -backend-config} and
 * the {@linkplain BackendSpec#hash() fingerprint} of the block as written in the files. Later commands
 * use the recorded settings, and notice when the block has changed since.
 *
 * @param spec the backend with its full settings
 * @param hash the fingerprint of the block without {@code -backend-config}
 */
record BackendRecord(BackendSpec spec, long hash) {
    /** Made on first use: most runs have no record to read, and a mapper costs a start-up its classes. */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    static Path file(CommandContext context) {
        return Workspaces.dataDir(context.workingDir(), context.env()).resolve("terraform.tfstate");
    }

    /** The recorded backend; null value when there is none (never initialized, or no backend block). */
    static Result<BackendRecord> read(CommandContext context) {
        Path f = file(context);
        JsonNode root;
        try {
            byte[] bytes = Files.readAllBytes(f);
            root = Json.MAPPER.readTree(bytes);
        } catch (NoSuchFileException e) {
            return Result.of(null);
        } catch (IOException e) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to read the backend settings",
                            "Could not read "
                                    + IoProblems.describe(context.workingDir().relativize(f), e)
                                    + ". Run \"strata init -reconfigure\" to record them again.",
                            null)));
        }
        JsonNode b = root == null ? null : root.get("backend");
        if (b == null || !b.isObject() || !b.path("type").isTextual()) {
            return Result.of(null);
        }
        Map<String, String> settings = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = b.path("config").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            // Terraform lists every setting of the backend's schema, unset ones as null.
            if (!e.getValue().isNull()) {
                settings.put(
                        e.getKey(),
                        e.getValue().isTextual()
                                ? e.getValue().asText()
                                : withoutNulls(e.getValue()).toString());
            }
        }
        return Result.of(new BackendRecord(
                new BackendSpec(b.get("type").asText(), settings),
                b.path("hash").asLong()));
    }

    /**
     * For a record of {@code init} (Strata's or Terraform's, which share the file): whether the backend
     * {@code block} of the files is still the one recorded. Either its fingerprint is the recorded hash
     * (Strata's, or the one Terraform 1.11 computes), or the record holds exactly the block's settings
     * (a backend whose Terraform hash Strata cannot compute, or a record of another Terraform version).
     */
    boolean matches(BackendSpec block) {
        if (block == null || !block.type().equals(spec.type())) {
            return false;
        }
        if (hash == block.hash()) {
            return true;
        }
        OptionalLong terraform = TerraformBackendHash.of(block);
        // A record of another Terraform version (whose schema, so hash, differs) still matches by settings.
        return terraform.isPresent() && terraform.getAsLong() == hash || spec.equals(block);
    }

    /**
     * A record for the block of the files with the settings {@code init} chose, with the hash Terraform
     * would record where Strata knows how to compute it, so both tools accept the other's record.
     */
    static BackendRecord of(BackendSpec settings, BackendSpec block) {
        return new BackendRecord(settings, TerraformBackendHash.of(block).orElse(block.hash()));
    }

    /** Terraform lists unset nested settings as null; Strata's settings leave them out. */
    private static JsonNode withoutNulls(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = Json.MAPPER.createObjectNode();
            java.util.List<String> names = new java.util.ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            java.util.Collections.sort(names);
            for (String n : names) {
                if (!node.get(n).isNull()) {
                    out.set(n, withoutNulls(node.get(n)));
                }
            }
            return out;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode out = Json.MAPPER.createArrayNode();
            node.forEach(e -> out.add(withoutNulls(e)));
            return out;
        }
        return node;
    }

    /** Records this backend, atomically and readable by the owner only (settings may hold a password). */
    Diagnostics write(CommandContext context) {
        Path f = file(context);
        try {
            ObjectNode root = Json.MAPPER.createObjectNode();
            JsonNode old = Files.exists(f) ? Json.MAPPER.readTree(Files.readAllBytes(f)) : null;
            root.put("version", 3);
            root.put("terraform_version", Version.current());
            root.put("serial", old == null ? 1 : old.path("serial").asLong() + 1);
            root.put(
                    "lineage",
                    old != null && old.path("lineage").isTextual()
                            ? old.get("lineage").asText()
                            : UUID.randomUUID().toString());
            ObjectNode b = root.putObject("backend");
            b.put("type", spec.type());
            ObjectNode config = b.putObject("config");
            java.util.Set<String> names = new java.util.TreeSet<>(
                    BackendSettings.allowed(spec.type()) == null
                            ? spec.settings().keySet()
                            : BackendSettings.allowed(spec.type()));
            // Terraform lists every setting of its schema, so its reading of the record sees the same block.
            names.addAll(TerraformBackendHash.settings(spec.type()));
            for (String k : names) {
                String v = spec.settings().get(k);
                JsonNode typed = v == null ? null : TerraformBackendHash.typed(spec.type(), k, v);
                if (v == null) {
                    config.putNull(k);
                } else if (typed != null) {
                    // Typed as Terraform records them: numbers, booleans, sorted sets, whole nested objects.
                    config.set(k, typed);
                } else {
                    config.put(k, v);
                }
            }
            b.put("hash", hash);
            Files.createDirectories(f.getParent());
            Path tmp = Files.createTempFile(f.getParent(), "terraform", ".tfstate.tmp");
            try {
                restrict(tmp);
                Files.write(tmp, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
                Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
            return Diagnostics.NONE;
        } catch (IOException e) {
            return Diagnostics.of(Diagnostic.error(
                    "Failed to record the backend settings",
                    "Could not write "
                            + IoProblems.describe(context.workingDir().relativize(f), e) + ".",
                    null));
        }
    }

    /** Forgets the recorded backend (the configuration went back to the default local state). */
    static Diagnostics remove(CommandContext context) {
        try {
            Files.deleteIfExists(file(context));
            return Diagnostics.NONE;
        } catch (IOException e) {
            return Diagnostics.of(Diagnostic.error(
                    "Failed to remove the backend settings",
                    "Could not delete " + IoProblems.describe(file(context), e) + ".",
                    null));
        }
    }

    private static void restrict(Path p) {
        try {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system: its default permissions apply
        }
    }
}
