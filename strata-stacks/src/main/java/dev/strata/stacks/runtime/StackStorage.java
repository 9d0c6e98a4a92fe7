package dev.strata.stacks.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.PgBackend;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a Stack's deployment states are stored, as {@code strata stacks init -backend=...} recorded it
 * in {@code .strata/stacks/backend.json}: local files under {@code .strata/stacks/<deployment>/} (the
 * default), or rows of a PostgreSQL schema. In PostgreSQL every deployment is a set of workspaces of
 * strata-state's pg backend: {@code deployment.<name>} (the stack's outputs, and the deployment's lock)
 * and {@code deployment.<name>.<instance>} per component instance, each with the backend's advisory
 * lock, journal and history. Deployment names are identifiers (no dots), so the prefixes never overlap.
 */
public final class StackStorage {
    /** The file (under the stack's working directory) that records the chosen backend. */
    public static final String SETTINGS_FILE = DeploymentStore.ROOT + "/backend.json";

    static final String PG_PREFIX = "deployment.";

    /** A backend choice as recorded: its type ({@code local} or {@code pg}) and its settings. */
    public record Choice(String type, SortedMap<String, String> config) {
        public static final Choice LOCAL = new Choice("local", new TreeMap<>());

        public Choice {
            config = new TreeMap<>(config);
        }

        /** How the choice is shown: the type, and the settings without values that may be secret. */
        public String describe() {
            return type.equals("pg") && config.containsKey("schema_name")
                    ? "pg (schema " + config.get("schema_name") + ")"
                    : type;
        }
    }

    private final Path workingDir;
    private final String version;
    private final PgBackend pg;
    private final Choice choice;

    private StackStorage(Path workingDir, String version, PgBackend pg, Choice choice) {
        this.workingDir = workingDir;
        this.version = version;
        this.pg = pg;
        this.choice = choice;
    }

    /** Local files under {@code workingDir}, whatever the settings file says. */
    public static StackStorage local(Path workingDir, String version) {
        return new StackStorage(workingDir.toAbsolutePath().normalize(), version, null, Choice.LOCAL);
    }

    /** The storage a Stack's recorded choice names, connected; {@code env} gives {@code PG_CONN_STR} and the like. */
    public static Result<StackStorage> open(Path workingDir, Map<String, String> env, String version) {
        Result<Choice> c = readChoice(workingDir);
        if (c.value() == null) {
            return Result.of(null, c.diagnostics());
        }
        return connect(workingDir, c.value(), env, version);
    }

    /** The storage {@code choice} names, connected (a pg schema and its tables are created when missing). */
    public static Result<StackStorage> connect(
            Path workingDir, Choice choice, Map<String, String> env, String version) {
        Path dir = workingDir.toAbsolutePath().normalize();
        return switch (choice.type()) {
            case "local" -> {
                if (!choice.config().isEmpty()) {
                    yield Result.of(
                            null,
                            Diagnostics.of(Diagnostic.error(
                                    "Invalid backend configuration",
                                    "The local backend of a Stack takes no settings (got "
                                            + String.join(", ", choice.config().keySet()) + ").",
                                    null)));
                }
                yield Result.of(new StackStorage(dir, version, null, choice));
            }
            case "pg" -> {
                for (String k : choice.config().keySet()) {
                    if (!k.equals("conn_str") && !k.equals("schema_name")) {
                        yield Result.of(
                                null,
                                Diagnostics.of(Diagnostic.error(
                                        "Invalid backend configuration",
                                        "The pg backend of a Stack takes conn_str and schema_name; \"" + k
                                                + "\" is not one of them.",
                                        null)));
                    }
                }
                Result<PgBackend> b = PgBackend.connect(
                        choice.config().get("conn_str"), choice.config().get("schema_name"), env, version);
                yield b.value() == null
                        ? Result.of(null, b.diagnostics())
                        : Result.of(new StackStorage(dir, version, b.value(), choice), b.diagnostics());
            }
            default ->
                Result.of(
                        null,
                        Diagnostics.of(Diagnostic.error(
                                "Unsupported Stack backend",
                                "A Stack's state can be stored in \"local\" files or in \"pg\" (PostgreSQL); \""
                                        + choice.type() + "\" is neither.",
                                null)));
        };
    }

    public Choice choice() {
        return choice;
    }

