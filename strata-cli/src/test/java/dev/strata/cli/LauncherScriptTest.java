package dev.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.testing.ProcessResult;
import dev.strata.testing.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code strata} launcher script, run by bash on a copy of the repository's skeleton: fake JDKs whose
 * {@code java} records its arguments, and a fake {@code mvnw} that records builds and "packages" the jar.
 * Checks what the launcher caches (the JDK, the start-up cache) and when it drops those caches.
 */
class LauncherScriptTest {
    @TempDir
    Path root;

    private Path log;
    private Path jdk25;
    private Path target;
    private Path jar;

    @BeforeEach
    void setUp() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "bash is needed to run the launcher");
        Path repo = repoRoot();
        Files.copy(repo.resolve("strata"), root.resolve("strata"));
        Files.createDirectories(root.resolve("scripts"));
        Files.copy(repo.resolve("scripts/env.sh"), root.resolve("scripts/env.sh"));
        executable(root.resolve("strata"));
        log = root.resolve("calls.log");
        Files.writeString(log, "");
        jdk25 = fakeJdk("jdk25", "25.0.1");
        target = root.resolve("strata-cli/target");
        jar = target.resolve("strata.jar");
        Files.createDirectories(target.resolve("lib"));
        Files.createDirectories(root.resolve("strata-cli/src/main/java"));
        Files.writeString(root.resolve("strata-cli/src/main/java/A.java"), "class A {}");
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        // The build: records itself, then writes the jar, a lib jar, the merged jar and the start-up cache in
        // that order.
        Path mvnw = root.resolve("mvnw");
        Files.writeString(mvnw, """
                #!/usr/bin/env bash
                echo "mvn $*" >>"%s"
                t="%s"
                mkdir -p "$t/lib"; echo jar >"$t/strata.jar"; sleep 0.01; echo lib >"$t/lib/dep.jar"
                sleep 0.01; echo all >"$t/strata-all.jar"; sleep 0.01; echo aot >"$t/strata.aot"
                """.formatted(log, target));
        executable(mvnw);
    }

    @Test
    void firstRunBuildsAndLaterRunsNeitherBuildNorProbe() throws Exception {
        ProcessResult first = strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(first.exitCode()).as(first.stderr()).isZero();
        assertThat(calls()).filteredOn(c -> c.startsWith("mvn ")).hasSize(1);
        assertThat(Files.readAllLines(target.resolve("launcher-jdk")))
                .containsExactly("JAVA_HOME=" + jdk25 + ";javac=", jdk25.toString(), "25");

        // No probing: the cached JDK is used even though its javac (which the probe requires) is gone.
        Files.delete(jdk25.resolve("bin/javac"));
        Files.writeString(log, "");
        ProcessResult second = strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(second.exitCode()).as(second.stderr()).isZero();
        assertThat(calls()).containsExactly("java jdk25 " + javaArgs(true, "version"));
    }

    @Test
    void sourceNewerThanTheJarRebuildsOnce() throws Exception {
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        // The jar made before the edit (rather than the source dated in the future, which no build could beat).
        touchAfter(root.resolve("strata-cli/src/main/java/A.java"), jar);
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(60)));
        Files.setLastModifiedTime(
                root.resolve("strata-cli/src/main/java/A.java"),
                FileTime.from(Instant.now().minusSeconds(30)));
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).filteredOn(c -> c.startsWith("mvn ")).hasSize(1);
    }

    /**
     * strata-cli packaged without -am copies the other modules' jars from ~/.m2 into lib/: no source is newer
     * than the jar, but lib/ is not what the modules' target/ holds, so the launcher builds.
     */
    @Test
    void aLibJarThatIsNotItsModulesBuiltJarRebuilds() throws Exception {
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        Path module = root.resolve("strata-engine");
        Files.createDirectories(module.resolve("src/main/java"));
        Files.writeString(module.resolve("src/main/java/E.java"), "class E {}");
        Path built = module.resolve("target/strata-engine-0.1.0-SNAPSHOT.jar");
        Files.createDirectories(built.getParent());
        Files.writeString(built, "engine");
        Path copied = target.resolve("lib/strata-engine-0.1.0-SNAPSHOT.jar");
        Files.copy(built, copied);
        // As the reactor copies it: the same modification time, all older than strata.jar.
        FileTime old = FileTime.from(Instant.now().minusSeconds(120));
        for (Path p : List.of(module.resolve("src/main/java/E.java"), built, copied)) {
            Files.setLastModifiedTime(p, old);
        }
        // A module whose name starts like another's is told apart by the version.
        Files.createDirectories(root.resolve("strata-engine-extra/src/main"));
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).noneMatch(c -> c.startsWith("mvn "));

        // From ~/.m2: an older installation.
        Files.setLastModifiedTime(copied, FileTime.from(Instant.now().minusSeconds(86_400)));
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).filteredOn(c -> c.startsWith("mvn ")).hasSize(1);

        // The module's own jar missing (its target/ cleaned) builds as well.
        Files.setLastModifiedTime(copied, old);
        Files.delete(built);
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).filteredOn(c -> c.startsWith("mvn ")).hasSize(1);
    }

    @Test
    void modulePomsAndNestedModulesSourcesAreWatchedButTestsAreNot() throws Exception {
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        Path test = root.resolve("strata-cli/src/test/java/ATest.java");
        Files.createDirectories(test.getParent());
        Files.writeString(test, "class ATest {}");
        touchAfter(test, jar);
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).noneMatch(c -> c.startsWith("mvn "));

        for (Path source : List.of(
                root.resolve("strata-cli/pom.xml"), root.resolve("strata-providers/aws/src/main/java/B.java"))) {
            Files.createDirectories(source.getParent());
            Files.writeString(source, "changed");
            Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(60)));
            Files.setLastModifiedTime(source, FileTime.from(Instant.now().minusSeconds(30)));
            Files.writeString(log, "");
            strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
            assertThat(calls())
                    .as(source.toString())
                    .filteredOn(c -> c.startsWith("mvn "))
                    .hasSize(1);
        }
    }

    @Test
    void commandsThatHashProviderPackagesGetFullTieredCompilationAndTheOthersC1() throws Exception {
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        for (List<String> command : List.of(
                List.of("init"),
                List.of("providers", "lock"),
                List.of("providers", "mirror", "dir"),
                List.of("stacks", "init"))) {
            Files.writeString(log, "");
            List<String> args = new java.util.ArrayList<>(List.of("-chdir=x"));
            args.addAll(command);
            args.add("-input=false");
            strata(Map.of("JAVA_HOME", jdk25.toString()), args.toArray(String[]::new));
            assertThat(calls())
                    .as(command.toString())
                    .containsExactly("java jdk25 "
                            + javaArgs(true, args.toArray(String[]::new)).replace(" -XX:TieredStopAtLevel=1", ""));
        }
        for (List<String> command : List.of(
                List.of("plan"),
                List.of("apply"),
                List.of("destroy"),
                List.of("test"),
                List.of("stacks", "plan"),
                List.of("validate"),
                List.of("fmt"),
                List.of("console"),
                List.of("output"),
                List.of("show"),
                List.of("state", "list"))) {
            Files.writeString(log, "");
            List<String> args = new java.util.ArrayList<>(command);
            args.add("-json");
            strata(Map.of("JAVA_HOME", jdk25.toString()), args.toArray(String[]::new));
            assertThat(calls())
                    .as(command.toString())
                    .containsExactly("java jdk25 " + javaArgs(true, args.toArray(String[]::new)));
        }
        // STRATA_JAVA_OPTS replaces the choice for every command.
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString(), "STRATA_JAVA_OPTS", "-Xmx2g"), "plan");
        strata(Map.of("JAVA_HOME", jdk25.toString(), "STRATA_JAVA_OPTS", "-Xmx2g"), "version");
        assertThat(calls())
                .containsExactly(
                        "java jdk25 "
                                + javaArgs(true, "plan").replace("-XX:+UseSerialGC -XX:TieredStopAtLevel=1", "-Xmx2g"),
                        "java jdk25 "
                                + javaArgs(true, "version")
                                        .replace("-XX:+UseSerialGC -XX:TieredStopAtLevel=1", "-Xmx2g"));
    }

    @Test
    void aSymlinkToTheLauncherFindsTheRepository() throws Exception {
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        Path bin = Files.createDirectories(root.resolve("elsewhere/bin"));
        Files.createSymbolicLink(bin.resolve("strata"), root.resolve("strata"));
        Files.writeString(log, "");
        ProcessBuilder pb =
                new ProcessBuilder("/bin/bash", bin.resolve("strata").toString(), "version").directory(bin.toFile());
        pb.environment().remove("STRATA_JAVA_OPTS");
        pb.environment().put("PATH", tools().toString());
        pb.environment().put("JAVA_HOME", jdk25.toString());
        ProcessResult r = Processes.run(pb, "", Duration.ofSeconds(60));
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        // Started by a relative name from the repository, as in `bash strata version`.
        pb.command(List.of("/bin/bash", "strata", "version")).directory(root.toFile());
        ProcessResult relative = Processes.run(pb, "", Duration.ofSeconds(60));
        assertThat(relative.exitCode()).as(relative.stderr()).isZero();
        // Through a symlinked directory: the jar's path stays the real one the start-up cache was trained
        // with (the JVM rejects a cache whose class path differs).
        Path linkedRepo = Files.createSymbolicLink(root.resolve("elsewhere/repo"), root);
        pb.command(List.of("/bin/bash", linkedRepo.resolve("strata").toString(), "version"));
        ProcessResult linked = Processes.run(pb, "", Duration.ofSeconds(60));
        assertThat(linked.exitCode()).as(linked.stderr()).isZero();
        String expected = "java jdk25 " + javaArgs(true, "version");
        assertThat(calls()).containsExactly(expected, expected, expected);
    }

    @Test
    void buildOutputAndGitDataAreNotSources() throws Exception {
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        Path generated = root.resolve("strata-engine/target/generated-sources/src/main/X.java");
        Files.createDirectories(generated.getParent());
        Files.writeString(generated, "class X {}");
        touchAfter(generated, jar);
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).noneMatch(c -> c.startsWith("mvn "));
    }

    @Test
    void anotherJavaHomeOrARemovedJdkIsProbedAgain() throws Exception {
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        Path jdk21 = fakeJdk("jdk21", "21.0.5");
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk21.toString()), "version");
        // JDK 21 has neither the AOT cache, nor the exit wait's or the Unsafe option: passing one would stop
        // the JVM from starting.
        assertThat(calls())
                .containsExactly("java jdk21 "
                        + javaArgs(false, "version")
                                .replace(" -XX:UserThreadWaitAttemptsAtExit=0", "")
                                .replace(" --sun-misc-unsafe-memory-access=allow", ""));
        assertThat(Files.readAllLines(target.resolve("launcher-jdk"))).contains(jdk21.toString(), "21");

        deleteTree(jdk21);
        Files.writeString(log, "");
        ProcessResult gone = strata(Map.of("JAVA_HOME", jdk21.toString()), "version");
        // The cache no longer answers: the launcher probes again (finding whichever JDK the machine has, or
        // saying there is none) instead of starting the java that is gone.
        assertThat(calls()).noneMatch(c -> c.startsWith("java jdk21"));
        assertThat(gone.stderr()).doesNotContain(jdk21.resolve("bin/java").toString());
    }

    @Test
    void theMergedJarWithTheStartupCacheOnlyWhenTheyAreNotOlderThanWhatTheyWereMadeFrom() throws Exception {
        Path all = target.resolve("strata-all.jar");
        Path aot = target.resolve("strata.aot");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).containsExactly("java jdk25 " + javaArgs(true, "version"));

        // The merged jar replaced after the cache was trained: the JVM would reject the cache with errors.
        touchAfter(all, aot);
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).containsExactly("java jdk25 " + javaArgs(all, false, "version"));

        // strata.jar packaged again without the merge: the merged jar is out of date, and the cache (trained
        // on the merged jar's class path) does not apply to strata.jar with lib/, however new it is.
        touchAfter(jar, all);
        touchAfter(aot, jar);
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).containsExactly("java jdk25 " + javaArgs(jar, false, "version"));

        // No merged jar at all: strata.jar with lib/, without the cache.
        touchAfter(all, jar);
        touchAfter(aot, all);
        Files.delete(all);
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).containsExactly("java jdk25 " + javaArgs(jar, false, "version"));
    }

    @Test
    void versionStartsWithItsOwnCacheWhileItIsNewerThanTheMergedJar() throws Exception {
        Path all = target.resolve("strata-all.jar");
        Path versionAot = target.resolve("strata-version.aot");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        Files.writeString(versionAot, "aot");
        touchAfter(versionAot, target.resolve("strata.aot"));
        for (List<String> command : List.of(
                List.of("version"), List.of("-chdir=x", "version", "-json"), List.of("-v"), List.of("-version"))) {
            Files.writeString(log, "");
            strata(Map.of("JAVA_HOME", jdk25.toString()), command.toArray(String[]::new));
            assertThat(calls())
                    .as(command.toString())
                    .containsExactly("java jdk25 " + javaArgs(all, versionAot, command.toArray(String[]::new)));
        }
        // Every other command keeps the shared cache.
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "validate");
        assertThat(calls()).containsExactly("java jdk25 " + javaArgs(true, "validate"));

        // A version cache older than the merged jar (a build that did not train it): the shared cache.
        touchAfter(all, versionAot);
        touchAfter(target.resolve("strata.aot"), all);
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        assertThat(calls()).containsExactly("java jdk25 " + javaArgs(true, "version"));
    }

    @Test
    void thePlanAndApplyFamilyStartsWithItsOwnCacheWhileItIsNewerThanTheMergedJar() throws Exception {
        Path all = target.resolve("strata-all.jar");
        Path runAot = target.resolve("strata-run.aot");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "version");
        Files.writeString(runAot, "aot");
        touchAfter(runAot, target.resolve("strata.aot"));
        for (List<String> command : List.of(
                List.of("plan"),
                List.of("-chdir=x", "apply", "-auto-approve"),
                List.of("destroy", "-auto-approve"),
                List.of("refresh"),
                List.of("import", "a.b", "id"),
                List.of("show", "-json"),
                List.of("output", "-raw", "x"),
                List.of("state", "list"),
                List.of("taint", "a.b"),
                List.of("untaint", "a.b"),
                List.of("drift"),
                List.of("test"))) {
            Files.writeString(log, "");
            strata(Map.of("JAVA_HOME", jdk25.toString()), command.toArray(String[]::new));
            assertThat(calls())
                    .as(command.toString())
                    .containsExactly("java jdk25 " + javaArgs(all, runAot, command.toArray(String[]::new)));
        }
        // The small commands keep the shared cache, and version its own; a plan's file name after another
        // command is no command.
        for (List<String> command : List.of(
                List.of("validate"),
                List.of("fmt", "plan"),
                List.of("console"),
                List.of("graph"),
                List.of("init"),
                List.of("workspace", "show"),
                List.of("-help"))) {
            Files.writeString(log, "");
            strata(Map.of("JAVA_HOME", jdk25.toString()), command.toArray(String[]::new));
            assertThat(calls())
                    .as(command.toString())
                    .singleElement()
                    .satisfies(c -> assertThat(c).contains(" -XX:AOTCache=" + target.resolve("strata.aot") + " "));
        }

        // A run cache older than the merged jar (a build that did not train it): the shared cache.
        touchAfter(all, runAot);
        touchAfter(target.resolve("strata.aot"), all);
        Files.writeString(log, "");
        strata(Map.of("JAVA_HOME", jdk25.toString()), "apply");
        assertThat(calls()).containsExactly("java jdk25 " + javaArgs(true, "apply"));
        // STRATA_JAVA_OPTS with a cache of its own: no other cache.
        Files.writeString(log, "");
        touchAfter(runAot, all);
        strata(Map.of("JAVA_HOME", jdk25.toString(), "STRATA_JAVA_OPTS", "-XX:AOTCache=/x.aot"), "plan");
        assertThat(calls())
                .containsExactly("java jdk25 -XX:AOTCache=/x.aot "
                        + javaArgs(all, (Path) null, "plan").replace("-XX:+UseSerialGC -XX:TieredStopAtLevel=1 ", ""));
    }

    /** The java command line of a fresh build: the merged jar, with the start-up cache when {@code aot}. */
    /**
     * Without a locale the JVM could not name a file whose name is not ASCII: the launcher gives the JVM
     * {@code LC_CTYPE=C.UTF-8} and tells it so (for the programs it starts, which get the environment as it was);
     * with any locale set it changes nothing.
     */
    @Test
    void withoutALocaleTheJvmGetsAUtf8CharacterType() throws Exception {
        Path jdk = root.resolve("jdkloc");
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        Files.writeString(
                jdk.resolve("bin/java"),
                "#!/usr/bin/env bash\necho \"java LC_CTYPE=[${LC_CTYPE:-}] $*\" >>\"" + log + "\"\n");
        Files.writeString(jdk.resolve("bin/javac"), "#!/usr/bin/env bash\n");
        executable(jdk.resolve("bin/java"));
        executable(jdk.resolve("bin/javac"));
        assertThat(strata(Map.of("JAVA_HOME", jdk.toString(), "LANG", ""), "version")
                        .exitCode())
                .isZero();
        assertThat(calls().getLast())
                .startsWith("java LC_CTYPE=[C.UTF-8] ")
                .contains(" -Dstrata.launcher.lcCtype=added ");
        for (Map<String, String> locale : List.of(
                Map.of("LANG", "de_DE.UTF-8"),
                Map.of("LANG", "", "LC_ALL", "C"),
                Map.of("LANG", "", "LC_CTYPE", "C"))) {
            Files.writeString(log, "");
            Map<String, String> env = new java.util.HashMap<>(locale);
            env.put("JAVA_HOME", jdk.toString());
            assertThat(strata(env, "version").exitCode()).isZero();
            assertThat(calls().getLast())
                    .as("%s", locale)
                    .startsWith("java LC_CTYPE=[" + locale.getOrDefault("LC_CTYPE", "") + "] ")
                    .doesNotContain("lcCtype");
        }
    }

    private String javaArgs(boolean aot, String... args) {
        return javaArgs(target.resolve("strata-all.jar"), aot ? target.resolve("strata.aot") : null, args);
    }

    private String javaArgs(Path runJar, boolean aot, String... args) {
        return javaArgs(runJar, aot ? target.resolve("strata.aot") : null, args);
    }

    private String javaArgs(Path runJar, Path aot, String... args) {
        StringBuilder b =
                new StringBuilder("-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss1g -XX:UserThreadWaitAttemptsAtExit=0"
                        + " --sun-misc-unsafe-memory-access=allow");
        if (aot != null) {
            b.append(" -XX:AOTCache=").append(aot).append(" -Xlog:aot=off -Xlog:cds=off");
        }
        b.append(" -Dstrata.stdout.tty=false -jar ").append(runJar);
        for (String a : args) {
            b.append(' ').append(a);
        }
        return b.toString();
    }

    private ProcessResult strata(Map<String, String> env, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                        List.of("/bin/bash", root.resolve("strata").toString()).stream()
                                .collect(java.util.stream.Collectors.toCollection(java.util.ArrayList::new)))
                .directory(root.toFile());
        pb.command().addAll(List.of(args));
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("STRATA_JAVA_OPTS");
        // Only the tools the scripts use, and no javac: the cache key then does not depend on the machine.
        pb.environment().put("PATH", tools().toString());
        // A locale, as on a developer's machine (without one the launcher adds LC_CTYPE for the JVM).
        pb.environment().put("LANG", "C.UTF-8");
        pb.environment().remove("LC_ALL");
        pb.environment().remove("LC_CTYPE");
        pb.environment().putAll(env);
        return Processes.run(pb, "", Duration.ofSeconds(60));
    }

    private Path tools() throws IOException {
        Path bin = root.resolve("tools");
        if (!Files.isDirectory(bin)) {
            Files.createDirectories(bin);
            for (String tool : List.of(
                    "bash",
                    "env",
                    "find",
                    "dirname",
                    "readlink",
                    "mkdir",
                    "mv",
                    "sed",
                    "head",
                    "cut",
                    "stty",
                    "sleep",
                    "awk",
                    "rm",
                    "mktemp",
                    "cat")) {
                for (String dir : List.of("/usr/bin", "/bin")) {
                    Path exe = Path.of(dir, tool);
                    if (Files.isExecutable(exe)) {
                        Files.createSymbolicLink(bin.resolve(tool), exe);
                        break;
                    }
                }
            }
        }
        return bin;
    }

    private List<String> calls() throws IOException {
        return Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
    }

    /** A JDK whose java records "java NAME ARGS" and exits 0. */
    private Path fakeJdk(String name, String version) throws IOException {
        Path home = root.resolve(name);
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        Files.writeString(
                home.resolve("bin/java"), "#!/usr/bin/env bash\necho \"java " + name + " $*\" >>\"" + log + "\"\n");
        Files.writeString(home.resolve("bin/javac"), "#!/usr/bin/env bash\n");
        executable(home.resolve("bin/java"));
        executable(home.resolve("bin/javac"));
        // The release file predates any cache the launcher writes.
        Files.setLastModifiedTime(
                home.resolve("release"), FileTime.from(Instant.now().minusSeconds(3600)));
        return home;
    }

    private static void touchAfter(Path file, Path reference) throws IOException {
        FileTime ref = Files.getLastModifiedTime(reference);
        Files.setLastModifiedTime(file, FileTime.from(ref.toInstant().plusSeconds(2)));
    }

    private static void executable(Path p) throws IOException {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static Path repoRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("strata")) && Files.isRegularFile(d.resolve("scripts/env.sh"))) {
                return d;
            }
        }
        throw new IllegalStateException("the repository root (with ./strata) is not above "
                + Path.of("").toAbsolutePath());
    }
}
