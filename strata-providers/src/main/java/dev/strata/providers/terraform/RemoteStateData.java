package dev.strata.providers.terraform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.addr.AttributePath;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.hcl.Severity;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.ValueJson;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.DataSource;
import dev.strata.provider.sdk.EngineContext;
import dev.strata.state.LockRequest;
import dev.strata.state.PgBackend;
import dev.strata.state.StateCodec;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import dev.strata.state.Workspaces;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code data "terraform_remote_state"}: the root outputs of another configuration's state, for
 * composition across states. Each output keeps the type recorded in that state, and a sensitive
 * output stays sensitive; {@code defaults} fill in outputs the state lacks. As in Terraform, a
 * state that does not exist is an error ("Unable to find remote state"), defaults or not.
 *
 * <p>Backends: {@code local} ({@code path}, default {@code terraform.tfstate}, for the default
 * workspace; {@code workspace_dir}, default {@code terraform.tfstate.d}, for the others; relative
 * paths against the working directory the engine configured the provider with) and {@code pg}
 * ({@code conn_str} or {@code PG_CONN_STR}, {@code schema_name} or {@code PG_SCHEMA_NAME}, read
 * through strata-state's {@link PgBackend} without taking the lock).
 */
final class RemoteStateData implements DataSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Each backend and the arguments its {@code config} takes, as Terraform's backend schemas have them. */
    static final Map<String, Set<String>> BACKENDS = Map.of(
            "local", Set.of("path", "workspace_dir"),
            "pg",
                    Set.of(
                            "conn_str",
                            "schema_name",
                            "skip_schema_creation",
                            "skip_table_creation",
                            "skip_index_creation"),
            "s3", dev.strata.state.S3Settings.names(),
            "http", dev.strata.state.HttpSettings.names());

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(
                    "backend",
                    Attribute.required(Type.STRING).withDescription("The remote backend to use, e.g. `local`."))
            .attribute(
                    "config",
                    Attribute.optional(Type.DYNAMIC).withDescription("The configuration of the remote backend."))
            .attribute(
                    "defaults",
                    Attribute.optional(Type.DYNAMIC)
                            .withDescription(
                                    "Default values for outputs, in case the state file is empty or lacks a required output."))
            .attribute(
                    "outputs",
                    Attribute.computed(Type.DYNAMIC)
                            .withDescription("An object containing every root-level output in the remote state."))
            .attribute(
                    "workspace",
                    Attribute.optional(Type.STRING)
                            .withDescription("The Terraform workspace to use, if the backend supports workspaces."))
            .build());

    private final EngineContext ctx;

    RemoteStateData(EngineContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public String typeName() {
        return "terraform_remote_state";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value backend = Attrs.get(config, "backend").unmarkDeep();
        if (backend.isKnownAndNotNull() && !BACKENDS.containsKey(backend.asString())) {
            diags.error(
                    "Invalid backend configuration",
                    "There is no backend type named \"" + backend.asString()
                            + "\" that Strata can read remote state from; it reads from "
                            + String.join(" and ", new java.util.TreeSet<>(BACKENDS.keySet())) + ".",
                    AttributePath.of("backend"));
            return;
        }
        Value cfg = Attrs.get(config, "config").unmarkDeep();
        if (backend.isKnownAndNotNull() && cfg.isKnownAndNotNull()) {
            if (!isObject(cfg)) {
                diags.error("Invalid backend configuration", "config must be an object.", AttributePath.of("config"));
            } else {
                for (String name : cfg.attributes().keySet()) {
                    if (!BACKENDS.get(backend.asString()).contains(name)) {
                        diags.error(
                                "Invalid backend configuration",
                                "The backend \"" + backend.asString()
                                        + "\" has no argument named \"" + name + "\"; it takes "
                                        + String.join(", ", new java.util.TreeSet<>(BACKENDS.get(backend.asString())))
                                        + ".",
                                AttributePath.of("config", name));
                    }
                }
            }
        }
        Value defaults = Attrs.get(config, "defaults");
        if (defaults.isKnownAndNotNull() && !isObject(defaults)) {
            diags.error("Invalid default value", "defaults must be an object.", AttributePath.of("defaults"));
        }
    }

    private static boolean isObject(Value v) {
        return v.type() instanceof ObjectType || v.type() instanceof MapType;
    }

    @Override
    public Value read(Value config, ProviderDiagnostics.Builder diags) {
        String workspace = Attrs.string(config, "workspace", Workspaces.DEFAULT);
        Value cfg = Attrs.get(config, "config");
        Optional<JsonNode> state = switch (Attrs.string(config, "backend")) {
            case "pg" -> readPg(cfg, workspace, diags);
            case "s3" ->
                readBackend(
                        dev.strata.state.S3Backend.configure(settings(cfg), ctx.environment(), ctx.engineVersion()),
                        workspace,
                        diags);
            case "http" ->
                readBackend(
                        dev.strata.state.HttpBackend.configure(settings(cfg), ctx.environment(), ctx.engineVersion()),
                        workspace,
                        diags);
            default -> readLocal(cfg, workspace, diags);
        };
        if (diags.hasErrors()) {
            return null;
        }
        if (state.isEmpty()) {
            diags.error(
                    "Unable to find remote state",
                    "No stored state was found for the given workspace (\"" + workspace + "\") in the given backend.",
                    AttributePath.of("workspace"));
            return null;
        }
        Map<String, Value> outputs = new TreeMap<>();
        Value defaults = Attrs.get(config, "defaults");
        if (defaults.isKnownAndNotNull()) {
            outputs.putAll(defaults.attributes());
        }
        try {
            state.get().path("outputs").properties().forEach(e -> {
                JsonNode o = e.getValue();
                Value v = ValueJson.fromNode(o.get("value"), ValueJson.parseType(o.get("type")));
                outputs.put(e.getKey(), o.path("sensitive").asBoolean(false) ? v.mark(Mark.SENSITIVE) : v);
            });
        } catch (IllegalArgumentException | NullPointerException e) {
            diags.error(
                    "Error loading state",
                    "The outputs in the state of workspace \"" + workspace + "\" do not match their recorded types ("
                            + e.getClass().getSimpleName() + ").",
                    null);
            return null;
        }
        return Attrs.with(config, "outputs", Value.object(outputs));
    }

    /** The state file's JSON, empty when there is no such file. */
    private Optional<JsonNode> readLocal(Value cfg, String workspace, ProviderDiagnostics.Builder diags) {
        Path file = workspace.equals(Workspaces.DEFAULT)
                ? ctx.resolve(string(cfg, "path", "terraform.tfstate"))
                : ctx.resolve(string(cfg, "workspace_dir", "terraform.tfstate.d"))
                        .resolve(workspace)
                        .resolve("terraform.tfstate");
        try {
            byte[] bytes = dev.strata.state.LocalBackend.readStateFile(file);
            if (bytes.length == 0) {
                return Optional.empty();
            }
            return Optional.of(JSON.readTree(bytes));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            diags.error(
                    "Error loading state",
                    "The state of workspace \"" + workspace + "\" at " + file + " could not be read ("
                            + e.getClass().getSimpleName() + ").",
                    null);
            return Optional.empty();
        }
    }

    /**
     * The workspace's state in PostgreSQL, without locking it (a reader must not block the writer),
     * as the JSON Terraform writes; empty when the workspace has no stored state.
     */
    private Optional<JsonNode> readPg(Value cfg, String workspace, ProviderDiagnostics.Builder diags) {
        Result<PgBackend> backend = PgBackend.connect(
                string(cfg, "conn_str", null),
                string(cfg, "schema_name", null),
                ctx.environment(),
                ctx.engineVersion());
        if (report(backend.diagnostics(), diags)) {
            return Optional.empty();
        }
        Result<List<String>> names = backend.value().workspaces();
        if (report(names.diagnostics(), diags) || !names.value().contains(workspace)) {
            return Optional.empty();
        }
        Result<StateManager> opened = backend.value().open(workspace, LockRequest.none());
        if (report(opened.diagnostics(), diags)) {
            return Optional.empty();
        }
        try (StateManager m = opened.value()) {
            if (!m.exists()) {
                return Optional.empty();
            }
            StateSnapshot s = m.state();
            return Optional.of(JSON.readTree(StateCodec.write(s)));
        } catch (IOException e) {
            diags.error(
                    "Error loading state",
                    "The state of workspace \"" + workspace + "\" could not be decoded ("
                            + e.getClass().getSimpleName() + ").",
                    null);
            return Optional.empty();
        }
    }

    /**
     * The {@code config} object as the strings a backend spec keeps: scalars as text, objects and lists
     * ({@code endpoints}, {@code shared_credentials_files}) as JSON.
     */
    private static Map<String, String> settings(Value cfg) {
        Map<String, String> out = new TreeMap<>();
        if (!cfg.isKnownAndNotNull()) {
            return out;
        }
        cfg.unmarkDeep().attributes().forEach((k, v) -> {
            if (v.isKnownAndNotNull()) {
                out.put(k, v.type().isPrimitive() ? v.asString() : ValueJson.encode(v, v.type()));
            }
        });
        return out;
    }

    /**
     * A workspace's state from an s3 or http backend, read without locking it (a reader must not block
     * the writer); empty when the workspace has no stored state.
     */
    private Optional<JsonNode> readBackend(
            Result<? extends dev.strata.state.Backend> backend, String workspace, ProviderDiagnostics.Builder diags) {
        if (report(backend.diagnostics(), diags)) {
            return Optional.empty();
        }
        Result<List<String>> names = backend.value().workspaces();
        if (report(names.diagnostics(), diags) || !names.value().contains(workspace)) {
            return Optional.empty();
        }
        return readOpened(backend.value(), workspace, diags);
    }

    private Optional<JsonNode> readOpened(
            dev.strata.state.Backend backend, String workspace, ProviderDiagnostics.Builder diags) {
        Result<StateManager> opened = backend.open(workspace, LockRequest.none());
        if (report(opened.diagnostics(), diags)) {
            return Optional.empty();
        }
        try (StateManager m = opened.value()) {
            if (!m.exists()) {
                return Optional.empty();
            }
            return Optional.of(JSON.readTree(StateCodec.write(m.state())));
        } catch (IOException e) {
            diags.error(
                    "Error loading state", "The state of workspace \"" + workspace + "\" could not be decoded.", null);
            return Optional.empty();
        }
    }

    /** Copies the backend's diagnostics; true when one is an error. */
    private static boolean report(dev.strata.hcl.Diagnostics from, ProviderDiagnostics.Builder diags) {
        for (Diagnostic d : from) {
            diags.add(
                    d.severity() == Severity.ERROR
                            ? ProviderDiagnostic.error(d.summary(), d.detail())
                            : ProviderDiagnostic.warning(d.summary(), d.detail(), null));
        }
        return from.hasErrors();
    }

    private static String string(Value obj, String name, String dflt) {
        if (!obj.isKnownAndNotNull()) {
            return dflt;
        }
        Value v = obj.unmarkDeep().attributes().get(name);
        return v == null || v.isNull() ? dflt : v.asString();
    }
}
