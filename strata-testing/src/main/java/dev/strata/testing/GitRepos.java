package dev.strata.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Local Git repositories for tests of {@code git::} sources: files committed into a new repository with
 * the {@code git} on the PATH, which skips the calling test where git is absent. The identity is given on
 * the command line, so that the machine's own git configuration is not needed.
 */
public final class GitRepos {
    private GitRepos() {}

    /**
     * A new repository in {@code dir} (created) holding {@code files} (relative path to content) in one
     * commit, tagged with each of {@code tags}.
     */
    public static Path commit(Path dir, Map<String, String> files, String... tags) throws IOException {
        for (Map.Entry<String, String> f : new TreeMap<>(files).entrySet()) {
            Path file = dir.resolve(f.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, f.getValue());
        }
        git(dir, "init", "--quiet");
        git(dir, "add", "-A");
        git(dir, "commit", "--quiet", "-m", "module");
        for (String tag : tags) {
            git(dir, "tag", tag);
        }
        return dir;
    }

    /** Runs {@code git args} in {@code dir}; a failure fails the test with git's output. */
    public static void git(Path dir, String... args) throws IOException {
        // Neither the branch name nor signing may come from the machine's git configuration.
        List<String> cmd = new ArrayList<>(List.of(
                "git",
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "-c",
                "init.defaultBranch=main",
                "-c",
                "commit.gpgsign=false",
                "-c",
                "tag.gpgsign=false"));
        cmd.addAll(List.of(args));
        assumeTrue(Executables.isOnPath("git"), "git is not on the PATH");
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            assertThat(p.waitFor(30, TimeUnit.SECONDS))
                    .as("git " + String.join(" ", args) + " ended")
                    .isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for git", e);
        }
        assertThat(p.exitValue()).as(out).isZero();
    }
}