    /** One deployment's store. */
    public DeploymentStore deployment(String name) {
        return pg == null
                ? DeploymentStore.of(workingDir, name, version)
                : DeploymentStore.inBackend(pg, name, PG_PREFIX + name, PG_PREFIX + name + ".", version);
    }

    /** Deployments that have state, sorted. */
    public Result<List<String>> deploymentsWithState() {
        if (pg == null) {
            Path root = workingDir.resolve(DeploymentStore.ROOT);
            if (!Files.isDirectory(root)) {
                return Result.of(List.of());
            }
            try (var s = Files.list(root)) {
                // Dot directories (installed sources) are not deployments: names are identifiers.
                return Result.of(s.filter(Files::isDirectory)
                        .map(p -> p.getFileName().toString())
                        .filter(n -> !n.startsWith("."))
                        .sorted()
                        .toList());
            } catch (IOException e) {
                return Result.of(
                        List.of(),
                        Diagnostics.of(Diagnostic.error(
                                "Failed to list deployment states",
                                "Could not list " + IoProblems.describe(root, e) + ".",
                                null)));
            }
        }
        Backend b = pg;
        Result<List<String>> ws = b.workspaces();
        List<String> out = new ArrayList<>();
        for (String w : ws.value() == null ? List.<String>of() : ws.value()) {
            if (w.startsWith(PG_PREFIX) && w.indexOf('.', PG_PREFIX.length()) < 0) {
                out.add(w.substring(PG_PREFIX.length()));
            }
        }
        out.sort(null);
        return Result.of(List.copyOf(out), ws.diagnostics());
    }

    /** The choice recorded in {@code workingDir}; local when nothing is recorded. */
    public static Result<Choice> readChoice(Path workingDir) {
        Path f = workingDir.resolve(SETTINGS_FILE);
        try {
            JsonNode n = new ObjectMapper().readTree(Files.readString(f, StandardCharsets.UTF_8));
            if (n == null || !n.path("type").isTextual() || !n.path("config").isObject()) {
                return Result.of(null, Diagnostics.of(damaged(f, "it has no \"type\" and \"config\"")));
            }
            SortedMap<String, String> config = new TreeMap<>();
            for (var it = n.path("config").fields(); it.hasNext(); ) {
                var e = it.next();
                if (!e.getValue().isTextual()) {
                    return Result.of(
                            null, Diagnostics.of(damaged(f, "setting \"" + e.getKey() + "\" is not a string")));
                }
                config.put(e.getKey(), e.getValue().asText());
            }
            return Result.of(new Choice(n.path("type").asText(), config));
        } catch (NoSuchFileException e) {
            return Result.of(Choice.LOCAL);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return Result.of(null, Diagnostics.of(damaged(f, "it is not valid JSON")));
        } catch (IOException e) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to read the Stack's backend settings",
                            "Could not read " + IoProblems.describe(f, e) + ".",
                            null)));
        }
    }

    /**
     * Records {@code choice} for {@code workingDir}; readable by the owner only, as a connection string
     * may carry a password (as Terraform's own backend settings under .terraform do).
     */
    public static Diagnostics writeChoice(Path workingDir, Choice choice) {
        Path f = workingDir.resolve(SETTINGS_FILE);
        ObjectNode n = new ObjectMapper().createObjectNode();
        n.put("type", choice.type());
        ObjectNode c = n.putObject("config");
        choice.config().forEach(c::put);
        try {
            Files.createDirectories(f.getParent());
            Path tmp = f.resolveSibling("backend.json.tmp");
            Files.writeString(tmp, n.toPrettyString() + "\n", StandardCharsets.UTF_8);
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // Not a POSIX file system: the file keeps the directory's default permissions.
            }
            Files.move(
                    tmp,
                    f,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return Diagnostics.NONE;
        } catch (IOException e) {
            return Diagnostics.of(Diagnostic.error(
                    "Failed to save the Stack's backend settings",
                    "Could not write " + IoProblems.describe(f, e) + ".",
                    null));
        }
    }

    private static Diagnostic damaged(Path f, String why) {
        return Diagnostic.error(
                "Invalid Stack backend settings",
                f + " cannot be used: " + why + ". Run \"strata stacks init -backend=local\" or \"-backend=pg\" "
                        + "again to rewrite it.",
                null);
    }
}
