package dev.strata.cli.sdk;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Compiles a stack program's sources against the test class path (strata-sdk on it) into a jar. */
final class ProgramJars {
    private ProgramJars() {}

    /**
     * @param sources   file name under the source root ({@code example/Infra.java}) to its text
     * @param manifest  extra main-section manifest attributes ({@code Strata-Stack})
     * @param resources extra files of the jar ({@code META-INF/services/...}) to their text
     */
    static Path build(
            Path jar, Map<String, String> sources, Map<String, String> manifest, Map<String, String> resources)
            throws IOException {
        Path work = Files.createTempDirectory("strata-program");
        Path src = work.resolve("src");
        Path classes = work.resolve("classes");
        Files.createDirectories(classes);
        List<String> args = new ArrayList<>(List.of(
                "-d", classes.toString(), "-cp", System.getProperty("java.class.path"), "--release", "21", "-g"));
        for (var e : sources.entrySet()) {
            Path f = src.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            args.add(f.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        int rc = javac.run(null, errors, errors, args.toArray(String[]::new));
        if (rc != 0) {
            throw new IllegalStateException("the test program does not compile: " + errors);
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.forEach((k, v) -> m.getMainAttributes().put(new Attributes.Name(k), v));
        Files.createDirectories(jar.getParent());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m);
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, (OutputStream) out);
                out.closeEntry();
            }
            for (var e : resources.entrySet()) {
                out.putNextEntry(new JarEntry(e.getKey()));
                out.write(e.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }
}
