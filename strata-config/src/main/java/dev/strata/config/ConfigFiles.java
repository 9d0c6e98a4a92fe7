package dev.strata.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** The files of a configuration directory as Terraform picks them (modules and Stacks alike). */
public final class ConfigFiles {
    private ConfigFiles() {}

    /**
     * The regular files of {@code dir} whose names {@code which} accepts, in lexical order, skipping what
     * Terraform ignores: hidden files, editor backups ({@code ~} suffix) and Emacs lock files
     * ({@code #...#}). None when {@code dir} is not a directory or cannot be listed.
     */
    public static List<Path> list(Path dir, Predicate<String> which) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> {
                        String n = p.getFileName().toString();
                        return which.test(n)
                                && !n.startsWith(".")
                                && !n.endsWith("~")
                                && !(n.startsWith("#") && n.endsWith("#"));
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
