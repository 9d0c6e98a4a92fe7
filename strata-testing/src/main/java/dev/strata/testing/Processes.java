package dev.strata.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a child process to its end, bounded in time, collecting what it prints. */
public final class Processes {
    private Processes() {}

    /**
     * Starts {@code pb}, writes {@code stdin} (nothing when null) and closes it, and waits for the end. stdout and
     * stderr are read at once (a full pipe would block the child); stderr stays empty when {@code pb} merges it or
     * sends it elsewhere. A process still running after {@code timeout} is killed and reported as an error.
     */
    public static ProcessResult run(ProcessBuilder pb, String stdin, Duration timeout)
            throws IOException, InterruptedException {
        Process p = pb.start();
        // Both streams read on their own threads, so that the time limit holds while the child prints nothing.
        CompletableFuture<byte[]> out =
                CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()), Processes::thread);
        CompletableFuture<byte[]> err =
                CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()), Processes::thread);
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // The child exited without reading its input: its exit code and output tell why.
        }
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IOException(String.join(" ", pb.command()) + " in " + pb.directory() + " did not finish in "
                    + timeout.toSeconds() + " s");
        }
        return new ProcessResult(
                p.exitValue(),
                new String(out.join(), StandardCharsets.UTF_8),
                new String(err.join(), StandardCharsets.UTF_8));
    }

    /** A thread of its own per stream: the common pool may have a single worker on a small machine. */
    private static void thread(Runnable r) {
        Thread.ofPlatform().daemon().name("process-output").start(r);
    }

    private static byte[] readAll(InputStream s) {
        try {
            return s.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
