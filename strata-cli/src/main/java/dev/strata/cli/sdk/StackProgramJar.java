package dev.strata.cli.sdk;

import dev.strata.sdk.StackProgram;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * A jar that declares a stack's entry point: the class its {@value StackProgram#MANIFEST_ATTRIBUTE}
 * manifest attribute names, or else the one class its {@code META-INF/services/dev.strata.sdk.StackProgram}
 * lists; with the jars its manifest's {@code Class-Path} names (the program's own dependencies).
 */
record StackProgramJar(Path jar, String entryPoint, List<Path> classPath) {
    static final String SERVICE = "META-INF/services/" + StackProgram.class.getName();

    /** What the file at {@code jar} declares: a program, none, or a problem reading it. */
    sealed interface Read {
        record Program(StackProgramJar jar) implements Read {}

        record NotAProgram() implements Read {}

        record Unreadable(String reason) implements Read {}

        record Ambiguous(List<String> classes) implements Read {}
    }

    static Read read(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String named =
                    manifest == null ? null : manifest.getMainAttributes().getValue(StackProgram.MANIFEST_ATTRIBUTE);
            List<Path> classPath = classPath(jar, manifest);
            if (named != null && !named.isBlank()) {
                return new Read.Program(new StackProgramJar(jar, named.trim(), classPath));
            }
            var entry = file.getJarEntry(SERVICE);
            if (entry == null) {
                return new Read.NotAProgram();
            }
            List<String> listed = new ArrayList<>();
            try (InputStream in = file.getInputStream(entry)) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    String c = line.replaceFirst("#.*", "").trim();
                    if (!c.isEmpty()) {
                        listed.add(c);
                    }
                }
            }
            return switch (listed.size()) {
                case 0 -> new Read.NotAProgram();
                case 1 -> new Read.Program(new StackProgramJar(jar, listed.getFirst(), classPath));
                default -> new Read.Ambiguous(listed.stream().sorted().toList());
            };
        } catch (IOException | SecurityException e) {
            String reason = e.getMessage() == null ? "not a readable jar file" : e.getMessage();
            return new Read.Unreadable(reason);
        }
    }

    // Class-Path entries are relative URLs, space separated, against the jar's directory.
    private static List<Path> classPath(Path jar, Manifest manifest) {
        String cp = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
        if (cp == null || cp.isBlank()) {
            return List.of();
        }
        Path base = jar.toAbsolutePath().getParent();
        return Stream.of(cp.trim().split("\\s+"))
                .map(e -> base.resolve(e).normalize())
                .filter(Files::exists)
                .toList();
    }
}
