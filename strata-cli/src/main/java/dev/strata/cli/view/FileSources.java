package dev.strata.cli.view;

import dev.strata.hcl.DiagnosticRenderer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Source text for diagnostics whose subject is a file on disk (a configuration file, a state file,
 * a {@code -backend-config} file), read when a diagnostic needs it. Filenames are as the diagnostic
 * gives them: relative to the working directory, or absolute.
 */
public final class FileSources implements DiagnosticRenderer.Sources {
    private final Path dir;
    private final Map<String, byte[]> read = new HashMap<>();

    public FileSources(Path dir) {
        this.dir = dir;
    }

    @Override
    public byte[] bytes(String filename) {
        return read.computeIfAbsent(filename, f -> {
            try {
                Path p = dir.resolve(f);
                return Files.isRegularFile(p) ? Files.readAllBytes(p) : null;
            } catch (IOException | RuntimeException e) {
                return null; // no snippet then; the diagnostic still names the file and line
            }
        });
    }

    /**
     * {@code primary} (the configuration as loaded), then files on disk for what it does not hold:
     * a {@code .tfvars} file's errors quote their source line as configuration errors do.
     */
    public static DiagnosticRenderer.Sources over(DiagnosticRenderer.Sources primary, Path dir) {
        FileSources files = new FileSources(dir);
        return new DiagnosticRenderer.Sources() {
            @Override
            public byte[] bytes(String filename) {
                byte[] b = primary.bytes(filename);
                return b != null ? b : files.bytes(filename);
            }

            @Override
            public dev.strata.hcl.Body body(String filename) {
                return primary.body(filename);
            }
        };
    }
}
