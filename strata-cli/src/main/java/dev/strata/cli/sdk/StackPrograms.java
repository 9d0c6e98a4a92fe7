package dev.strata.cli.sdk;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.sdk.Problem;
import dev.strata.sdk.Stack;
import dev.strata.sdk.StackProgram;
import dev.strata.sdk.SynthesisException;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Finds the stack program of a working directory, runs it in this process and writes its synthesis
 * into {@value #WORK_DIR}, where the command then runs. A directory with {@code .tf} or {@code .tf.json}
 * files is a configuration, never a program, so existing configurations are not affected.
 */
public final class StackPrograms {
    /** The program's private work directory, relative to its own: configuration, source map, state. */
    public static final String WORK_DIR = ".strata/sdk";

    /** The class loader's name: frames of the program's classes carry it, which is how a failure finds its line. */
    static final String LOADER_NAME = "stack-program";

    // Commands that read no configuration.
    private static final Set<String> WITHOUT_CONFIGURATION = Set.of("fmt", "version");

    private StackPrograms() {}

    /** What to do for a command in a directory. */
    public sealed interface Outcome {
        /** Not a program: run the command in the directory as it is. */
        record NotAProgram() implements Outcome {}

        /** The program's configuration is in {@code workDir}: run the command there. */
        record Synthesised(Path workDir) implements Outcome {}

        /** The program could not be found, loaded, run or synthesised; nothing was written. */
        record Failed(List<CliDiagnostic> problems) implements Outcome {}
    }

    public static Outcome prepare(Path dir, String command) {
        if (WITHOUT_CONFIGURATION.contains(command) || hasConfigurationFiles(dir)) {
            return new Outcome.NotAProgram();
        }
        List<Path> candidates = candidates(dir);
        List<StackProgramJar> programs = new ArrayList<>();
        for (Path jar : candidates) {
            switch (StackProgramJar.read(jar)) {
                case StackProgramJar.Read.Program p -> programs.add(p.jar());
                case StackProgramJar.Read.NotAProgram n -> {}
                case StackProgramJar.Read.Unreadable u -> {
                    return failed(
                            "Failed to read the stack program",
                            "The file " + display(dir, jar) + " could not be read as a jar: " + u.reason()
                                    + ". Rebuild it (for a Maven project: mvn package).");
                }
                case StackProgramJar.Read.Ambiguous a -> {
                    return failed(
                            "More than one stack program",
                            display(dir, jar) + " lists " + a.classes().size() + " classes in "
                                    + StackProgramJar.SERVICE + " (" + String.join(", ", a.classes())
                                    + "). List exactly one, or name it with the " + StackProgram.MANIFEST_ATTRIBUTE
                                    + " manifest attribute.");
                }
            }
        }
        if (programs.size() > 1) {
            return failed(
                    "More than one stack program",
                    "The directory holds several jars declaring a stack ("
                            + String.join(
                                    ", ",
                                    programs.stream()
                                            .map(p -> display(dir, p.jar()))
                                            .toList())
                            + "). Keep one of them in the directory.");
        }
        if (programs.isEmpty()) {
            if (isSdkProject(dir) && candidates.isEmpty()) {
                return failed(
                        "The stack program is not built",
                        "This directory is a Maven project of a stack program without a built jar in target/. "
                                + "Build it with \"mvn package\" and run the command again.");
            }
            return new Outcome.NotAProgram();
        }
        return run(dir, programs.getFirst());
    }

    private static Outcome run(Path dir, StackProgramJar program) {
        List<Path> classPath = new ArrayList<>();
        classPath.add(program.jar());
        classPath.addAll(program.classPath());
        // A Maven project's dependencies, when copied next to its jar (dependency:copy-dependencies).
        Path target = program.jar().getParent();
        for (String lib : List.of("lib", "dependency")) {
            classPath.addAll(jars(target.resolve(lib)));
        }
        URL[] urls;
        try {
            urls = classPath.stream().map(StackPrograms::url).toArray(URL[]::new);
        } catch (IllegalArgumentException e) {
            return failed("Failed to read the stack program", e.getMessage());
        }
        String jar = display(dir, program.jar());
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        // The SDK comes from Strata's own class path (parent first), so the program's Stack is the one
        // Strata synthesises, whichever SDK copy the program's jar may carry.
        try (URLClassLoader loader = new URLClassLoader(LOADER_NAME, urls, StackPrograms.class.getClassLoader())) {
            thread.setContextClassLoader(loader);
            Class<?> c;
            try {
                c = Class.forName(program.entryPoint(), true, loader);
            } catch (ClassNotFoundException e) {
                return failed(
                        "Stack program not found",
                        "The class " + program.entryPoint() + " that " + jar + " names as its stack program is not "
                                + "in the jar or on its class path. Check the " + StackProgram.MANIFEST_ATTRIBUTE
                                + " manifest attribute (or the service file) and rebuild the jar.");
            }
            if (!StackProgram.class.isAssignableFrom(c)) {
                return failed(
                        "Invalid stack program",
                        "The class " + c.getName() + " that " + jar + " names as its stack program does not "
                                + "implement " + StackProgram.class.getName() + ". Implement it, with a "
                                + "build() method that returns the stack.");
            }
            StackProgram instance;
            try {
                instance = (StackProgram) c.getDeclaredConstructor().newInstance();
            } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
                return failed(
                        "Invalid stack program",
                        "The class " + c.getName() + " needs a public constructor without parameters, so that "
                                + "Strata can create it.");
            }
            Stack stack = instance.build();
            if (stack == null) {
                return failed(
                        "The stack program returned no stack",
                        c.getSimpleName() + ".build() returned null. Return the Stack the program declares.");
            }
            Path work = dir.resolve(WORK_DIR);
            stack.writeTo(work);
            return new Outcome.Synthesised(work);
        } catch (SynthesisException e) {
            return new Outcome.Failed(
                    e.problems().stream().map(StackPrograms::problem).toList());
        } catch (InvocationTargetException e) {
            return programFailed(e.getCause() == null ? e : e.getCause());
        } catch (IOException e) {
            return failed(
                    "Failed to write the synthesised configuration",
                    "Could not write " + WORK_DIR + "/" + Stack.FILE_NAME + ": " + e.getMessage() + ".");
        } catch (VirtualMachineError e) {
            throw e; // out of memory and stack overflow are the frame's to report
        } catch (Exception | LinkageError | AssertionError e) {
            return programFailed(e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static CliDiagnostic problem(Problem p) {
        return CliDiagnostic.error(p.summary(), "At " + p.site() + ": " + p.detail());
    }

    /** The program threw: its message at the program's own line, no stack trace. */
    private static Outcome programFailed(Throwable t) {
        Throwable shown = t instanceof ExceptionInInitializerError && t.getCause() != null ? t.getCause() : t;
        String where = programFrame(shown);
        String message = shown.getMessage() == null || shown.getMessage().isBlank()
                ? "an error without a message (" + shown.getClass().getSimpleName() + ")"
                : shown.getMessage();
        if (shown instanceof NoClassDefFoundError) {
            message = "a class it uses is missing: " + message.replace('/', '.')
                    + ". Put the program's dependencies in the jar, on its Class-Path, or in target/lib";
        }
        return failed(
                "The stack program failed",
                "The program stopped " + (where == null ? "" : "at " + where + " ") + "with " + message
                        + (message.endsWith(".") ? "" : ".") + " Fix it, rebuild the jar and run the command again.");
    }

    /** {@code Infra.java:14 (Infra.build)}: the innermost frame of a class the program's loader loaded. */
    static String programFrame(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            for (StackTraceElement e : c.getStackTrace()) {
                if (LOADER_NAME.equals(e.getClassLoaderName())) {
                    String simple = e.getClassName().substring(e.getClassName().lastIndexOf('.') + 1);
                    return (e.getFileName() == null ? simple : e.getFileName())
                            + (e.getLineNumber() > 0 ? ":" + e.getLineNumber() : "")
                            + " (" + simple + "." + e.getMethodName() + ")";
                }
            }
        }
        return null;
    }

    private static Outcome failed(String summary, String detail) {
        return new Outcome.Failed(List.of(CliDiagnostic.error(summary, detail)));
    }

    private static boolean hasConfigurationFiles(Path dir) {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String n = p.getFileName().toString();
                if ((n.endsWith(".tf") || n.endsWith(".tf.json")) && Files.isRegularFile(p)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return true; // let the command report the unreadable directory in its own words
        }
    }

    /** The directory's own jars, and a Maven project's built jar (not its sources, javadoc or tests). */
    private static List<Path> candidates(Path dir) {
        List<Path> out = new ArrayList<>(jars(dir));
        if (Files.isRegularFile(dir.resolve("pom.xml"))) {
            jars(dir.resolve("target")).stream()
                    .filter(p -> {
                        String n = p.getFileName().toString();
                        return !n.endsWith("-sources.jar")
                                && !n.endsWith("-javadoc.jar")
                                && !n.endsWith("-tests.jar")
                                && !n.startsWith("original-");
                    })
                    .forEach(out::add);
        }
        return out;
    }

    /**
     * Whether {@code dir} is the Maven project of a stack program: its pom builds an artifact (not
     * {@code <packaging>pom</packaging>}, which aggregates modules or only manages versions, as Strata's own
     * root pom does) and depends on the SDK itself, not merely in {@code <dependencyManagement>}.
     */
    static boolean isSdkProject(Path dir) {
        Path pom = dir.resolve("pom.xml");
        if (!Files.isRegularFile(pom)) {
            return false;
        }
        try {
            javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            org.w3c.dom.Element project =
                    f.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
            if ("pom".equals(childText(project, "packaging"))) {
                return false;
            }
            for (org.w3c.dom.Element deps : children(project, "dependencies")) {
                for (org.w3c.dom.Element dep : children(deps, "dependency")) {
                    if ("strata-sdk".equals(childText(dep, "artifactId"))) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IOException
                | RuntimeException
                | javax.xml.parsers.ParserConfigurationException
                | org.xml.sax.SAXException e) {
            // Not a pom Maven could build either; the command reports the directory as it finds it.
            return false;
        }
    }

    private static List<org.w3c.dom.Element> children(org.w3c.dom.Element parent, String name) {
        List<org.w3c.dom.Element> out = new ArrayList<>();
        for (org.w3c.dom.Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof org.w3c.dom.Element e && name.equals(e.getTagName())) {
                out.add(e);
            }
        }
        return out;
    }

    private static String childText(org.w3c.dom.Element parent, String name) {
        List<org.w3c.dom.Element> found = children(parent, name);
        return found.isEmpty() ? null : found.getFirst().getTextContent().strip();
    }

    private static List<Path> jars(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static URL url(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("The path " + p + " cannot be put on a class path.", e);
        }
    }

    private static String display(Path dir, Path p) {
        return p.startsWith(dir) ? dir.relativize(p).toString() : p.toString();
    }
}
