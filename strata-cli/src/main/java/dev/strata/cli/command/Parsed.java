package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import java.util.List;

/**
 * A command's arguments parsed into its record, with the problems found: the value is complete when
 * there are no errors, and null when parsing could not produce one. Commands check {@link #hasErrors()}
 * and hand the diagnostics to their view.
 */
record Parsed<T>(T value, List<CliDiagnostic> diagnostics) {

    Parsed {
        diagnostics = List.copyOf(diagnostics);
    }

    static <T> Parsed<T> of(T value) {
        return new Parsed<>(value, List.of());
    }

    static <T> Parsed<T> failed(List<CliDiagnostic> diagnostics) {
        return new Parsed<>(null, diagnostics);
    }

    static <T> Parsed<T> failed(CliDiagnostic diagnostic) {
        return failed(List.of(diagnostic));
    }

    boolean hasErrors() {
        return diagnostics.stream().anyMatch(d -> d.severity() == CliDiagnostic.Severity.ERROR);
    }
}
