package dev.strata.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Files a test writes into its temporary directory. */
public final class TestFiles {
    private TestFiles() {}

    /** Writes {@code text} (UTF-8) to {@code dir/name}, creating the folders {@code name} names; returns the file. */
    public static Path write(Path dir, String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, text);
    }
}
