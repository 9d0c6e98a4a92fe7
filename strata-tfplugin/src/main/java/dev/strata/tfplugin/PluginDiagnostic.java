package dev.strata.tfplugin;

import dev.strata.hcl.Diagnostic;
import java.util.List;

/**
 * A diagnostic a provider returned, with the attribute path it points at (empty when it concerns
 * the whole object). The path lets the caller find a source range in the configuration later.
 */
public record PluginDiagnostic(Diagnostic diagnostic, List<PathStep> attribute) {
    public PluginDiagnostic {
        attribute = List.copyOf(attribute);
    }

    /** One step of an attribute path, as the protocol encodes it. */
    public sealed interface PathStep {
        record AttributeName(String name) implements PathStep {}

        record ElementKeyString(String key) implements PathStep {}

        record ElementKeyInt(long index) implements PathStep {}
    }
}
