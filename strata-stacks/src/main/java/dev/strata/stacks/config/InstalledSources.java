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
 *
 * <p>A component's module may call modules of its own, from any source. That one-call root installs
 * the whole tree of a remote source (a relative {@code ./modules/x} inside a downloaded package
 * resolves inside that package); a local component whose tree calls non-local modules gets a one-call
 * root of its own ({@code local-DIGEST}, the call's source a relative path back to the component).
 * {@link #installTrees} then writes, for each component's module directory, the manifest of its tree
 * re-rooted at that directory ({@code trees/DIGEST.json}), which {@link #loadTree} loads it with.
 */
public final class InstalledSources {
    /**
     * Where the sources live, under the Stack's directory: beside the deployments' state
     * directories, with a name no deployment (an identifier) can have.
     */
    public static final String DIR = ".strata/stacks/.modules";

    static final String INDEX = "sources.json";
    private static final String CALL = "source";
    /** The one-call root's own file: problems located in it are about the generated call, not the source. */
    private static final String GENERATED = "main.tf";

    private final Path stackDir;
    private final Map<String, String> index = new TreeMap<>();
    private final Diagnostics.Builder diags = Diagnostics.builder();
    private RemoteAccess access = RemoteAccess.of(System.getenv());
    private boolean upgrade;
    private java.util.function.Consumer<String> progress = line -> {};
    /** The one-call root of each remote source's module directory found or installed in this run. */
    private final Map<Path, Path> roots = new java.util.HashMap<>();
    /** What failed installing the modules a remote source's module calls, by its module directory. */
    private final Map<Path, java.util.List<Diagnostic>> nested = new java.util.HashMap<>();

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
        return new StackLoader.Options((from, source, version, range) ->
                Result.of(installed(source, version).orElse(null)));
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
        this.upgrade = upgrade;
        this.progress = progress;
        return new StackLoader.Options((from, source, version, range) -> {
            Optional<Path> have = upgrade ? Optional.empty() : installed(source, version);
            if (have.isPresent()) {
                progress.accept("- " + display(source, version) + " (already installed)");
                return Result.of(have.get());
            }
            return install(source, version, range);
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
        if (!Files.isDirectory(p)) {
            return Optional.empty();
        }
        roots.put(p, stackDir.resolve(DIR).resolve(digest(key(source, version))));
        return Optional.of(p);
    }

    /**
     * Installs {@code source} through a one-call root; its failures are errors at {@code range}, the
     * {@code source} of the Stack's block, told of the source rather than of the generated call.
     */
    private Result<Path> install(String source, String version, dev.strata.hcl.SourceRange range) {
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
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to install source",
                            "Could not prepare " + IoProblems.describe(root, e) + " for " + display(source, version)
                                    + ".",
                            range)));
        }
        Result<ModuleInstaller.Installation> r =
                ModuleInstaller.install(root, ConfigLoader.Options.DEFAULT, true, access);
        // Only the fetch matters here: the one-call root passes no inputs, so a module's own required
        // variables are reported missing; those are checked where a component uses the module.
        Optional<ModuleInstaller.Step> step = r.value() == null
                ? Optional.empty()
                : r.value().steps().stream().filter(s -> s.key().equals(CALL)).findFirst();
        if (step.isEmpty() || step.get().action() == ModuleInstaller.Action.LOCAL) {
            Diagnostics.Builder failed = Diagnostics.builder();
            for (Diagnostic d : r.diagnostics()) {
                if (d.isError()) {
                    // Its range and texts are about the generated call: told at the Stack's source instead.
                    failed.add(Diagnostic.error(d.summary(), ofTheSource(d.detail()), range));
                }
            }
            if (failed.build().isEmpty()) {
                failed.add(Diagnostic.error(
                        "Failed to install source",
                        "The source " + display(source, version) + " could not be installed.",
                        range));
            }
            return Result.of(null, failed.build());
        }
        Path dir = root.resolve(step.get().dir()).normalize();
        roots.put(dir, root);
        progress.accept("- " + display(source, version) + " installed in " + display(stackDir, dir));
        report(r.value().steps(), display(source, version));
        java.util.List<Diagnostic> failed = nestedErrors(r.diagnostics());
        if (failed.isEmpty()) {
            index.put(key(source, version), stackDir.relativize(dir).toString().replace('\\', '/'));
        } else {
            // The package itself is here, so the Stack still loads; left out of the index, the source
            // is installed again by the next init, and plan says it is not installed meanwhile.
            nested.put(dir, failed);
        }
        return Result.of(dir);
    }

    /**
     * The generated call, as the installer's texts name it: {@code module "source" (main.tf:1)} and the like;
     * "module "source" (main.tf:1) source code" as a whole, which would otherwise read "the source source code".
     */
    private static final java.util.regex.Pattern GENERATED_CALL =
            java.util.regex.Pattern.compile("(?:[Tt]he )?[Mm]odule \"" + CALL + "\"(?: \\((?:from )?"
                    + java.util.regex.Pattern.quote(GENERATED) + ":\\d+\\))?(?: source code(?= from))?");

    /** An installer's text with the generated call named as what it stands for, the source. */
    static String ofTheSource(String detail) {
        java.util.regex.Matcher m = GENERATED_CALL.matcher(detail);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String before = detail.substring(0, m.start()).stripTrailing();
            boolean sentenceStart = before.isEmpty() || before.endsWith(".") || before.endsWith(":");
            m.appendReplacement(out, sentenceStart ? "The source" : "the source");
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Progress lines for the modules a source's module calls, as {@code strata init} reports them. */
    private void report(java.util.List<ModuleInstaller.Step> steps, String of) {
        for (ModuleInstaller.Step s : steps) {
            if (!s.key().startsWith(CALL + ".") || s.action() == ModuleInstaller.Action.LOCAL) {
                continue;
            }
            String call = "module \"" + s.key().substring(CALL.length() + 1) + "\"";
            progress.accept("- " + of + ": " + call + " from " + display(s.source(), s.version())
                    + (s.action() == ModuleInstaller.Action.REUSED ? " (already installed)" : " installed"));
        }
    }

    /** The errors of a one-call root's installation that are about the source's own tree. */
    private static java.util.List<Diagnostic> nestedErrors(Diagnostics ds) {
        java.util.List<Diagnostic> out = new java.util.ArrayList<>();
        for (Diagnostic d : ds) {
            // The generated call passes no inputs, so the source's required variables are reported
            // missing there; those are checked where a component passes its inputs.
            if (d.isError() && (d.subject() == null || !d.subject().filename().equals(GENERATED))) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * Installs the modules each component's (and removed block's) module calls, through the Stack and
     * its embedded stacks, and records each module directory's tree for {@link #loadTree}. Problems
     * name the component and the module call and point at the component's {@code source}; they are
     * collected in {@link #diagnostics()}. Call after loading with {@link #installing}.
     */
    public void installTrees(StackConfig stack) {
        installTrees(stack, new java.util.HashSet<>());
    }

    private void installTrees(StackConfig stack, java.util.Set<Path> seen) {
        for (ComponentConfig c : stack.components().values()) {
            if (c.moduleDir() != null && seen.add(c.moduleDir())) {
                installTree(c.moduleDir(), "component \"" + c.name() + "\"", c.source(), c.sourceRange());
            }
        }
        for (RemovedBlock r : stack.removed()) {
            if (r.moduleDir() != null && seen.add(r.moduleDir())) {
                installTree(r.moduleDir(), "the removed block's component", r.source(), r.sourceRange());
            }
            if (r.stack() != null) {
                installTrees(r.stack(), seen);
            }
        }
        for (EmbeddedStackConfig e : stack.embeddedStacks().values()) {
            if (e.stack() != null) {
                installTrees(e.stack(), seen);
            }
        }
    }

    private void installTree(Path moduleDir, String owner, String source, dev.strata.hcl.SourceRange range) {
        Path dir = moduleDir.toAbsolutePath().normalize();
        Path root = roots.get(dir);
        java.util.List<Diagnostic> failed;
        if (root != null) {
            failed = nested.getOrDefault(dir, java.util.List.of());
        } else {
            if (!callsNonLocal(dir, new java.util.HashSet<>())) {
                // Its tree loads in place: anything recorded for it earlier no longer applies.
                deleteQuietly(treeFile(stackDir, dir));
                return;
            }
            root = stackDir.resolve(DIR).resolve("local-" + digest(display(stackDir, dir)));
            String relative = display(root, dir);
            try {
                Files.createDirectories(root);
                Files.writeString(
                        root.resolve(GENERATED),
                        "module \"" + CALL + "\" {\n  source = " + quoted(relative) + "\n}\n",
                        StandardCharsets.UTF_8);
            } catch (IOException e) {
                diags.add(Diagnostic.error(
                        "Failed to install modules",
                        "Could not prepare " + IoProblems.describe(root, e) + " for the modules of " + owner + ".",
                        range));
                return;
            }
            Result<ModuleInstaller.Installation> r =
                    ModuleInstaller.install(root, ConfigLoader.Options.DEFAULT, upgrade, access);
            if (r.value() != null) {
                report(r.value().steps(), owner);
            }
            failed = nestedErrors(r.diagnostics());
        }
        if (!failed.isEmpty()) {
            for (Diagnostic d : failed) {
                diags.add(Diagnostic.error(d.summary(), inTree(d, owner, source, root), range));
            }
            return;
        }
        try {
            ModuleInstaller.writeSubtreeManifest(root, CALL, dir, treeFile(stackDir, dir));
        } catch (IOException e) {
            diags.add(Diagnostic.error(
                    "Failed to install modules",
                    "Could not record the modules of " + owner + ": " + IoProblems.describe(treeFile(stackDir, dir), e)
                            + ".",
                    range));
        }
    }

    /** A problem in a component's module tree, told from the component: which call, and where. */
    private String inTree(Diagnostic d, String owner, String source, Path root) {
        String detail = d.detail() == null ? "" : d.detail();
        String where = null;
        if (d.subject() != null) {
            // File names in the installer's texts are relative to the generated root: name them from the Stack.
            String file = display(stackDir, root.resolve(d.subject().filename()).normalize());
            detail = detail.replace(d.subject().filename() + ":", file + ":");
            where = file + ":" + d.subject().start().line();
        }
        StringBuilder b =
                new StringBuilder("While installing the modules of " + owner + " (source \"" + source + "\"): ");
        b.append(detail);
        if (where != null && !detail.contains(where)) {
            b.append(detail.endsWith(".") ? "" : ".")
                    .append(" The module call is at ")
                    .append(where)
                    .append('.');
        }
        return b.toString();
    }

    /** Whether the tree of local module calls from {@code dir} calls any module that must be installed. */
    private static boolean callsNonLocal(Path dir, java.util.Set<Path> seen) {
        if (!seen.add(dir)) {
            return false;
        }
        dev.strata.config.ModuleConfig m =
                ConfigLoader.loadModule(dir, ConfigLoader.Options.DEFAULT).value();
        if (m == null) {
            return false;
        }
        for (dev.strata.config.ModuleCallConfig call : m.moduleCalls().values()) {
            String s = call.source();
            if (s == null || s.isEmpty()) {
                continue;
            }
            if (!StackLoader.isLocalSource(s)) {
                return true;
            }
            Path child = dir.resolve(s.replace('\\', '/')).normalize();
            if (Files.isDirectory(child) && callsNonLocal(child, seen)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The module tree of a component's module directory: the modules {@code strata stacks init}
     * installed for it when it calls any that are not local paths, else read in place.
     */
    public static Result<dev.strata.config.ConfigTree> loadTree(Path stackDir, Path moduleDir) {
        Path dir = moduleDir.toAbsolutePath().normalize();
        Path f = treeFile(stackDir.toAbsolutePath().normalize(), dir);
        Result<dev.strata.config.ConfigTree> r = Files.isRegularFile(f)
                ? ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT, f)
                : ConfigLoader.loadTree(dir, ConfigLoader.Options.DEFAULT);
        if (!r.hasErrors()) {
            return r;
        }
        // A component's modules are installed by the Stack's init, not the plain one.
        Diagnostics.Builder b = Diagnostics.builder();
        for (Diagnostic d : r.diagnostics()) {
            b.add(
                    d.detail() != null && d.detail().contains("\"strata init\"")
                            ? d.withDetail(d.detail().replace("\"strata init\"", "\"strata stacks init\""))
                            : d);
        }
        return Result.of(r.value(), b.build());
    }

    private static Path treeFile(Path stackDir, Path moduleDir) {
        return stackDir.resolve(DIR).resolve("trees").resolve(digest(display(stackDir, moduleDir)) + ".json");
    }

    private static String display(Path from, Path to) {
        String s = from.relativize(to).toString().replace('\\', '/');
        return s.isEmpty() ? "." : s;
    }

    private static void deleteQuietly(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException ignored) {
            // A stale tree file is only read for calls that are not local, which this tree no longer has.
        }
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
