package dev.strata.tfplugin;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import java.util.List;
import java.util.Optional;

/**
 * What a plugin call produced: a value (absent when the call failed) and the provider's
 * diagnostics, or one diagnostic from Strata when the transport or decoding failed.
 */
public record PluginResult<T>(Optional<T> value, List<PluginDiagnostic> diagnostics) {
    public PluginResult {
        diagnostics = List.copyOf(diagnostics);
    }

    static <T> PluginResult<T> of(T value, List<PluginDiagnostic> diagnostics) {
        return new PluginResult<>(Optional.ofNullable(value), diagnostics);
    }

    static <T> PluginResult<T> failed(Diagnostic d) {
        return new PluginResult<>(Optional.empty(), List.of(new PluginDiagnostic(d, List.of())));
    }

    public boolean hasErrors() {
        return diagnostics.stream().anyMatch(d -> d.diagnostic().isError());
    }

    public Diagnostics toDiagnostics() {
        return Diagnostics.of(diagnostics.stream().map(PluginDiagnostic::diagnostic).toList());
    }

    /** The value, for callers that checked {@link #hasErrors()}; fails loudly otherwise. */
    public T orElseThrow() {
        return value.orElseThrow(() -> new IllegalStateException("plugin call failed: " + toDiagnostics()));
    }
}
