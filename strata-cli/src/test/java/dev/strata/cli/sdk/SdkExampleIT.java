package dev.strata.cli.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.ProcessResult;
import dev.strata.testing.Processes;
import dev.strata.testing.StrataJar;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/sdk-java} from the checkout, built as {@code mvn package} would build it but without
 * Maven (offline, no {@code install}): its sources compiled against the reactor's strata-sdk, its unit
 * tests run, its jar packaged with the manifest entries of its {@code pom.xml}; then the packaged
 * {@code strata} applies it with the built-in providers, and a second plan finds nothing to change.
 */
class SdkExampleIT {
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path work;

    @Test
    void theTemplateProjectBuildsAppliesAndThenHasNoChanges() throws Exception {
        Path strata = StrataJar.assumePackaged();
        Path example = Path.of(System.getProperty("strata.repo.dir", "..")).resolve("examples/sdk-java");
        assertThat(example.resolve("pom.xml")).exists();
        Path app = work.resolve("app");
        copy(example, app);
        String pom = Files.readString(app.resolve("pom.xml"));

        // Main sources against strata-sdk alone: the example must not lean on anything else of Strata.
        Path sdk = sdkJar(strata.getParent().resolve("lib"));
        Path classes = compile(app.resolve("src/main/java"), app.resolve("target/classes"), sdk.toString());
        Path testClasses = compile(
                app.resolve("src/test/java"),
                app.resolve("target/test-classes"),
                classes + java.io.File.pathSeparator + System.getProperty("java.class.path"));
        runUnitTests(classes, testClasses, "com.example.InfraTest");

        Path jar = app.resolve("target/" + tag(pom, "artifactId", 0) + "-" + tag(pom, "version", 0) + ".jar");
        packageJar(classes, jar, tag(pom, "Strata-Stack", 0));

        ProcessResult init = strata(strata, work, "-chdir=app", "init", "-no-color");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        ProcessResult apply = strata(strata, work, "-chdir=app", "apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(apply.stdout())
                .contains("Apply complete! Resources: 5 added, 0 changed, 0 destroyed.")
                .contains("name = \"app-dev-");
        assertThat(app.resolve(".strata/sdk/terraform.tfstate")).exists();

        ProcessResult again = strata(strata, work, "-chdir=app", "plan", "-detailed-exitcode", "-no-color");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.stdout()).contains("No changes.");
    }

    private static ProcessResult strata(Path jar, Path dir, String... args) throws Exception {
        return Processes.run(StrataJar.process(jar, dir, List.of(), args), "", TIMEOUT);
    }

    /** The text of the {@code n}-th (0-based) element {@code name} of the pom. */
    private static String tag(String pom, String name, int n) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">")
                .matcher(pom);
        for (int i = 0; i <= n; i++) {
            assertThat(m.find()).as("<%s> number %d in pom.xml", name, i + 1).isTrue();
        }
        return m.group(1).trim();
    }

    private static Path sdkJar(Path lib) throws IOException {
        try (Stream<Path> s = Files.list(lib)) {
            return s.filter(p -> p.getFileName().toString().matches("strata-sdk-\\d.*\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no strata-sdk jar in " + lib));
        }
    }

    private static Path compile(Path sources, Path out, String classPath) throws IOException {
        Files.createDirectories(out);
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-cp", classPath, "--release", "21", "-g"));
        try (Stream<Path> s = Files.walk(sources)) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> args.add(p.toString()));
        }
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, errors, errors, args.toArray(String[]::new));
        assertThat(rc)
                .as("javac %s: %s", sources, errors.toString(StandardCharsets.UTF_8))
                .isZero();
        return out;
    }

    /** Runs every {@code @Test} method of the example's test class, as surefire would. */
    private static void runUnitTests(Path classes, Path testClasses, String testClass) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {testClasses.toUri().toURL(), classes.toUri().toURL()},
                SdkExampleIT.class.getClassLoader())) {
            Class<?> c = loader.loadClass(testClass);
            int ran = 0;
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Test.class)) {
                    var ctor = c.getDeclaredConstructor();
                    ctor.setAccessible(true);
                    m.setAccessible(true);
                    try {
                        m.invoke(ctor.newInstance());
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw new AssertionError("example test " + m.getName() + " failed", e.getCause());
                    }
                    ran++;
                }
            }
            assertThat(ran).as("example tests run").isGreaterThan(0);
        }
    }

    private static void packageJar(Path classes, Path jar, String entryPoint) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(new Attributes.Name("Strata-Stack"), entryPoint);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m);
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, (OutputStream) out);
                out.closeEntry();
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.sorted().toList()) {
                Path rel = from.relativize(p);
                if (rel.startsWith("target") || rel.startsWith(".strata")) {
                    continue; // a developer's local build of the example is not part of a clean checkout
                }
                Path dest = to.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        }
    }
}
