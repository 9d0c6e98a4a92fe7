package dev.strata.providers.terraform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.AttributePath;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.ValueJson;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.DataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code data "terraform_remote_state"}: the root outputs of another configuration's state, for
 * composition across states. Outputs override {@code defaults}; sensitive outputs stay sensitive.
 * Backends: {@code local} ({@code path}, default {@code terraform.tfstate}, and
 * {@code workspace_dir}, default {@code terraform.tfstate.d}, for workspaces other than
 * {@code default}). A state that does not exist yet gives just the defaults, as in Terraform.
 */
final class RemoteStateData implements DataSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final Set<String> BACKENDS = Set.of("local");

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute("backend", Attribute.required(Type.STRING).withDescription("The remote backend to use, e.g. `local`."))
            .attribute("config", Attribute.optional(Type.DYNAMIC).withDescription("The configuration of the remote backend."))
            .attribute("defaults", Attribute.optional(Type.DYNAMIC).withDescription(
                    "Default values for outputs, in case the state file is empty or lacks a required output."))
            .attribute("outputs", Attribute.computed(Type.DYNAMIC).withDescription(
                    "An object containing every root-level output in the remote state."))
            .attribute("workspace", Attribute.optional(Type.STRING).withDescription(
                    "The Terraform workspace to use, if the backend supports workspaces."))
            .build());

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
        if (backend.isKnownAndNotNull() && !BACKENDS.contains(backend.asString())) {
            diags.error("Unsupported backend", "Strata reads remote state from the backends " + BACKENDS
                    + "; \"" + backend.asString() + "\" is not one of them yet.", AttributePath.of("backend"));
        }
        Value defaults = Attrs.get(config, "defaults");
        if (defaults.isKnownAndNotNull() && !(defaults.type() instanceof ObjectType)
                && !(defaults.type() instanceof dev.strata.lang.types.MapType)) {
            diags.error("Invalid default value", "defaults must be an object.", AttributePath.of("defaults"));
        }
    }

    @Override
    public Value read(Value config, ProviderDiagnostics.Builder diags) {
        String workspace = Attrs.string(config, "workspace", "default");
        Value cfg = Attrs.get(config, "config");
        String path = string(cfg, "path", "terraform.tfstate");
        String dir = string(cfg, "workspace_dir", "terraform.tfstate.d");
        Path file = workspace.equals("default") ? Path.of(path) : Path.of(dir, workspace, "terraform.tfstate");
        Map<String, Value> outputs = new TreeMap<>();
        Value defaults = Attrs.get(config, "defaults");
        if (defaults.isKnownAndNotNull()) {
            outputs.putAll(defaults.attributes());
        }
        try {
            JsonNode state = JSON.readTree(Files.readString(file));
            state.path("outputs").properties().forEach(e -> {
                JsonNode o = e.getValue();
                Value v = ValueJson.fromNode(o.get("value"), ValueJson.parseType(o.get("type")));
                outputs.put(e.getKey(), o.path("sensitive").asBoolean(false) ? v.mark(Mark.SENSITIVE) : v);
            });
        } catch (NoSuchFileException e) {
            // No state yet: only the defaults.
        } catch (IOException | IllegalArgumentException e) {
            diags.error("Error loading state", "The state of workspace \"" + workspace + "\" at " + file
                    + " could not be read (" + e.getClass().getSimpleName() + ").", null);
            return null;
        }
        return Attrs.with(config, "outputs", Value.object(outputs));
    }

    private static String string(Value obj, String name, String dflt) {
        if (!obj.isKnownAndNotNull()) {
            return dflt;
        }
        Value v = obj.unmarkDeep().attributes().get(name);
        return v == null || v.isNull() ? dflt : v.asString();
    }
}
