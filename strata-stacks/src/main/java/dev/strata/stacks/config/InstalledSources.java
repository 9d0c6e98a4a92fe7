package dev.strata.stacks.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ModuleInstaller;
import dev.strata.config.RemoteAccess;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The non-local component and stack sources of a Stack (Git repositories, archives, registry
 * modules), installed by {@code strata stacks init} under the Stack's own
 * {@code .strata/stacks/.modules/}: each source gets a directory named by a digest of its address,
 * installed there by the modules runtime of {@code strata init} (a one-call root module whose
 * {@code module "source"} block names it), and {@code sources.json} records which directory holds
 * which source. Plan and apply only read what is recorded; a source not recorded is "not installed".
 */
public final class InstalledSources {
    /**
     * Where the sources live, under the Stack's directory: beside the deployments' state
     * directories, with a name no deployment (an identifier) can have.
     */
    public static final String DIR = ".strata/stacks/.modules";

    static final String INDEX = "sources.json";
    private static final String CALL = "source";

    private final Path stackDir;
    private final Map<String, String> index = new TreeMap<>();
    private final Diagnostics.Builder diags = Diagnostics.builder();
    private RemoteAccess access = RemoteAccess.of(System.getenv());

    private InstalledSources(Path stackDir) {
        this.stackDir = stackDir.toAbsolutePath().normalize();
        readIndex();
    }

    /** The sources {@code strata stacks init} installed for the Stack in {@code stackDir}. */
    public static InstalledSources of(Path stackDir) {
        return new InstalledSources(stackDir);
    }

    /** Finds installed sources only: what plan and apply load with. */
    public StackLoader.Options reading() {
        return new StackLoader.Options((from, source, version) -> installed(source, version));
    }

    /**
     * Installs every source the loader asks for that is not installed yet (all of them when
     * {@code upgrade}); problems are collected in {@link #diagnostics()}, the index written by
     * {@link #save()}.
     */
    public StackLoader.Options installing(boolean upgrade, java.util.function.Consumer<String> progress) {
        return installing(upgrade, progress, RemoteAccess.of(System.getenv()));
    }

    /**
     * As {@link #installing(boolean, java.util.function.Consumer)}, reaching registries and other remote
     * sources as {@code access} says (the CLI configuration's host blocks and credentials).
     */
    public StackLoader.Options installing(
            boolean upgrade, java.util.function.Consumer<String> progress, RemoteAccess access) {
        this.access = access;
        return new StackLoader.Options((from, source, version) -> {
            Optional<Path> have = upgrade ? Optional.empty() : installed(source, version);
            if (have.isPresent()) {
                progress.accept("- " + display(source, version) + " (already installed)");
                return have;
            }
            Optional<Path> got = install(source, version);
            got.ifPresent(p -> progress.accept("- " + display(source, version) + " installed in "
                    + stackDir.relativize(p).toString().replace('\\', '/')));
            return got;
        });
    }

    public Diagnostics diagnostics() {
        return diags.build();
    }

    private static String display(String source, String version) {
        return "\"" + source + "\"" + (version == null ? "" : " version \"" + version + "\"");
    }

    private static String key(String source, String version) {
        return version == null ? source : source + " " + version;
    }

    private Optional<Path> installed(String source, String version) {
        String dir = index.get(key(source, version));
        if (dir == null) {
            return Optional.empty();
        }
        Path p = stackDir.resolve(dir).normalize();
        return Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
    }

    private Optional<Path> install(String source, String version) {
        Path root = stackDir.resolve(DIR).resolve(digest(key(source, version)));
        StringBuilder call = new StringBuilder("module \"" + CALL + "\" {\n  source = " + quoted(source) + "\n");
        if (version != null) {
            call.append("  version = ").append(quoted(version)).append('\n');
        }
        call.append("}\n");
        try {
            Files.createDirectories(root);
            Files.writeString(root.resolve("main.tf"), call.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            diags.add(Diagnostic.error(
                    "Failed to install source",
                    "Could not prepare " + IoProblems.describe(root, e) + " for " + display(source, version) + ".",
                    null));
            return Optional.empty();
        }
        Result<ModuleInstaller.Installation> r =
                ModuleInstaller.install(root, ConfigLoader.Options.DEFAULT, true, access);
        // Only the fetch matters here: the one-call root passes no inputs, so a module's own required
        // variables are reported missing; those are checked where a component uses the module.
        Optional<ModuleInstaller.Step> step = r.value() == null
                ? Optional.empty()
                : r.value().steps().stream().filter(s -> s.key().equals(CALL)).findFirst();
        if (step.isEmpty() || step.get().action() == ModuleInstaller.Action.LOCAL) {
            boolean told = false;
            for (Diagnostic d : r.diagnostics()) {
                if (d.isError()) {
                    // The range would point into the generated root; the detail names the source.
                    diags.add(Diagnostic.error(d.summary(), d.detail(), null));
                    told = true;
                }
            }
            if (!told) {
                diags.add(Diagnostic.error(
                        "Failed to install source",
                        "The source " + display(source, version) + " could not be installed.",
                        null));
            }
            return Optional.empty();
        }
        Path dir = root.resolve(step.get().dir()).normalize();
        index.put(key(source, version), stackDir.relativize(dir).toString().replace('\\', '/'));
        return Optional.of(dir);
    }

    /** Writes the index of installed sources (nothing when there are none and never were). */
    public Diagnostics save() {
        Path f = stackDir.resolve(DIR).resolve(INDEX);
        if (index.isEmpty() && !Files.exists(f)) {
            return Diagnostics.NONE;
        }
        ObjectNode n = new ObjectMapper().createObjectNode();
        ArrayNode a = n.putArray("sources");
        index.forEach((k, dir) -> a.addObject().put("key", k).put("dir", dir));
        try {
            Files.createDirectories(f.getParent());
            Files.writeString(f, n.toPrettyString() + "\n", StandardCharsets.UTF_8);
            return Diagnostics.NONE;
        } catch (IOException e) {
            return Diagnostics.of(Diagnostic.error(
                    "Failed to save the installed sources",
                    "Could not write " + IoProblems.describe(f, e) + ".",
                    null));
        }
    }

    private void readIndex() {
        Path f = stackDir.resolve(DIR).resolve(INDEX);
        if (!Files.isRegularFile(f)) {
            return;
        }
        try {
            JsonNode n = new ObjectMapper().readTree(Files.readString(f, StandardCharsets.UTF_8));
            for (JsonNode e : n.path("sources")) {
                if (e.path("key").isTextual() && e.path("dir").isTextual()) {
                    index.put(e.path("key").asText(), e.path("dir").asText());
                }
            }
        } catch (IOException e) {
            diags.add(Diagnostic.error(
                    "Failed to read the installed sources",
                    "Could not read " + IoProblems.describe(f, e) + ". Run \"strata stacks init\" again.",
                    null));
        }
    }

    private static String quoted(String s) {
        return "\""
                + s.replace("\\", "\\\\")
                        .replace("\"", "\\\"")
                        .replace("${", "$${")
                        .replace("%{", "%%{") + "\"";
    }

    private static String digest(String s) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
