package dev.strata.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Programs looked up on the {@code PATH}, as a shell would find them. */
public final class Executables {
    private Executables() {}

    /** The first executable file named {@code name} in a {@code PATH} directory. */
    public static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path exe = Path.of(dir, name);
            if (Files.isExecutable(exe)) {
                return Optional.of(exe);
            }
        }
        return Optional.empty();
    }

    public static boolean isOnPath(String name) {
        return onPath(name).isPresent();
    }
}
